import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, Card, CardContent, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { MAX_ACCOUNT_LENGTH, statementEncodingLabel, storeLabel } from '../../../core/browser';
import type { StoreRecord } from '../common/useStores';
import { dataProvider } from '../providers/dataProvider';
import { RECONCILE_UI as R } from '../messages';
import type { ImportedStatement } from './types';

// 匯入銀行對帳單 and what was read. `storeId` null: all stores, for those who see all; `choices`: several
// stores and none chosen, so one must be picked first.
export function StatementUpload({
  storeId,
  choices,
  onImported,
}: {
  storeId: number | null;
  choices: StoreRecord[] | null;
  onImported: (s: ImportedStatement) => void;
}) {
  const [chosen, setChosen] = useState<number | ''>('');
  const [account, setAccount] = useState('');
  const store = choices ? (chosen === '' ? null : chosen) : storeId;
  const mustChoose = choices !== null && chosen === '';
  const { input, busy, error, statement, pick } = useUpload(store, account, onImported);

  return (
    <Box>
      <StatementTarget
        choices={choices}
        chosen={chosen}
        setChosen={setChosen}
        account={account}
        setAccount={setAccount}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="contained"
          startIcon={<UploadFileIcon />}
          disabled={busy || mustChoose}
          onClick={() => input.current?.click()}
          data-testid="statement-upload"
        >
          {busy ? R.uploading : R.upload}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {R.uploadHint}
        </Typography>
        <input
          ref={input}
          type="file"
          hidden
          accept=".csv,.xls,.xlsx"
          data-testid="statement-file"
          onChange={(e) => pick(e.target.files?.[0])}
        />
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="statement-error">
          {R.uploadFailed}：{error}
        </Alert>
      )}
      {statement && <StatementSummary statement={statement} />}
    </Box>
  );
}

function useUpload(store: number | null, account: string, onImported: (s: ImportedStatement) => void) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [statement, setStatement] = useState<ImportedStatement | null>(null);

  async function pick(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setError(null);
    // an earlier file's summary would read as this one's
    setStatement(null);
    try {
      const s = await dataProvider.uploadStatement(file, store, account);
      setStatement(s);
      onImported(s);
    } catch (e) {
      setStatement(null);
      setError(e instanceof Error && e.message ? e.message : R.uploadFailed);
    } finally {
      setBusy(false);
      // the same file may be picked again
      if (input.current) input.current.value = '';
    }
  }
  return { input, busy, error, statement, pick };
}

/** The account is asked when the file does not say. */
function StatementTarget(props: {
  choices: StoreRecord[] | null;
  chosen: number | '';
  setChosen: (id: number | '') => void;
  account: string;
  setAccount: (account: string) => void;
}) {
  const { choices, chosen, setChosen, account, setAccount } = props;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      useFlexGap
      sx={{ mb: 1.5, flexWrap: 'wrap', alignItems: { sm: 'flex-start' } }}
    >
      {choices && (
        <TextField
          select
          size="small"
          label={R.uploadStore}
          value={chosen}
          onChange={(e) => setChosen(e.target.value === '' ? '' : Number(e.target.value))}
          helperText={R.uploadStoreHint}
          required
          sx={{ width: { xs: '100%', sm: 260 } }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'statement-store' } as object } }}
        >
          {choices.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {storeLabel(c)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        size="small"
        label={R.account}
        value={account}
        onChange={(e) => setAccount(e.target.value)}
        helperText={R.accountHint}
        slotProps={{
          htmlInput: {
            maxLength: MAX_ACCOUNT_LENGTH,
            inputMode: 'text',
            autoComplete: 'off',
            'data-testid': 'statement-account',
          },
        }}
        sx={{ width: { xs: '100%', sm: 320 } }}
      />
    </Stack>
  );
}

function StatementSummary({ statement }: { statement: ImportedStatement }) {
  return (
    <Card variant="outlined" sx={{ mt: 1 }} data-testid="statement-summary">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Alert severity="success" sx={{ mb: 1 }}>
          {R.uploaded(statement.file, statement.new, statement.duplicates)}
        </Alert>
        <Typography variant="body2" data-testid="statement-account-read">
          {R.account}：{statement.account ?? R.accountNone}
        </Typography>
        <Typography variant="body2">{R.lines(statement.lines, statement.credits)}</Typography>
        <Typography variant="body2">
          {R.period}：{statement.from?.replaceAll('-', '/') ?? '—'} ～ {statement.to?.replaceAll('-', '/') ?? '—'}
          {'　'}
          {R.encoding}：{statementEncodingLabel(statement.encoding)}
        </Typography>
        <Typography
          variant="body2"
          color={statement.balance_breaks ? 'error' : 'text.primary'}
          data-testid="statement-breaks"
        >
          {R.balanceBreaks(statement.balance_breaks)}
        </Typography>
        {statement.skipped_rows > 0 && (
          <Typography variant="body2" data-testid="statement-skipped">
            {R.skippedRows(statement.skipped_rows)}
          </Typography>
        )}
        <Typography variant="body2" sx={{ mt: 1 }}>
          {R.columns}：
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }} data-testid="statement-columns">
          {Object.entries(statement.columns).map(([role, header]) => (
            <Chip key={role} size="small" label={`${R.roles[role] ?? role}：${header}`} />
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
