// The import's preview: counts, rows in error, the server's dry run, and what will happen to each row.
import {
  Alert,
  AlertTitle,
  Box,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { HEADERS, errorText, MSG } from '../../../core/browser';
import type { ImportResult, ParseResult, PreviewRow, Problem } from '../../../core/browser';
import { IMPORT_UI as T } from '../messages';

/** the server's dry run, or why it could not be had */
export type Check = { result: ImportResult } | { problem: string } | null;

/** Every row is sent, in error, or skipped. */
export function importCounts(parsed: ParseResult | null, check: Check) {
  const inFileDuplicates = parsed?.skipped.filter((x) => x.duplicateOf !== undefined).length ?? 0;
  // skipped: no business date, or a repeat within the file
  const errorRows = parsed ? parsed.totalRows - parsed.rows.length - parsed.skipped.length : 0;
  const checked = check && 'result' in check ? check.result : null;
  return {
    inFileDuplicates,
    errorRows,
    checked,
    willImport: checked ? checked.imported : (parsed?.rows.length ?? 0),
    duplicates: inFileDuplicates + (checked?.skipped ?? 0),
    canImport: parsed !== null && errorRows === 0 && checked !== null && checked.imported > 0,
  };
}

/** `第 N 行：a；b`, the row from each problem's details. */
function errorLines(problems: readonly Problem[]): string[] {
  const byRow = new Map<number, Problem[]>();
  for (const p of problems) {
    const row = p.details.row ?? 0;
    byRow.set(row, [...(byRow.get(row) ?? []), p]);
  }
  return [...byRow].map(([row, ps]) => MSG.rowError(row, ps.map((p) => errorText(p.code, p.details)).join('；')));
}

/** With what the server found for rows the file alone cannot judge. */
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

export function PreviewStep({ parsed, check, checking }: { parsed: ParseResult; check: Check; checking: boolean }) {
  const counts = importCounts(parsed, check);
  const { errorRows, checked } = counts;
  return (
    <Box data-testid="import-preview">
      <Typography sx={{ mb: 1 }} data-testid="import-counts">
        {T.counts({
          total: parsed.totalRows,
          willImport: counts.willImport,
          duplicates: counts.duplicates,
          errorRows,
          skipped: parsed.skipped.length - counts.inFileDuplicates,
        })}
      </Typography>
      {checking && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="import-checking">
          {T.checking}
        </Typography>
      )}
      {errorRows > 0 && <ErrorRows errorRows={errorRows} problems={parsed.problems ?? []} />}
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
      <PreviewTable rows={parsed.preview} check={check} />
      {parsed.totalRows > parsed.preview.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {T.previewOnly(parsed.preview.length)}
        </Typography>
      )}
    </Box>
  );
}

function ErrorRows({ errorRows, problems }: { errorRows: number; problems: readonly Problem[] }) {
  const lines = errorLines(problems);
  return (
    <Alert severity="error" sx={{ mb: 1.5 }} data-testid="import-errors">
      <AlertTitle>{T.errorsTitle(errorRows)}</AlertTitle>
      {lines.slice(0, 5).map((e) => (
        <div key={e}>{e}</div>
      ))}
      {lines.length > 5 && <div>{T.moreErrorRows(lines.length - 5)}</div>}
    </Alert>
  );
}

function PreviewTable({ rows, check }: { rows: readonly PreviewRow[]; check: Check }) {
  // focusable so a keyboard can scroll it (axe scrollable-region-focusable)
  return (
    <TableContainer
      sx={{ maxHeight: { xs: 'calc(100vh - 300px)', sm: 360 }, border: 1, borderColor: 'divider', borderRadius: 1 }}
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
          {rows.map((r) => (
            <PreviewTableRow key={r.row} row={r} check={check} />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function PreviewTableRow({ row: r, check }: { row: PreviewRow; check: Check }) {
  const v = rowVerdict(r, check);
  return (
    <TableRow
      data-testid={`import-row-${r.row}`}
      sx={r.state === 'error' ? { bgcolor: 'error.50', '& td': { color: 'error.dark' } } : undefined}
    >
      <TableCell>{r.row}</TableCell>
      <TableCell>
        <Chip size="small" color={v.color} label={v.label} />
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{v.reason}</TableCell>
      {r.cells.map((c, i) => (
        <TableCell key={i} sx={{ whiteSpace: 'nowrap', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {c}
        </TableCell>
      ))}
    </TableRow>
  );
}
