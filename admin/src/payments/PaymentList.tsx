// The payments tab, filtered, sorted and paged on the server: a dense table on a laptop (twenty rows at
// 1280x800), a card per payment on a phone.
import { Box, Button, Typography } from '@mui/material';
import { useLayoutEffect, useMemo } from 'react';
import {
  Datagrid,
  FunctionField,
  I18nContext,
  List,
  Loading,
  Pagination,
  TextField,
  useGetList,
  useI18nProvider,
  useListContext,
} from 'react-admin';
import {
  dateRangeText,
  formatNTD,
  formatTaipei,
  gates,
  listWords,
  PAYMENTS_TABLE_STACK_TIMES_BELOW,
  scopeIsEmpty,
  storeLabel,
  SOURCE_LABELS,
} from '../../../core/browser';
import type { ListedPayment, Me, Payment } from '../../../core/browser';
import { Forbidden, NoStoreNotice } from '../common/Forbidden';
import { handOffFirstScreen } from '../providers/firstScreen';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { BulkActions } from './BulkActions';
import { ConfirmCreditedButton } from './ConfirmCreditedButton';
import { DeletePaymentButton } from './DeletePaymentButton';
import { MethodCell } from './MethodEditButton';
import { PAYMENTS_UI as P, UI } from '../messages';
import { NoteCell } from './NoteCell';
import { PaymentCards } from './PaymentCards';
import { PaymentGridHeader } from './PaymentGridHeader';
import { countParams, PAYMENTS_PER_PAGE, PAYMENTS_SORT, paymentsFilterDefaults, permanentFilter } from './listParams';
import { PaymentFilters, useStoreFilterMode } from './PaymentFilters';
import { PaymentToolbar } from './PaymentToolbar';
import { StatusCell } from './StatusCell';
import { UnlinkButton } from './UnlinkButton';
import { useListWatch } from './useListWatch';
import { LayoutHoldProvider, useSteadyNarrow } from './layoutHold';
import { FloodNotice } from '../stores/FloodNotice';

export function PaymentList() {
  const { me, isPending } = useMe();
  const listed = !isPending && me && gates.viewPayments(me) && !scopeIsEmpty(me);
  // a refusal or a notice replaces the server's first page at once; the list waits for its rows (HandOff)
  useLayoutEffect(() => {
    if (!isPending && !listed) handOffFirstScreen();
  }, [isPending, listed]);
  if (isPending) return <Loading />;
  if (!me || !gates.viewPayments(me)) return <ForbiddenNotice me={me} />;
  // no store at all: say so, rather than 目前沒有任何匯款記錄
  if (scopeIsEmpty(me))
    return <NoStoreNotice title={P.title} heading={P.noStoreTitle} message={P.noStore} testId="payments-no-store" />;
  return <PaymentListView me={me} />;
}

