/**
 * The Excel import wizard (spec section 2 "Modals"): (1) choose a .xlsx or .xls file, shown with
 * its name and size in KB; (2) preview: row count, the first five errors and how many more, each
 * row marked; (3) the result. Parsing runs in the browser with the same core code (core/payments/readSheet.ts) as the
 * CLI (loaded only now, so the spreadsheet library is not in the page until needed). The preview
 * then asks the server to run the import's own checks without writing (duplicates against the
 * database, the caller's scope), so each row shows what will happen to it: 將匯入, 錯誤 with its
 * reasons, 重複 with what it repeats. The server checks every row again on import.
 */
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { BROWSER_IMPORT_MAX_BYTES, HEADERS, ValidationError, errorText, MSG } from '../../../core/browser';
import type { ParseResult, PreviewRow, Problem, ImportResult, Me } from '../../../core/browser';
import { IMPORT_UI as T, UI } from '../messages';
import { useStores } from '../common/useStores';
import type { RemitDataProvider } from '../providers/dataProvider';
import { ApiError } from '../http';

type Outcome = { ok: true; imported: number; skipped: number } | { ok: false; message: string };
/** the server's dry run of the rows the file would send, or why it could not be had */
type Check = { result: ImportResult } | { problem: string } | null;

/** One line per row in error, its problems joined: `第 N 行：a；b` (the row from each problem's details). */
function errorLines(problems: readonly Problem[]): string[] {
  const byRow = new Map<number, Problem[]>();
  for (const p of problems) {
    const row = p.details.row ?? 0;
    byRow.set(row, [...(byRow.get(row) ?? []), p]);
  }
  return [...byRow].map(([row, ps]) => MSG.rowError(row, ps.map((p) => errorText(p.code, p.details)).join('；')));
}

/** A preview row's state and reason, with what the server found for rows the file alone cannot judge. */
function rowVerdict(
  r: PreviewRow,
  check: Check,
): { label: string; color: 'success' | 'error' | 'warning' | 'default'; reason: string } {
  if (r.state === 'error') return { label: T.stateError, color: 'error', reason: r.reason ?? '' };
  if (r.state === 'duplicate') return { label: T.stateDuplicate, color: 'warning', reason: r.reason ?? '' };
  if (r.state === 'skipped') return { label: T.stateSkipped, color: 'default', reason: r.reason ?? '' };
  const dup = check && 'result' in check ? check.result.duplicate_of.find((d) => d.row === r.row) : undefined;
  if (dup)
    return {
      label: T.stateDuplicate,
      color: 'warning',
      reason: 'uuid' in dup ? T.duplicateOfStored(dup.uuid) : MSG.importDuplicateInFile(dup.earlier_row),
    };
  return { label: T.stateOk, color: 'success', reason: '' };
}

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

