// 已記住的付款人: what confirmed links taught about payers, each forgettable. One card a payer, wrapping, so it
// reads on a phone as on a desk.
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { storeLabel, formatTaipei } from '../../../core/browser';
import { useStores } from '../common/useStores';
import { RECONCILE_UI as R } from '../messages';
import { dataProvider, PAYERS_SHOWN } from '../providers/dataProvider';
import type { RememberedPayer } from './types';

export function PayersSection({ storeId, canForget }: { storeId: number | null; canForget: boolean }) {
  const payers = useQuery({
    queryKey: ['reconcile', 'payers', storeId],
    queryFn: () => dataProvider.listPayers(storeId),
  });
  const { byId } = useStores();
  const [asked, setAsked] = useState<RememberedPayer | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const client = useQueryClient();

  async function forget(p: RememberedPayer) {
    setBusy(true);
    try {
      await dataProvider.forgetPayer(p.id);
      notify(R.forgotten, { type: 'success' });
    } catch (e) {
      notify(`${R.forgetFailed}：${e instanceof Error ? e.message : ''}`, { type: 'error' });
    } finally {
      setBusy(false);
      setAsked(null);
      await client.invalidateQueries({ queryKey: ['reconcile'] });
    }
  }

  const rows = payers.data ?? [];
  return (
    <Box component="section" data-testid="payers" aria-labelledby="payers-title">
      <Typography variant="h6" component="h2" id="payers-title">
        {R.payersTitle}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {R.payersHint}
      </Typography>
      {payers.isError && (
        <Alert severity="error">
          {R.payersLoadFailed}：{payers.error instanceof Error ? payers.error.message : ''}
        </Alert>
      )}
      {payers.isSuccess && rows.length === 0 && <Typography color="text.secondary">{R.payersEmpty}</Typography>}
      <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {rows.map((p) => (
          <PayerCard
            key={p.id}
            p={p}
            store={storeLabel(byId(p.store_id))}
            onForget={canForget ? () => setAsked(p) : null}
            busy={busy}
          />
        ))}
      </Stack>
      {rows.length >= PAYERS_SHOWN && (
        <Typography variant="caption" color="text.secondary">
          {R.payersMore(PAYERS_SHOWN)}
        </Typography>
      )}
      <ForgetDialog asked={asked} busy={busy} onClose={() => setAsked(null)} onForget={forget} />
    </Box>
  );
}

function PayerCard(props: { p: RememberedPayer; store: string; onForget: (() => void) | null; busy: boolean }) {
  const { p, store, onForget, busy } = props;
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{ p: 1, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
      data-testid={`payer-${p.id}`}
    >
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ fontFamily: 'inherit', fontWeight: 400, color: 'text.secondary' }}>
            {R.payer}：
          </Box>
          {p.payer}
        </Typography>
        <Typography variant="body2">
          {R.lastFive}：
          <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {p.last_five}
          </Box>
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {R.learnedAt}：{formatTaipei(Date.parse(p.learned_at))}
          {'　'}
          {R.learnedBy(p.learned_by === 'auto', p.learned_by_username)}
        </Typography>
      </Box>
      <Chip size="small" label={store} />
      {onForget && (
        <Button
          size="small"
          color="error"
          variant="outlined"
          onClick={onForget}
          disabled={busy}
          data-testid={`forget-${p.id}`}
          aria-label={`${R.forget} ${p.payer}`}
        >
          {R.forget}
        </Button>
      )}
    </Paper>
  );
}

function ForgetDialog(props: {
  asked: RememberedPayer | null;
  busy: boolean;
  onClose: () => void;
  onForget: (p: RememberedPayer) => void;
}) {
  const { asked, busy, onClose, onForget } = props;
  return (
    <Dialog open={asked !== null} onClose={onClose}>
      <DialogContent>
        <DialogContentText>{asked ? R.forgetConfirm(asked.payer, asked.last_five) : ''}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{R.cancel}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() => asked && onForget(asked)}
          data-testid="forget-confirm"
        >
          {R.forget}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
