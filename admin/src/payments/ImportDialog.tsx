// The Excel import wizard: file, preview, result. The file is parsed in the browser with core's code, loaded
// only now to keep the spreadsheet library out of the page; the server checks the rows, then imports them.
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Step,
  StepLabel,
  Stepper,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { BROWSER_IMPORT_MAX_BYTES, ValidationError } from '../../../core/browser';
import type { ImportRow, ParseResult, Me } from '../../../core/browser';
import { IMPORT_UI as T, UI } from '../messages';
import { useStores } from '../common/useStores';
import type { RemitDataProvider } from '../providers/dataProvider';
import { ApiError } from '../http';
import { importCounts, PreviewStep, type Check } from './ImportPreview';

type Outcome = { ok: true; imported: number; skipped: number } | { ok: false; message: string };
type FileProblem = { message: string; detail?: string };

const STEPS = T.steps;
const tooBig = (f: File | null) => f !== null && f.size > BROWSER_IMPORT_MAX_BYTES;
const bigFileProblem = { message: UI.importTooBigForBrowser(BROWSER_IMPORT_MAX_BYTES / 1024 / 1024) };

function readFile(file: File): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

function parseProblem(err: unknown): FileProblem {
  const first = err instanceof ValidationError ? err.errors[0] : undefined;
  if (first?.code === 'import_too_many_rows') return { message: UI.importTooManyForBrowser };
  return { message: UI.parseFailed, detail: first?.message };
}

function serverProblem(err: unknown, max = Infinity): string | undefined {
  const body = err instanceof ApiError ? err.body : null;
  return body?.errors?.length
    ? body.errors
        .slice(0, max)
        .map((e) => e.message)
        .join('\n')
    : body?.message;
}

/** The server's dry run: duplicates against the database, the caller's scope. */
function useServerCheck() {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const [check, setCheck] = useState<Check>(null);
  const [checking, setChecking] = useState(false);
  async function checkRows(rows: ImportRow[]) {
    setChecking(true);
    try {
      setCheck({ result: await dataProvider.checkImport(rows) });
    } catch (err) {
      setCheck({ problem: serverProblem(err) || T.checkFailed });
    } finally {
      setChecking(false);
    }
  }
  return { check, setCheck, checking, checkRows };
}

function useFileParse(me: Me, onParsed: (result: ParseResult) => void) {
  const { stores } = useStores();
  const [file, setFile] = useState<File | null>(null);
  const [parsing, setParsing] = useState(false);
  const [problem, setProblem] = useState<FileProblem | null>(null);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    // refused before it is read: a file this big would freeze the page
    setProblem(tooBig(chosen) ? bigFileProblem : null);
  };
  async function parse() {
    if (!file || parsing || tooBig(file)) return;
    setParsing(true);
    setProblem(null);
    let bytes: ArrayBuffer;
    try {
      bytes = await readFile(file);
    } catch {
      setProblem({ message: UI.readFailed });
      setParsing(false);
      return;
    }
    try {
      const { parsePaymentsWorkbook } = await import('../../../core/browserSpreadsheets');
      onParsed(parsePaymentsWorkbook(bytes, { stores, userStoreId: me.store_id }));
    } catch (err) {
      setProblem(parseProblem(err));
    } finally {
      setParsing(false);
    }
  }
  return { file, choose, parsing, problem, parse };
}

function useImportWizard(me: Me) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const [step, setStep] = useState(0);
  const [parsed, setParsed] = useState<ParseResult | null>(null);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const server = useServerCheck();
  const fileParse = useFileParse(me, (result) => {
    setParsed(result);
    server.setCheck(null);
    setStep(1);
    if (result.rows.length) void server.checkRows(result.rows);
  });
  async function confirmImport() {
    if (!parsed || importing) return;
    setImporting(true);
    try {
      const result = await dataProvider.importPayments(parsed.rows);
      // rows the file repeated itself were never sent: they count as skipped duplicates too
      const inFile = importCounts(parsed, server.check).inFileDuplicates;
      setOutcome({ ok: true, imported: result.imported, skipped: result.skipped + inFile });
    } catch (err) {
      setOutcome({ ok: false, message: serverProblem(err, 5) || UI.importFailed });
    } finally {
      setImporting(false);
      setStep(2);
    }
  }
  return { step, parsed, importing, outcome, ...server, ...fileParse, confirmImport };
}

export function ImportDialog({ me, onClose }: { me: Me; onClose: (imported: boolean) => void }) {
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const w = useImportWizard(me);
  const { step, parsed, outcome } = w;
  const close = () => onClose(Boolean(outcome?.ok));
  return (
    <Dialog open onClose={close} maxWidth="md" fullWidth fullScreen={phone} data-testid="import-dialog">
      <DialogTitle>{T.title}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 2 }} alternativeLabel>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{s}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 && <ChooseFileStep file={w.file} problem={w.problem} onChoose={w.choose} />}
        {step === 1 && parsed && <PreviewStep parsed={parsed} check={w.check} checking={w.checking} />}
        {step === 2 && outcome && <ResultStep outcome={outcome} />}
      </DialogContent>
      <DialogActions>
        {step < 2 && (
          <Button onClick={() => onClose(false)} disabled={w.importing}>
            {T.cancel}
          </Button>
        )}
        {step === 0 && (
          <Button variant="contained" onClick={w.parse} disabled={!w.file || w.parsing || tooBig(w.file)}>
            {w.parsing ? T.parsing : T.next}
          </Button>
        )}
        {step === 1 && importCounts(parsed, w.check).canImport && (
          <Button variant="contained" onClick={w.confirmImport} disabled={w.importing}>
            {w.importing ? T.importing : T.confirm}
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" onClick={close}>
            {T.close}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ChooseFileStep({
  file,
  problem,
  onChoose,
}: {
  file: File | null;
  problem: FileProblem | null;
  onChoose: (file: File | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box>
      <Button variant="outlined" onClick={() => input.current?.click()}>
        {T.chooseFile}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
        data-testid="import-file"
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
      {file && (
        <Typography sx={{ mt: 1.5 }} data-testid="import-file-info">
          {file.name}（{(file.size / 1024).toFixed(1)} KB）
        </Typography>
      )}
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {problem.message}
          {problem.detail && <Box sx={{ mt: 0.5, fontSize: '0.9em' }}>{problem.detail}</Box>}
        </Alert>
      )}
    </Box>
  );
}

function ResultStep({ outcome }: { outcome: Outcome }) {
  return (
    <Alert severity={!outcome.ok ? 'error' : outcome.imported > 0 ? 'success' : 'info'} data-testid="import-result">
      <AlertTitle>
        {!outcome.ok ? UI.importFailedTitle : outcome.imported > 0 ? UI.importSuccessTitle : UI.importNothingTitle}
      </AlertTitle>
      <Box sx={{ whiteSpace: 'pre-line' }}>
        {!outcome.ok
          ? outcome.message
          : outcome.imported > 0
            ? UI.importSuccess(outcome.imported) +
              (outcome.skipped > 0 ? UI.importSkippedDuplicates(outcome.skipped) : '')
            : UI.importNothing(outcome.skipped)}
      </Box>
    </Alert>
  );
}
