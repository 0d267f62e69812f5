// 備份, for headquarters' admin: a backup taken and downloaded while everyone works on, a file restored after
// seeing what it holds and typing 還原, and the backups the server keeps (手動, 匯入前, 還原前, 每日).
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { fileSizeText, gates, type BackupOverview, type TakenBackup } from '../../../core/browser';
import { Gated } from '../common/Forbidden';
import { api } from '../http';
import { BACKUPS_UI as T, UI } from '../messages';
import { serverMessage } from '../serverError';
import { BackupList } from './BackupList';
import { downloadBackup, LONG_MS } from './calls';
import { RestoreCard } from './RestoreCard';

export default function BackupsPage() {
  return (
    <Gated allow={gates.backups} message={UI.forbiddenBackups} title={T.title} testId="backups-forbidden">
      <BackupsView />
    </Gated>
  );
}

function BackupsView() {
  const [overview, setOverview] = useState<BackupOverview | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setOverview(await api<BackupOverview>('GET', '/backups'));
      setLoadError(null);
    } catch (e) {
      setLoadError(serverMessage(e) ?? T.loadFailed);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }} data-testid="backups-page">
      <Title title={T.title} />
      <Stack spacing={2}>
        <TakeCard onTaken={load} />
        <RestoreCard onRestored={load} />
        <BackupList overview={overview} loadError={loadError} onChanged={load} />
      </Stack>
    </Box>
  );
}

function TakeCard({ onTaken }: { onTaken: () => void }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function take() {
    setBusy(true);
    setDone(null);
    setError(null);
    try {
      const b = await api<TakenBackup>('POST', '/backups', undefined, { timeoutMs: LONG_MS });
      downloadBackup(b.name);
      setDone(T.taken(b.name, fileSizeText(b.bytes)));
      onTaken();
    } catch (e) {
      setError(serverMessage(e) ?? T.takeFailed);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {T.takeTitle}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {T.takeHint}
        </Typography>
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          onClick={take}
          disabled={busy}
          data-testid="backup-take"
        >
          {busy ? T.taking : T.take}
        </Button>
        {done && (
          <Alert severity="success" sx={{ mt: 1.5, wordBreak: 'break-all' }} data-testid="backup-taken">
            {done}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 1.5 }}>
            {error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
