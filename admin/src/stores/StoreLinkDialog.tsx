import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { MSG, unreachableFromOutside, type Store, type StoreLink } from '../../../core/browser';
import { api } from '../http';
import { STORES_UI as T } from '../messages';
import { describeServerError } from '../serverError';
import { printPoster, qrDataUrl, type PosterSize } from './poster';

type LinkAction = 'show' | 'rotate' | 'off';

// A store's public link, its QR code and poster. Opening it makes the link on first use, as
// `remit stores link CODE` does; 重新產生 stops the old link and printed posters at once.
export function StoreLinkDialog({ store, onClose }: { store: Store | null; onClose: () => void }) {
  const { link, qr, error, busy, asking, setAsking, load } = useStoreLink(store);
  return (
    <Dialog
      open={!!store}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="store-link-title"
      data-testid="store-link-dialog"
    >
      <DialogTitle id="store-link-title">{store ? T.linkTitle(store.name) : ''}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {T.linkIntro}
        </Typography>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        {!link && !error && <Typography>{T.linkLoading}</Typography>}
        {link && !link.active && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="store-link-off">
            {T.linkOff}
          </Alert>
        )}
        {link && link.active && unreachableFromOutside(link.url) && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="store-link-local">
            {MSG.linkNotPublic}
          </Alert>
        )}
        {link && link.active && <ActiveLink store={store} link={link} qr={qr} busy={busy} />}
        {asking && <AskToChange asking={asking} busy={busy} onConfirm={() => void load(asking)} />}
      </DialogContent>
      <DialogActions>
        {/* not warning yellow: too faint on white (axe color-contrast); a confirmation follows anyway */}
        <Button onClick={() => setAsking('rotate')} disabled={busy || !link}>
          {T.rotate}
        </Button>
        <Button color="error" onClick={() => setAsking('off')} disabled={busy || !link || !link.active}>
          {T.disable}
        </Button>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** 重新產生 and 停用 wait to be asked once more. */
function useStoreLink(store: Store | null) {
  const notify = useNotify();
  const [link, setLink] = useState<StoreLink | null>(null);
  const [qr, setQr] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<'rotate' | 'off' | null>(null);

  const load = async (action: LinkAction) => {
    if (!store) return;
    setBusy(true);
    setError(null);
    try {
      const got =
        action === 'show'
          ? await api<StoreLink>('GET', `/stores/${store.id}/link`)
          : await api<StoreLink>('POST', `/stores/${store.id}/link/${action}`);
      setLink(got);
      setQr(got.active && got.url ? await qrDataUrl(got.url) : '');
      if (action === 'rotate') notify(T.rotated, { type: 'success' });
      if (action === 'off') notify(T.disabled, { type: 'info' });
    } catch (err) {
      setError(describeServerError(err, T.linkFailed, []).message ?? T.linkFailed);
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  useEffect(() => {
    setLink(null);
    setQr('');
    setAsking(null);
    if (store) void load('show');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new store only
  }, [store?.id]);

  return { link, qr, error, busy, asking, setAsking, load };
}

function ActiveLink({ store, link, qr, busy }: { store: Store | null; link: StoreLink; qr: string; busy: boolean }) {
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      notify(T.copied, { type: 'success' });
    } catch {
      notify(T.copyFailed, { type: 'warning' });
    }
  };
  const poster = (size: PosterSize) => {
    if (store) void printPoster(store.name, link.url, size);
  };
  return (
    <Stack spacing={2} alignItems="center">
      {qr && (
        <Box
          component="img"
          src={qr}
          alt={T.qrAlt(store?.name ?? '')}
          sx={{ width: 200, height: 200 }}
          data-testid="store-link-qr"
        />
      )}
      <TextField
        label={T.link}
        value={link.url}
        fullWidth
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'store-link-url' } }}
        onFocus={(e) => e.target.select()}
      />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'center', rowGap: 1 }}>
        <Button variant="contained" onClick={copy} disabled={busy}>
          {T.copy}
        </Button>
        <Button variant="outlined" onClick={() => poster('A4')} disabled={busy}>
          {T.posterA4}
        </Button>
        <Button variant="outlined" onClick={() => poster('A5')} disabled={busy}>
          {T.posterA5}
        </Button>
      </Stack>
    </Stack>
  );
}

function AskToChange({ asking, busy, onConfirm }: { asking: 'rotate' | 'off'; busy: boolean; onConfirm: () => void }) {
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onConfirm} disabled={busy} data-testid="store-link-confirm">
          {asking === 'rotate' ? T.rotate : T.disable}
        </Button>
      }
    >
      {asking === 'rotate' ? T.rotateConfirm : T.disableConfirm}
    </Alert>
  );
}
