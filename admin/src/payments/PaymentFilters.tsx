// The payments tab's filters. On a phone the search box and 清除篩選 stay in view and the rest fold behind 篩選.
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import FilterListIcon from '@mui/icons-material/FilterList';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Chip,
  Collapse,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState } from 'react';
import { useListContext, useStore } from 'react-admin';
import {
  canStepForward,
  dateRangeText,
  stepDateRange,
  withSearch,
  isAdmin,
  storesInScope,
  STATUSES,
  SOURCES,
  SOURCE_LABELS,
  PAYMENT_METHODS,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { DateRangeFields, useDateRangeDraft } from '../common/DateRangeFields';
import { useStores } from '../common/useStores';
import { PAYMENTS_UI as P } from '../messages';
import { MULTI_STORE_KEY } from './listParams';
import { QuickRanges } from './QuickRanges';
import { SearchBox } from './SearchBox';

/** Whether the multi-store checkboxes replace the top bar's single store. */
export function useStoreFilterMode(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useStore<boolean>(MULTI_STORE_KEY, false);
  return [Boolean(on), setOn];
}

type SetFilters = (patch: Record<string, unknown>) => void;

/** A filter emptied ('', undefined, no stores) is dropped. */
function useSetFilters(): SetFilters {
  const { filterValues, setFilters } = useListContext();
  return (patch) => {
    const next = { ...filterValues, ...patch };
    for (const k of Object.keys(next))
      if (next[k] === '' || next[k] === undefined || (Array.isArray(next[k]) && next[k].length === 0)) delete next[k];
    setFilters(next, undefined, false);
  };
}

function datesAndSearch(filterValues: Record<string, unknown>) {
  return {
    from: typeof filterValues.paid_at_gte === 'string' ? filterValues.paid_at_gte : undefined,
    to: typeof filterValues.paid_at_lte === 'string' ? filterValues.paid_at_lte : undefined,
    q: typeof filterValues.q === 'string' ? filterValues.q : '',
  };
}

export function PaymentFilters({ me }: { me: Me }) {
  const { filterValues, setFilters } = useListContext();
  const set = useSetFilters();
  const [multi] = useStoreFilterMode();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const [more] = useMoreFilters();
  const { from, to, q } = datesAndSearch(filterValues);
  // held here: the date fields move into the phone's folded filters and back as the layout changes
  const dateDraft = useDateRangeDraft(from ?? '', to ?? '');
  const fields = <EverydayFields narrow={narrow} from={from} to={to} draft={dateDraft} set={set} />;
  return (
    <Paper variant="outlined" sx={{ px: { xs: 1, sm: 1.5 }, py: 1, mb: 1 }} data-testid="payment-filters">
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center">
        <SearchBox value={q} onChange={(text) => setFilters(withSearch(filterValues, text), undefined, false)} />
        {typeof filterValues.received_gte === 'string' && (
          <Chip
            size="small"
            label={P.receivedSince(filterValues.received_gte.replace('T', ' '))}
            onDelete={() => set({ received_gte: undefined })}
            data-testid="filter-received"
          />
        )}
        {narrow ? (
          <PhoneFilterBar open={open} onToggle={() => setOpen(!open)} />
        ) : (
          <>
            {fields}
            <ClearFiltersButton />
          </>
        )}
      </Stack>
      {!narrow && more && (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          flexWrap="wrap"
          alignItems="center"
          sx={{ pt: 1 }}
          data-testid="more-filter-fields"
        >
          <MoreFields set={set} />
        </Stack>
      )}
      {narrow && (
        <Collapse in={open}>
          <Stack spacing={1.5} sx={{ pt: 1.5 }}>
            {fields}
            <MoreFields set={set} />
            <MultiStoreSwitch me={me} />
          </Stack>
        </Collapse>
      )}
      {multi && <MultiStorePicker me={me} set={set} />}
    </Paper>
  );
}

function ClearFiltersButton() {
  const { setFilters } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<FilterAltOffIcon />}
      onClick={() => setFilters({}, undefined, false)}
      sx={{ flexShrink: 0 }}
    >
      {P.clearFilters}
    </Button>
  );
}

