import { Checkbox, TableCell, TableHead, TableRow } from '@mui/material';
import { Children, isValidElement, useCallback, type MouseEvent } from 'react';
import {
  DatagridClasses,
  DatagridHeaderCell,
  useListContext,
  useTranslate,
  type DatagridHeaderProps,
} from 'react-admin';

/** react-admin's header, with a select-all box that shows half-checked when some of the page is selected. */
export function PaymentGridHeader({ children, className, hasBulkActions = false }: DatagridHeaderProps) {
  const translate = useTranslate();
  const { sort, data, onSelect, selectedIds, setSort } = useListContext();
  const pageIds = (data ?? []).map((r) => r.id);
  const chosenHere = pageIds.filter((id) => selectedIds.includes(id)).length;
  const all = pageIds.length > 0 && chosenHere === pageIds.length;
  const some = chosenHere > 0 && !all;

  const updateSort = useCallback(
    (event: MouseEvent<HTMLElement>) => {
      event.stopPropagation();
      const field = event.currentTarget.dataset.field as string;
      const order =
        sort?.field === field
          ? sort.order === 'ASC'
            ? 'DESC'
            : 'ASC'
          : (event.currentTarget.dataset.order as 'ASC' | 'DESC');
      setSort({ field, order });
    },
    [sort?.field, sort?.order, setSort],
  );
  const selectAll = (checked: boolean) =>
    onSelect(
      checked
        ? [...selectedIds, ...pageIds.filter((id) => !selectedIds.includes(id))]
        : selectedIds.filter((id) => !pageIds.includes(id)),
    );

  return (
    <TableHead className={[className, DatagridClasses.thead].filter(Boolean).join(' ')}>
      <TableRow className={`${DatagridClasses.row} ${DatagridClasses.headerRow}`}>
        {hasBulkActions && (
          <TableCell padding="checkbox" className={DatagridClasses.headerCell}>
            <Checkbox
              className="select-all"
              color="primary"
              checked={all}
              indeterminate={some}
              // a half-checked box selects the rest of the page, as Gmail's and MUI's tables do
              onChange={(e) => selectAll(e.target.checked || some)}
              onClick={(e) => e.stopPropagation()}
              slotProps={{
                input: {
                  'aria-label': translate('ra.action.select_all', { _: '全選' }),
                  'data-indeterminate': String(some),
                } as object,
              }}
            />
          </TableCell>
        )}
        {Children.map(children, (field, index) => {
          if (!isValidElement(field)) return null;
          const props = field.props as { source?: string; sortBy?: string };
          return (
            <DatagridHeaderCell
              className={`${DatagridClasses.headerCell} column-${props.source}`}
              sort={sort}
              field={field}
              isSorting={sort?.field === (props.sortBy || props.source)}
              key={props.source || index}
              updateSort={updateSort}
            />
          );
        })}
      </TableRow>
    </TableHead>
  );
}
