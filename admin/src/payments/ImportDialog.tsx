/**
 * The Excel import wizard (spec section 2 "Modals"): (1) choose a .xlsx or .xls file, shown with
 * its name and size in KB; (2) preview: row count, the first five errors and how many more, each
 * row marked; (3) the result. Parsing runs in the browser with the same core/excel code as the
 * CLI (loaded only now, so the spreadsheet library is not in the page until needed); the server
 * checks every row again on import.
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
} from '@mui/material';
import { useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { ParseResult } from '../../../core/excel/parse';
import { BROWSER_IMPORT_MAX_BYTES, HEADERS, MAX_IMPORT_ROWS } from '../../../core/excel/columns';
import { MSG } from '../../../core/messages';
import type { Me } from '../../../core/types';
import { UI } from '../messages';
import { useStores } from '../common/useStores';
import type { RemitDataProvider } from '../providers/dataProvider';
import { ApiError } from '../http';

type Outcome = { ok: true; imported: number; skipped: number } | { ok: false; message: string };

const STEPS = ['選擇檔案', '預覽', '結果'];
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
  const { stores } = useStores();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [parsing, setParsing] = useState(false);
  const [problem, setProblem] = useState<{ message: string; detail?: string } | null>(null);
  const [parsed, setParsed] = useState<ParseResult | null>(null);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

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
      const { parsePaymentsWorkbook } = await import('../../../core/excel/parse');
      setParsed(parsePaymentsWorkbook(bytes, { stores, userStoreId: me.store_id }));
      setStep(1);
    } catch (err) {
      const detail = (err as { errors?: Array<{ message: string }> })?.errors?.[0]?.message;
      if (detail === MSG.importTooManyRows(MAX_IMPORT_ROWS)) setProblem({ message: UI.importTooManyForBrowser });
      else setProblem({ message: UI.parseFailed, detail });
    } finally {
      setParsing(false);
    }
  }

  async function confirmImport() {
    if (!parsed || importing) return;
    setImporting(true);
    try {
      const result = await dataProvider.importPayments(parsed.rows);
      setOutcome({ ok: true, imported: result.imported, skipped: result.skipped });
    } catch (err) {
      const body = err instanceof ApiError ? err.body : null;
      const message = body?.errors?.length ? body.errors.slice(0, 5).map((e) => e.message).join('\n') : body?.message;
      setOutcome({ ok: false, message: message || UI.importFailed });
    } finally {
      setImporting(false);
      setStep(2);
    }
  }

  const errors = parsed?.errors ?? [];
  const canImport = parsed !== null && errors.length === 0 && parsed.rows.length > 0;

  return (
    <Dialog open onClose={() => onClose(Boolean(outcome?.ok))} maxWidth="md" fullWidth data-testid="import-dialog">
      <DialogTitle>Excel 匯入</DialogTitle>
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
              選擇檔案（.xlsx 或 .xls）
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
            <Typography sx={{ mb: 1 }}>
              共 {parsed.totalRows} 筆資料，{parsed.rows.length} 筆可匯入
              {parsed.skipped.length > 0 && `，略過 ${parsed.skipped.length} 行`}
            </Typography>
            {errors.length > 0 && (
              <Alert severity="error" sx={{ mb: 1.5 }}>
                <AlertTitle>檔案有 {errors.length} 個錯誤，請修正後再匯入</AlertTitle>
                {errors.slice(0, 5).map((e) => (
                  <div key={e}>{e}</div>
                ))}
                {errors.length > 5 && <div>…還有 {errors.length - 5} 個錯誤</div>}
              </Alert>
            )}
            {parsed.skipped.length > 0 && (
              <Alert severity="info" sx={{ mb: 1.5 }}>
                {parsed.skipped.slice(0, 5).map((s) => (
                  <div key={s.reason}>{s.reason}</div>
                ))}
                {parsed.skipped.length > 5 && <div>…還有 {parsed.skipped.length - 5} 行略過</div>}
              </Alert>
            )}
            <TableContainer sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>行</TableCell>
                    {HEADERS.map((h) => (
                      <TableCell key={h}>{h}</TableCell>
                    ))}
                    <TableCell>檢查</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {parsed.preview.map((r) => (
                    <TableRow key={r.row} sx={r.state === 'error' ? { bgcolor: 'error.50', '& td': { color: 'error.dark' } } : undefined}>
                      <TableCell>{r.row}</TableCell>
                      {r.cells.map((c, i) => (
                        <TableCell key={i} sx={{ whiteSpace: 'nowrap', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                          {c}
                        </TableCell>
                      ))}
                      <TableCell>
                        <Chip
                          size="small"
                          color={r.state === 'ok' ? 'success' : r.state === 'error' ? 'error' : 'default'}
                          label={r.state === 'ok' ? '正常' : r.state === 'error' ? '錯誤' : '略過'}
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            {parsed.totalRows > parsed.preview.length && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                只顯示前 {parsed.preview.length} 行
              </Typography>
            )}
          </Box>
        )}

        {step === 2 && outcome && (
          <Alert severity={outcome.ok ? 'success' : 'error'} data-testid="import-result">
            <AlertTitle>{outcome.ok ? UI.importSuccessTitle : UI.importFailedTitle}</AlertTitle>
            <Box sx={{ whiteSpace: 'pre-line' }}>
              {outcome.ok ? UI.importSuccess(outcome.imported) : outcome.message}
              {outcome.ok && outcome.skipped > 0 && `\n略過 ${outcome.skipped} 筆與已有記錄重複的資料`}
            </Box>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {step < 2 && (
          <Button onClick={() => onClose(false)} disabled={importing}>
            取消
          </Button>
        )}
        {step === 0 && (
          <Button variant="contained" onClick={parse} disabled={!file || parsing || tooBig(file)}>
            {parsing ? '解析中...' : '下一步'}
          </Button>
        )}
        {step === 1 && canImport && (
          <Button variant="contained" onClick={confirmImport} disabled={importing}>
            {importing ? '匯入中...' : '確認匯入'}
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" onClick={() => onClose(Boolean(outcome?.ok))}>
            關閉
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