export function ImportDialog({ me, onClose }: { me: Me; onClose: (imported: boolean) => void }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const { stores } = useStores();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [parsing, setParsing] = useState(false);
  const [problem, setProblem] = useState<{ message: string; detail?: string } | null>(null);
  const [parsed, setParsed] = useState<ParseResult | null>(null);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [check, setCheck] = useState<Check>(null);
  const [checking, setChecking] = useState(false);

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
      const result = parsePaymentsWorkbook(bytes, { stores, userStoreId: me.store_id });
      setParsed(result);
      setCheck(null);
      setStep(1);
      if (result.rows.length) void checkRows(result);
    } catch (err) {
      const first = err instanceof ValidationError ? err.errors[0] : undefined;
      if (first?.code === 'import_too_many_rows') setProblem({ message: UI.importTooManyForBrowser });
      else setProblem({ message: UI.parseFailed, detail: first?.message });
    } finally {
      setParsing(false);
    }
  }

  async function checkRows(result: ParseResult) {
    setChecking(true);
    try {
      setCheck({ result: await dataProvider.checkImport(result.rows) });
    } catch (err) {
      const body = err instanceof ApiError ? err.body : null;
      setCheck({
        problem: (body?.errors?.length ? body.errors.map((e) => e.message).join('\n') : body?.message) || T.checkFailed,
      });
    } finally {
      setChecking(false);
    }
  }

  async function confirmImport() {
    if (!parsed || importing) return;
    setImporting(true);
    try {
      const result = await dataProvider.importPayments(parsed.rows);
      // rows the file repeated itself were never sent: they count as skipped duplicates too
      setOutcome({ ok: true, imported: result.imported, skipped: result.skipped + inFileDuplicates });
    } catch (err) {
      const body = err instanceof ApiError ? err.body : null;
      const message = body?.errors?.length
        ? body.errors
            .slice(0, 5)
            .map((e) => e.message)
            .join('\n')
        : body?.message;
      setOutcome({ ok: false, message: message || UI.importFailed });
    } finally {
      setImporting(false);
      setStep(2);
    }
  }

  const problems = parsed?.problems ?? [];
  const inFileDuplicates = parsed?.skipped.filter((x) => x.duplicateOf !== undefined).length ?? 0;
  // every row is exactly one of: sent, in error, skipped (no business date or a repeat within the file)
  const errorRows = parsed ? parsed.totalRows - parsed.rows.length - parsed.skipped.length : 0;
  const checked = check && 'result' in check ? check.result : null;
  const willImport = checked ? checked.imported : (parsed?.rows.length ?? 0);
  const duplicates = inFileDuplicates + (checked?.skipped ?? 0);
  const lines = errorLines(problems);
  const canImport = parsed !== null && errorRows === 0 && checked !== null && checked.imported > 0;

  return (
    <Dialog
      open
      onClose={() => onClose(Boolean(outcome?.ok))}
      maxWidth="md"
      fullWidth
      fullScreen={phone}
      data-testid="import-dialog"
    >
      <DialogTitle>{T.title}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 2 }} alternativeLabel>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{s}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {step === 0 && (
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
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                setFile(chosen);
                // Said before anything is read: a file this big would freeze the page.
                setProblem(tooBig(chosen) ? bigFileProblem : null);
              }}
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
        )}

        {step === 1 && parsed && (
          <Box data-testid="import-preview">
            <Typography sx={{ mb: 1 }} data-testid="import-counts">
              {T.counts({
                total: parsed.totalRows,
                willImport,
                duplicates,
                errorRows,
                skipped: parsed.skipped.length - inFileDuplicates,
              })}
            </Typography>
            {checking && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="import-checking">
                {T.checking}
              </Typography>
            )}
            {errorRows > 0 && (
              <Alert severity="error" sx={{ mb: 1.5 }} data-testid="import-errors">
                <AlertTitle>{T.errorsTitle(errorRows)}</AlertTitle>
                {lines.slice(0, 5).map((e) => (
                  <div key={e}>{e}</div>
                ))}
                {lines.length > 5 && <div>{T.moreErrorRows(lines.length - 5)}</div>}
              </Alert>
            )}
            {check && 'problem' in check && (
              <Alert severity="error" sx={{ mb: 1.5, whiteSpace: 'pre-line' }} data-testid="import-check-problem">
                {check.problem}
              </Alert>
            )}
            {errorRows === 0 && checked && checked.imported === 0 && (
              <Alert severity="info" sx={{ mb: 1.5 }} data-testid="import-nothing-new">
                {T.nothingNew}
              </Alert>
            )}
            {/* scrolls both ways: focusable, so a keyboard can scroll it too (axe scrollable-region-focusable) */}
            <TableContainer
              sx={{
                maxHeight: { xs: 'calc(100vh - 300px)', sm: 360 },
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
              }}
              tabIndex={0}
              role="region"
              aria-label={T.title}
            >
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>{T.row}</TableCell>
                    {/* what happens to the row first, so it is seen without scrolling */}
                    <TableCell>{T.check}</TableCell>
                    <TableCell sx={{ minWidth: 200 }}>{T.reason}</TableCell>
                    {HEADERS.map((h) => (
                      <TableCell key={h} sx={{ whiteSpace: 'nowrap' }}>
                        {h}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {parsed.preview.map((r) => {
                    const v = rowVerdict(r, check);
                    return (
                      <TableRow
                        key={r.row}
                        data-testid={`import-row-${r.row}`}
                        sx={r.state === 'error' ? { bgcolor: 'error.50', '& td': { color: 'error.dark' } } : undefined}
                      >
                        <TableCell>{r.row}</TableCell>
                        <TableCell>
                          <Chip size="small" color={v.color} label={v.label} />
                        </TableCell>
                        <TableCell sx={{ overflowWrap: 'anywhere' }}>{v.reason}</TableCell>
                        {r.cells.map((c, i) => (
                          <TableCell
                            key={i}
                            sx={{ whiteSpace: 'nowrap', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}
                          >
                            {c}
                          </TableCell>
                        ))}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
            {parsed.totalRows > parsed.preview.length && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {T.previewOnly(parsed.preview.length)}
              </Typography>
            )}
          </Box>
        )}

        {step === 2 && outcome && (
          <Alert
            severity={!outcome.ok ? 'error' : outcome.imported > 0 ? 'success' : 'info'}
            data-testid="import-result"
          >
            <AlertTitle>
              {!outcome.ok
                ? UI.importFailedTitle
                : outcome.imported > 0
                  ? UI.importSuccessTitle
                  : UI.importNothingTitle}
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
        )}
      </DialogContent>
      <DialogActions>
        {step < 2 && (
          <Button onClick={() => onClose(false)} disabled={importing}>
            {T.cancel}
          </Button>
        )}
        {step === 0 && (
          <Button variant="contained" onClick={parse} disabled={!file || parsing || tooBig(file)}>
            {parsing ? T.parsing : T.next}
          </Button>
        )}
        {step === 1 && canImport && (
          <Button variant="contained" onClick={confirmImport} disabled={importing}>
            {importing ? T.importing : T.confirm}
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" onClick={() => onClose(Boolean(outcome?.ok))}>
            {T.close}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
