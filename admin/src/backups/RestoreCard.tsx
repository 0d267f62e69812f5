// 還原備份: the file is checked on the server first and what it holds is shown; only typing 還原 lets it replace
// the data. The file goes up twice (checked, then restored), so no instance keeps a half-done upload.
import RestoreIcon from '@mui/icons-material/Restore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useRef, useState, type ReactNode } from 'react';
import {
  formatTaipei,
  MAX_BACKUP_UPLOAD_BYTES,
  RESTORE_WORD,
  type BackupInfo,
  type RestoreResult,
} from '../../../core/browser';
import { api, ApiError } from '../http';
import { BACKUPS_UI as T } from '../messages';
import { serverMessage } from '../serverError';
import { LONG_MS } from './calls';

const MB = 1024 * 1024;

function failure(e: unknown, fallback: string): string {
  if (e instanceof ApiError && e.status === 413) return T.tooLarge(MAX_BACKUP_UPLOAD_BYTES / MB);
  return serverMessage(e) ?? fallback;
}

function sendFile<R>(path: string, file: File, query: Record<string, string>): Promise<R> {
  const q = new URLSearchParams({ filename: file.name, ...query });
  return api<R>('POST', `${path}?${q}`, undefined, { bytes: file, timeoutMs: LONG_MS });
}

/** The file chosen, what the server found in it, the word typed, and the two calls. */
function useRestore(onRestored: () => void) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [info, setInfo] = useState<BackupInfo | null>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<'checking' | 'restoring' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function reset() {
    setFile(null);
    setInfo(null);
    setTyped('');
    setError(null);
  }
  async function pick(f: File | undefined) {
    if (input.current) input.current.value = '';
    if (!f) return;
    reset();
    setDone(null);
    if (f.size > MAX_BACKUP_UPLOAD_BYTES) return setError(T.tooLarge(MAX_BACKUP_UPLOAD_BYTES / MB));
    setBusy('checking');
    try {
      setInfo(await sendFile<BackupInfo>('/backups/check', f, {}));
      setFile(f);
    } catch (e) {
      setError(failure(e, T.checkFailed));
    } finally {
      setBusy(null);
    }
  }
  async function restore() {
    if (!file || typed !== RESTORE_WORD) return;
    setBusy('restoring');
    setError(null);
    try {
      const r = await sendFile<RestoreResult>('/backups/restore', file, { confirm: RESTORE_WORD });
      reset();
      setDone(T.restored(file.name, r.info.counts.payments, r.pre_restore));
      onRestored();
    } catch (e) {
      setError(failure(e, T.restoreFailed));
    } finally {
      setBusy(null);
    }
  }
  return { input, file, info, typed, setTyped, busy, error, done, pick, restore };
}

export function RestoreCard({ onRestored }: { onRestored: () => void }) {
  const { input, file, info, typed, setTyped, busy, error, done, pick, restore } = useRestore(onRestored);
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {T.restoreTitle}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {T.restoreHint}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={busy !== null}
          onClick={() => input.current?.click()}
          data-testid="backup-choose"
        >
          {busy === 'checking' ? T.checking : T.choose}
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".gz,.sqlite"
          data-testid="backup-file"
          onChange={(e) => pick(e.target.files?.[0])}
        />
        {info && file && (
          <Holds info={info} name={file.name}>
            <Confirm typed={typed} setTyped={setTyped} busy={busy === 'restoring'} onRestore={restore} />
          </Holds>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 1.5, wordBreak: 'break-word' }} data-testid="backup-error">
            {error}
          </Alert>
        )}
        {done && (
          <Alert severity="success" sx={{ mt: 1.5, wordBreak: 'break-all' }} data-testid="backup-restored">
            {done}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function Holds({ info, name, children }: { info: BackupInfo; name: string; children: ReactNode }) {
  const c = info.counts;
  const facts: Array<[string, string]> = [
    [T.takenAt, info.taken_at ? formatTaipei(Date.parse(info.taken_at), { seconds: true }) : T.takenAtUnknown],
    [T.payments, T.counted(c.payments, '筆')],
    [T.stores, T.counted(c.stores, '家')],
    [T.users, T.counted(c.users, '位')],
    [T.schema, info.schema],
  ];
  return (
    <Box sx={{ mt: 2 }} data-testid="backup-holds">
      <Typography variant="subtitle1" component="h3" sx={{ wordBreak: 'break-all' }}>
        {T.holds}：{name}
      </Typography>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, my: 1 }}>
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {info.upgraded && <Alert severity="info">{T.upgraded}</Alert>}
      {children}
    </Box>
  );
}

function Confirm(props: { typed: string; setTyped: (s: string) => void; busy: boolean; onRestore: () => void }) {
  return (
    <Box>
      <Alert severity="warning" sx={{ my: 1.5 }}>
        {T.warning}
      </Alert>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          size="small"
          label={T.confirmLabel}
          value={props.typed}
          onChange={(e) => props.setTyped(e.target.value.trim())}
          helperText={T.confirmHelp}
          disabled={props.busy}
          slotProps={{ htmlInput: { autoComplete: 'off', 'data-testid': 'backup-confirm' } }}
          sx={{ width: { xs: '100%', sm: 280 } }}
        />
        <Button
          variant="contained"
          color="error"
          startIcon={<RestoreIcon />}
          disabled={props.busy || props.typed !== RESTORE_WORD}
          onClick={props.onRestore}
          data-testid="backup-restore"
          sx={{ flexShrink: 0, whiteSpace: 'nowrap', minHeight: 40 }}
        >
          {props.busy ? T.restoring : T.restore}
        </Button>
      </Stack>
    </Box>
  );
}