/** On a phone ‹ the days shown › sit in view: the folded date fields cannot say which days the list shows. */
function PhoneFilterBar({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { filterValues } = useListContext();
  const { from, to, q } = datesAndSearch(filterValues);
  const folded = ['status', 'method', 'employee', 'source', 'paid_at_gte', 'paid_at_lte', 'store_id'].filter(
    (k) => filterValues[k] !== undefined,
  ).length;
  const days = dateRangeText(from, to);
  return (
    <>
      <Badge badgeContent={folded} color="primary">
        <Button
          size="small"
          variant="outlined"
          startIcon={<FilterListIcon />}
          aria-expanded={open}
          onClick={onToggle}
          data-testid="filters-toggle"
        >
          {P.filters}
        </Button>
      </Badge>
      <ClearFiltersButton />
      <Stack direction="row" alignItems="center" sx={{ width: '100%' }}>
        <DayStep days={-1} from={from} to={to} />
        <Typography
          variant="body2"
          sx={{ flex: '1 1 auto', textAlign: 'center', whiteSpace: 'nowrap', minWidth: 0 }}
          data-testid="filter-days"
        >
          {q ? (days ? P.searchedDays(days) : P.searchedAllDates) : days || P.allDates}
        </Typography>
        <DayStep days={1} from={from} to={to} />
      </Stack>
    </>
  );
}

function EverydayFields({
  narrow,
  from,
  to,
  draft,
  set,
}: {
  narrow: boolean;
  from?: string;
  to?: string;
  draft: ReturnType<typeof useDateRangeDraft>;
  set: SetFilters;
}) {
  const { filterValues } = useListContext();
  return (
    <>
      <SelectFilter
        label={P.status}
        value={filterValues.status}
        onChange={(v) => set({ status: v })}
        all={P.allStatuses}
        options={STATUSES}
        width={110}
        testid="filter-status"
      />
      {!narrow && <DayStep days={-1} from={from} to={to} />}
      <DateRangeFields
        from={from ?? ''}
        to={to ?? ''}
        labels={{ from: P.from, to: P.to }}
        onChange={(r) => set({ paid_at_gte: r.from, paid_at_lte: r.to })}
        testids={{ from: 'filter-from', to: 'filter-to' }}
        sx={{ width: { xs: '100%', sm: 146 } }}
        draft={draft}
      />
      {!narrow && <DayStep days={1} from={from} to={to} />}
      <QuickRanges from={from} to={to} onPick={(r) => set({ paid_at_gte: r.from, paid_at_lte: r.to })} />
    </>
  );
}

/** On a desk behind 更多篩選, so the filters keep one line and twenty rows fit a 1280×800 screen. */
function MoreFields({ set }: { set: SetFilters }) {
  const { filterValues } = useListContext();
  return (
    <>
      <SelectFilter
        label={P.method}
        value={filterValues.method}
        onChange={(v) => set({ method: v })}
        all={P.allMethods}
        options={PAYMENT_METHODS}
        width={156}
        testid="filter-method"
      />
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={filterValues.employee === true}
            onChange={(e) => set({ employee: e.target.checked ? true : undefined })}
            data-testid="filter-employee"
          />
        }
        label={P.employeeOnly}
        sx={{ mr: 0 }}
      />
      <SelectFilter
        label={P.source}
        value={filterValues.source}
        onChange={(v) => set({ source: v })}
        all={P.allSources}
        options={SOURCES}
        text={(s) => SOURCE_LABELS[s]}
        width={110}
        testid="filter-source"
      />
    </>
  );
}

