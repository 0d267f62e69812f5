// The backups the server keeps, newest first, each downloadable, and how long the automatic ones stay.
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import {
  BACKUP_REASON_LABELS,
  fileSizeText,
  formatTaipei,
  KEEP_DAYS,
  type BackupOverview,
} from '../../../core/browser';
import { api } from '../http';
import { BACKUPS_UI as T } from '../messages';
import { serverMessage } from '../serverError';
import { backupUrl } from './calls';

type Listed = BackupOverview['backups'][number];
const when = (iso: string) => formatTaipei(Date.parse(iso), { seconds: true });

function DownloadLink({ b }: { b: Listed }) {
  return (
    <Button
      component="a"
      href={backupUrl(b.name)}
      download={b.name}
      size="small"
      startIcon={<DownloadIcon />}
      aria-label={T.downloadLabel(when(b.at), BACKUP_REASON_LABELS[b.reason])}
    >
      {T.download}
    </Button>
  );
}

export function BackupList(props: {
  overview: BackupOverview | null;
  loadError: string | null;
  onChanged: () => void;
}) {
  const { overview, loadError, onChanged } = props;
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {T.listTitle}
        </Typography>
        {loadError && <Alert severity="error">{loadError}</Alert>}
        {overview && (
          <>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              {T.folder(overview.dir)}
            </Typography>
            {overview.last_backup_at && (
              <Typography variant="body2">{T.last(when(overview.last_backup_at))}</Typography>
            )}
            <KeepDays overview={overview} onSaved={onChanged} />
            {!overview.backups.length ? (
              <Typography sx={{ mt: 1 }} data-testid="backup-none">
                {T.none}
              </Typography>
            ) : phone ? (
              <Cards backups={overview.backups} />
            ) : (
              <Rows backups={overview.backups} />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Rows({ backups }: { backups: Listed[] }) {
  return (
    <Table size="small" data-testid="backup-list">
      <TableHead>
        <TableRow>
          <TableCell>{T.at}</TableCell>
          <TableCell>{T.reason}</TableCell>
          <TableCell align="right">{T.size}</TableCell>
          <TableCell>{T.download}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {backups.map((b) => (
          <TableRow key={b.name} data-testid="backup-row">
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(b.at)}</TableCell>
            <TableCell>
              <Chip size="small" label={BACKUP_REASON_LABELS[b.reason]} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {fileSizeText(b.bytes)}
            </TableCell>
            <TableCell>
              <DownloadLink b={b} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Cards({ backups }: { backups: Listed[] }) {
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }} data-testid="backup-list">
      {backups.map((b) => (
        <Box
          component="li"
          key={b.name}
          data-testid="backup-row"
          sx={{
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1,
            display: 'flex',
            alignItems: 'center',
            gap: 1,
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="body2">{when(b.at)}</Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
              <Chip size="small" label={BACKUP_REASON_LABELS[b.reason]} />
              <Typography variant="body2">{fileSizeText(b.bytes)}</Typography>
            </Stack>
          </Box>
          <DownloadLink b={b} />
        </Box>
      ))}
    </Stack>
  );
}

function KeepDays({ overview, onSaved }: { overview: BackupOverview; onSaved: () => void }) {
  const notify = useNotify();
  const [days, setDays] = useState(String(overview.keep_days));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setDays(String(overview.keep_days)), [overview.keep_days]);
  const locked = overview.keep_days_from_env;
  async function save() {
    setBusy(true);
    setError(null);
    try {
      await api('PUT', '/backups/settings', { keep_days: /^\d+$/.test(days) ? Number(days) : days });
      notify(T.saved, { type: 'success' });
      onSaved();
    } catch (e) {
      setError(serverMessage(e) ?? T.saveFailed);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ my: 2, alignItems: { sm: 'flex-start' } }}>
      <TextField
        size="small"
        type="number"
        label={T.keepDays}
        value={days}
        onChange={(e) => setDays(e.target.value)}
        disabled={locked || busy}
        error={!!error}
        helperText={error ?? (locked ? T.keepDaysFromEnv(overview.keep_days) : T.keepDaysHelp)}
        slotProps={{ htmlInput: { min: KEEP_DAYS.min, max: KEEP_DAYS.max, 'data-testid': 'backup-keep-days' } }}
        sx={{ width: { xs: '100%', sm: 380 } }}
      />
      {!locked && (
        <Button
          variant="outlined"
          onClick={save}
          disabled={busy || days === String(overview.keep_days)}
          sx={{ flexShrink: 0, minHeight: 40 }}
        >
          {T.save}
        </Button>
      )}
    </Stack>
  );
}
