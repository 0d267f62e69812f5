/**
 * Filters of the payments tab (spec section 2): status; store (one store through the top bar's
 * switcher, or a multi-store checkbox mode with select all, clear and My stores); a date range
 * from/to (three days ago to today on load); clear filters; the count of shown versus total.
 */
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import { Box, Button, Checkbox, FormControlLabel, MenuItem, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import { useGetList, useListContext, useStore } from 'react-admin';
import { isAdmin, storeScope } from '../../../core/permissions';
import { STATUSES } from '../../../core/statuses';
import type { Me } from '../../../core/types';
import { DateRangeFields } from '../common/DateRangeFields';
import { useStores } from '../common/useStores';
import { PAYMENTS_UI as P } from '../messages';

/** Whether the multi-store checkboxes replace the top bar's single store. */
export function useStoreFilterMode(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useStore<boolean>('remit.payments.multiStore', false);
  return [Boolean(on), setOn];
}

export function PaymentFilters({ me }: { me: Me }) {
  const { filterValues, setFilters, total, filter: permanent } = useListContext();
  const { stores } = useStores();
  const [multi, setMulti] = useStoreFilterMode();
  const { total: all } = useGetList('payments', { pagination: { page: 1, perPage: 1 }, filter: permanent ?? {} });

  const scope = storeScope(me);
  const visibleStores = scope.all ? stores : stores.filter((s) => scope.ids.includes(s.id));
  const mine = [...new Set([...(me.store_id !== null ? [me.store_id] : []), ...me.accessible_stores])];
  const chosen: number[] = Array.isArray(filterValues.store_id) ? filterValues.store_id : [];

  const set = (patch: Record<string, unknown>) => {
    const next = { ...filterValues, ...patch };
    for (const k of Object.keys(next)) if (next[k] === '' || next[k] === undefined || (Array.isArray(next[k]) && next[k].length === 0)) delete next[k];
    setFilters(next, undefined, false);
  };
  const toggleStore = (id: number) => set({ store_id: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] });

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 1 }} data-testid="payment-filters">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap flexWrap="wrap" alignItems={{ sm: 'center' }}>
        <TextField
          select
          size="small"
          label={P.status}
          value={typeof filterValues.status === 'string' ? filterValues.status : ''}
          onChange={(e) => set({ status: e.target.value })}
          fullWidth={false}
          margin="none"
          sx={{ width: { xs: '100%', sm: 160 } }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="filter-status"
        >
          <MenuItem value="">{P.allStatuses}</MenuItem>
          {STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <DateRangeFields
          from={filterValues.paid_at_gte ?? ''}
          to={filterValues.paid_at_lte ?? ''}
          labels={{ from: P.from, to: P.to }}
          onChange={({ from, to }) => set({ paid_at_gte: from, paid_at_lte: to })}
          testids={{ from: 'filter-from', to: 'filter-to' }}
          sx={{ width: { xs: '100%', sm: 170 } }}
        />
        {visibleStores.length > 1 && (
          <FormControlLabel
            control={
              <Switch
                checked={multi}
                onChange={(e) => {
                  setMulti(e.target.checked);
                  if (!e.target.checked) set({ store_id: undefined });
                }}
              />
            }
            label={P.multiStore}
          />
        )}
        <Button size="small" startIcon={<FilterAltOffIcon />} onClick={() => setFilters({}, undefined, false)}>
          {P.clearFilters}
        </Button>
      </Stack>

      {multi && visibleStores.length > 1 && (
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
      )}

      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }} data-testid="count-line">
        {P.countLine(total ?? 0, all ?? 0)}
      </Typography>
    </Paper>
  );
}