function MultiStorePicker({ me, set }: { me: Me; set: SetFilters }) {
  const { filterValues } = useListContext();
  const { stores } = useStores();
  const visibleStores = storesInScope(me, stores);
  if (visibleStores.length <= 1) return null;
  const mine = [...new Set([...(me.store_id !== null ? [me.store_id] : []), ...me.accessible_stores])];
  const chosen: number[] = Array.isArray(filterValues.store_id) ? filterValues.store_id : [];
  const toggleStore = (id: number) =>
    set({ store_id: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] });
  return (
    <Box sx={{ mt: 1.5 }} data-testid="multi-store">
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center">
        <Button size="small" variant="outlined" onClick={() => set({ store_id: visibleStores.map((s) => s.id) })}>
          {P.selectAll}
        </Button>
        <Button size="small" variant="outlined" onClick={() => set({ store_id: undefined })}>
          {P.clear}
        </Button>
        {!isAdmin(me) && me.accessible_stores.length > 0 && (
          <Button size="small" variant="outlined" onClick={() => set({ store_id: mine })}>
            {P.myStores}
          </Button>
        )}
      </Stack>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', mt: 0.5 }}>
        {visibleStores.map((s) => (
          <FormControlLabel
            key={s.id}
            control={<Checkbox size="small" checked={chosen.includes(s.id)} onChange={() => toggleStore(s.id)} />}
            label={`${s.name} (${s.code})`}
          />
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary" data-testid="store-summary">
        {P.selectedStores(visibleStores.filter((s) => chosen.includes(s.id)).map((s) => s.name))}
      </Typography>
    </Box>
  );
}

function SelectFilter<T extends string>(props: {
  label: string;
  value: unknown;
  onChange: (v: string) => void;
  all: string;
  options: readonly T[];
  text?: (v: T) => string;
  width: number;
  testid: string;
}) {
  const { label, value, onChange, all, options, text, width, testid } = props;
  return (
    <TextField
      size="small"
      variant="outlined"
      margin="none"
      select
      label={label}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ width: { xs: '100%', sm: width } }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid={testid}
    >
      <MenuItem value="">{all}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {text ? text(o) : o}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** › stops at today. */
function DayStep({ days, from, to }: { days: -1 | 1; from?: string; to?: string }) {
  const set = useSetFilters();
  const label = days < 0 ? P.dayBefore : P.dayAfter;
  const disabled = days > 0 && !canStepForward(from, to);
  const step = () => {
    const r = stepDateRange(from, to, days);
    set({ paid_at_gte: r.from, paid_at_lte: r.to });
  };
  const button = (
    <IconButton
      size="small"
      aria-label={label}
      disabled={disabled}
      sx={{ p: { xs: 1, sm: 0.25 } }}
      onClick={step}
      data-testid={days < 0 ? 'day-before' : 'day-after'}
    >
      {days < 0 ? <ChevronLeftIcon /> : <ChevronRightIcon />}
    </IconButton>
  );
  return disabled ? button : <Tooltip title={label}>{button}</Tooltip>;
}

const MORE_FILTERS = ['method', 'employee', 'source'] as const;

/** Shown when switched on or when one of them is set. */
function useMoreFilters(): [boolean, (on: boolean) => void] {
  const { filterValues } = useListContext();
  const [on, setOn] = useStore<boolean>('payments.moreFilters', false);
  return [on || MORE_FILTERS.some((k) => filterValues[k] !== undefined), setOn];
}

/** Switching it off clears those filters. */
export function MoreFiltersSwitch() {
  const { filterValues, setFilters } = useListContext();
  const [more, setMore] = useMoreFilters();
  return (
    <FormControlLabel
      sx={{ mr: 0, ml: 0.5 }}
      control={
        <Switch
          size="small"
          checked={more}
          onChange={(e) => {
            setMore(e.target.checked);
            if (!e.target.checked) {
              const rest = { ...filterValues };
              for (const k of MORE_FILTERS) delete rest[k];
              setFilters(rest, undefined, false);
            }
          }}
          data-testid="more-filters"
        />
      }
      label={P.moreFilters}
    />
  );
}

/** On a desk it sits in the toolbar row, so the filters keep to one line and the table keeps its rows. */
export function MultiStoreSwitch({ me }: { me: Me }) {
  const { filterValues, setFilters } = useListContext();
  const { stores } = useStores();
  const [multi, setMulti] = useStoreFilterMode();
  const visibleStores = storesInScope(me, stores);
  if (visibleStores.length <= 1) return null;
  return (
    <FormControlLabel
      sx={{ mr: 0, ml: 0.5 }}
      control={
        <Switch
          size="small"
          checked={multi}
          onChange={(e) => {
            setMulti(e.target.checked);
            if (!e.target.checked) {
              const { store_id: _dropped, ...rest } = filterValues;
              setFilters(rest, undefined, false);
            }
          }}
        />
      }
      label={P.multiStore}
    />
  );
}
