// A flood through a store's public link, said above 分店管理 and 匯款記錄, with a way to see those reports
// and to remove the ones still 未確認 in one action, behind 復原.
import { Alert, AlertTitle, Box, Button, Stack, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAddUndoableMutation, useBasename, useDataProvider, useNotify, useRefresh } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { canAccess, gates, storeLabel, taipeiDate, type LinkFlood } from '../../../core/browser';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { FLOOD_UI as F } from '../messages';
import { ConfirmDialog } from '../payments/ConfirmDialog';
import { beginUndoable, UNDO_MS } from '../payments/undoPending';
import type { RemitDataProvider } from '../providers/dataProvider';

const FLOODS_KEY = ['links', 'floods'];

/** Taiwan wall-clock time, as the filter and the form take it. */
const dayStart = (f: LinkFlood) => `${taipeiDate(Date.parse(f.since))}T00:00`;

const floodFilter = (storeId: number, from: string, pendingOnly = false) => ({
  store_id: [storeId],
  source: 'customer',
  received_gte: from,
  ...(pendingOnly ? { status: '未確認' } : {}),
});

export function FloodNotice({ advice = false }: { advice?: boolean }) {
  const { me } = useMe();
  const dataProvider = useDataProvider<RemitDataProvider>();
  const allowed = !!me && canAccess(me, 'floods', 'list');
  const floods = useQuery({
    queryKey: FLOODS_KEY,
    queryFn: () => dataProvider.linkFloods(),
    enabled: allowed,
    refetchInterval: 60_000,
  });
  const [removing, setRemoving] = useState<LinkFlood | null>(null);
  if (!allowed || !floods.data?.length) return null;
  return (
    <Stack spacing={1} sx={{ mb: 1 }} data-testid="flood-notices">
      {floods.data.map((f) => (
        <FloodAlert
          key={f.store_id}
          flood={f}
          advice={advice}
          canView={gates.viewPayments(me)}
          canRemove={canAccess(me, 'floods', 'remove')}
          onRemove={() => setRemoving(f)}
        />
      ))}
      {removing && <RemoveDialog flood={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function FloodAlert(props: {
  flood: LinkFlood;
  advice: boolean;
  canView: boolean;
  canRemove: boolean;
  onRemove: () => void;
}) {
  const { byId } = useStores();
  const navigate = useNavigate();
  const basename = useBasename();
  const f = props.flood;
  const from = dayStart(f);
  const show = () =>
    navigate(
      `${basename}/payments?displayedFilters=%7B%7D&filter=${encodeURIComponent(JSON.stringify(floodFilter(f.store_id, from)))}`,
    );
  return (
    <Alert severity="warning" data-testid={`flood-${f.store_id}`}>
      <AlertTitle>{F.notice(storeLabel(byId(f.store_id)), f.reports, f.refused)}</AlertTitle>
      {props.advice && <Box sx={{ mb: 1 }}>{F.advice}</Box>}
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        {props.canView && (
          <Button size="small" variant="outlined" color="inherit" onClick={show} sx={{ minHeight: 36 }}>
            {F.show}
          </Button>
        )}
        {props.canRemove && (
          <Button
            size="small"
            variant="outlined"
            color="inherit"
            onClick={props.onRemove}
            sx={{ minHeight: 36 }}
            data-testid={`flood-remove-${f.store_id}`}
          >
            {F.remove}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Says how many would go before removing them behind 復原. */
function RemoveDialog({ flood, onClose }: { flood: LinkFlood; onClose: () => void }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const { byId } = useStores();
  const notify = useNotify();
  const refresh = useRefresh();
  const client = useQueryClient();
  const addUndoable = useAddUndoableMutation();
  const [from, setFrom] = useState(dayStart(flood));
  const store = storeLabel(byId(flood.store_id));
  const count = useQuery({
    queryKey: ['links', 'flood-count', flood.store_id, from],
    queryFn: async () =>
      (
        await dataProvider.getList('payments', {
          filter: floodFilter(flood.store_id, from, true),
          pagination: { page: 1, perPage: 1 },
          sort: { field: 'created_at', order: 'DESC' },
        })
      ).total ?? 0,
    enabled: !!from,
  });
  const n = count.data ?? 0;
  const remove = () => {
    onClose();
    const end = beginUndoable();
    addUndoable(async ({ isUndo }) => {
      if (isUndo) return end();
      try {
        await dataProvider.removeLinkReports(flood.store_id, from);
      } catch (e) {
        notify(e instanceof Error && e.message ? e.message : F.removeFailed, { type: 'error' });
      } finally {
        end();
        await client.invalidateQueries({ queryKey: ['links'] });
        refresh();
      }
    });
    notify(F.removed(n), { type: 'info', undoable: true, autoHideDuration: UNDO_MS });
  };
  return (
    <ConfirmDialog
      open
      title={F.removeTitle}
      body={count.isPending ? F.counting : n ? F.removeConfirm(store, from.replace('T', ' '), n) : F.nothing}
      busy={false}
      confirmDisabled={count.isPending || n === 0}
      onConfirm={remove}
      onClose={onClose}
      confirm={F.confirm}
      cancel={F.cancel}
      testIds={{ dialog: 'flood-remove-dialog', confirm: 'flood-remove-ok' }}
    >
      <TextField
        type="datetime-local"
        label={F.from}
        value={from}
        onChange={(e) => setFrom(e.target.value)}
        size="small"
        fullWidth
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </ConfirmDialog>
  );
}