function ForbiddenNotice({ me }: { me: Me | undefined }) {
  return (
    <Forbidden message={UI.forbiddenPayments} testId="payments-forbidden">
      <Box component="pre" sx={{ mt: 1, mb: 0, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {P.forbiddenDebug}
        {JSON.stringify({ role: me?.role, permissions: me?.permissions ?? [] })}
      </Box>
    </Forbidden>
  );
}

function PaymentListView({ me }: { me: Me }) {
  const [selectedStore] = useSelectedStore();
  const [multi] = useStoreFilterMode();
  const permanent = permanentFilter(me, selectedStore, multi);
  return (
    <LayoutHoldProvider>
      <FloodNotice />
      <List
        resource="payments"
        title={P.title}
        filter={permanent}
        filterDefaultValues={paymentsFilterDefaults()}
        sort={PAYMENTS_SORT}
        perPage={PAYMENTS_PER_PAGE}
        actions={false}
        empty={false}
        pagination={<PaymentPagination />}
        // the container the table's narrow layout measures, with the menu open or closed
        sx={{ '& .RaList-content': { overflowX: 'auto', containerType: 'inline-size' } }}
      >
        <PaymentToolbar me={me} permanent={permanent} />
        <PaymentFilters me={me} />
        <ListWatch permanent={permanent} />
        <HandOff />
        <PaymentGrid me={me} permanent={permanent} />
      </List>
    </LayoutHoldProvider>
  );
}

// The server's first page (http/firstScreen.ts) goes in the commit that draws the list's rows and store
// names, so rows are never shown twice nor missing.
function HandOff() {
  const { isPending } = useListContext();
  const { isPending: storesPending } = useStores();
  useLayoutEffect(() => {
    if (!isPending && !storesPending) handOffFirstScreen();
  }, [isPending, storesPending]);
  return null;
}

function ListWatch({ permanent }: { permanent: Record<string, unknown> }) {
  useListWatch(permanent);
  return null;
}

function PaymentGrid({ me, permanent }: { me: Me; permanent: Record<string, unknown> }) {
  const narrow = useSteadyNarrow();
  const storeName = useStoreName();
  const canEdit = gates.editPayments(me);
  const canDelete = gates.deletePayments(me);
  if (narrow)
    return (
      <PaymentCards
        canEdit={canEdit}
        canDelete={canDelete}
        storeName={storeName}
        empty={<EmptyState permanent={permanent} />}
      />
    );
  return <PaymentTable canEdit={canEdit} canDelete={canDelete} storeName={storeName} permanent={permanent} />;
}

/** With the code when several stores are chosen; null until the stores are in. */
function useStoreName() {
  const { stores, byId } = useStores();
  const [multi] = useStoreFilterMode();
  return (id: number) => {
    if (stores.length === 0) return null;
    const s = byId(id);
    return multi ? storeLabel(s) : (s?.name ?? storeLabel(s));
  };
}

function PaymentTable({
  canEdit,
  canDelete,
  storeName,
  permanent,
}: {
  canEdit: boolean;
  canDelete: boolean;
  storeName: (id: number) => string | null;
  permanent: Record<string, unknown>;
}) {
  const { stores } = useStores();
  const { filterValues } = useListContext();
  const time = (iso: string) => formatTaipei(Date.parse(iso));
  const words = listWords(filterValues);
  return (
    <Datagrid
      bulkActionButtons={canDelete || canEdit ? <BulkActions canDelete={canDelete} canEdit={canEdit} /> : false}
      header={PaymentGridHeader}
      rowClick={false}
      size="small"
      empty={<EmptyState permanent={permanent} />}
      sx={tableSx(canDelete)}
    >
      <TextField source="last_five" label={P.lastFiveColumn} sx={{ fontFamily: 'monospace', fontSize: '0.95rem' }} />
      <FunctionField source="paid_at" label={words.time} render={(r: Payment) => time(r.paid_at)} />
      <FunctionField
        source="amount"
        label={words.amount}
        textAlign="right"
        render={(r: Payment) => formatNTD(r.amount)}
      />
      <FunctionField
        source="method"
        label={P.method}
        render={(r: Payment) => <MethodCell record={r} editable={canEdit} compact />}
      />
      {stores.length > 0 && (
        <FunctionField
          source="store_id"
          label={P.store}
          // cut to fit, whole on hover, so the columns after it stay on the screen
          render={(r: Payment) => <Clipped text={storeName(r.store_id)} width="8em" />}
        />
      )}
      <FunctionField
        source="status"
        label={P.status}
        render={(r: ListedPayment) => <StatusActions record={r} canEdit={canEdit} />}
      />
      <FunctionField
        source="note"
        label={P.note}
        sortable={false}
        render={(r: Payment) => <NoteCell record={r} editable={canEdit} fullWidth />}
      />
      <FunctionField
        source="source"
        label={P.source}
        sortable={false}
        render={(r: Payment) => SOURCE_LABELS[r.source] ?? SOURCE_LABELS.staff}
      />
      <FunctionField
        source="created_by_username"
        label={P.submitter}
        sortable={false}
        render={(r: ListedPayment) => <Clipped text={r.created_by_username ?? '—'} width="5em" />}
      />
      <FunctionField source="created_at" label={P.createdAt} render={(r: Payment) => time(r.created_at)} />
      {canDelete && (
        <FunctionField label={P.actions} sortable={false} render={(r: Payment) => <DeletePaymentButton record={r} />} />
      )}
    </Datagrid>
  );
}

/** Dense rows, 28 px each, so an accountant sees twenty of them on a laptop. */
function tableSx(canDelete: boolean) {
  return {
    // columns running past the list (1200-1279 px beside the menu) scroll the table, not the filters
    '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
    '& td, & th': { px: 0.5, py: 0, height: 28, lineHeight: 1.2, whiteSpace: 'nowrap' },
    // wide enough to type in beside a long method (電子支付-LINE Pay)
    '& td.column-note': { whiteSpace: 'normal', width: '30%', minWidth: 96 },
    '& .MuiCheckbox-root': { p: 0.25 },
    '& td.MuiTableCell-paddingCheckbox, & th.MuiTableCell-paddingCheckbox': { px: 0.5 },
    '& td .MuiIconButton-root': { p: 0.25 },
    // beside the menu on a 1280 px laptop the times stack date over time, so every column fits beside 操作
    [`@container (width < ${PAYMENTS_TABLE_STACK_TIMES_BELOW}px)`]: {
      '& td.column-paid_at > *, & td.column-created_at > *': {
        display: 'block',
        width: 'min-content',
        whiteSpace: 'normal',
        fontSize: '0.8125rem',
        lineHeight: '13.5px',
      },
    },
    // delete stays on screen when the columns run past it; its header over the others, which stick on scroll
    ...(canDelete
      ? {
          '& td:last-of-type, & th:last-of-type': {
            position: 'sticky',
            right: 0,
            bgcolor: 'background.paper',
            zIndex: 1,
            boxShadow: '-1px 0 0 rgba(0,0,0,0.12)',
          },
          '& th:last-of-type': { zIndex: 3 },
        }
      : {}),
  };
}

function StatusActions({ record, canEdit }: { record: ListedPayment; canEdit: boolean }) {
  return (
    <>
      <StatusCell record={record} editable={canEdit} />
      <UnlinkButton record={record} compact />
      {canEdit && <ConfirmCreditedButton record={record} compact />}
    </>
  );
}

function Clipped({ text, width }: { text: string | null; width: string }) {
  return (
    <Box
      component="span"
      title={text ?? undefined}
      sx={{ display: 'block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {text}
    </Box>
  );
}

/** 第 1-25 筆 without a second total: the count line above says it once. */
function PaymentPagination() {
  const i18n = useI18nProvider();
  const placeOnly = useMemo(
    () => ({
      ...i18n,
      translate: (key: string, options?: Record<string, unknown>) =>
        key === 'ra.navigation.page_range_info'
          ? P.pageRange(Number(options?.offsetBegin), Number(options?.offsetEnd))
          : i18n.translate(key, options),
    }),
    [i18n],
  );
  return (
    <I18nContext.Provider value={placeOnly}>
      <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />
    </I18nContext.Provider>
  );
}

/** A search says which days it looked at, with one tap to look at every date. */
function EmptyState({ permanent }: { permanent: Record<string, unknown> }) {
  const { total: all, isPending } = useGetList('payments', countParams(permanent));
  const { isPending: listPending, filterValues, setFilters } = useListContext();
  if (isPending || listPending) return <Typography sx={{ p: 3 }}>{P.loading}</Typography>;
  const q = typeof filterValues.q === 'string' ? filterValues.q : '';
  const days = dateRangeText(
    filterValues.paid_at_gte as string | undefined,
    filterValues.paid_at_lte as string | undefined,
  );
  const text = !all ? P.emptyAll : q ? (days ? P.emptySearchIn(q, days) : P.emptySearchAll(q)) : P.emptyFiltered;
  return (
    <Box sx={{ p: 3, textAlign: 'center' }}>
      <Typography sx={{ color: 'text.secondary' }} data-testid="payments-empty">
        {text}
      </Typography>
      {all && q && days ? (
        <Button
          size="small"
          variant="outlined"
          sx={{ mt: 1.5 }}
          onClick={() => {
            const { paid_at_gte: _from, paid_at_lte: _to, ...rest } = filterValues;
            setFilters(rest, undefined, false);
          }}
          data-testid="search-every-date"
        >
          {P.searchEveryDate}
        </Button>
      ) : null}
    </Box>
  );
}
