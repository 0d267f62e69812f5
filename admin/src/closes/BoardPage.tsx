// 日結總覽 for headquarters, made for a desk: stores by days, each day's close state and difference, the
// takings by method, and a store's day book to download.
import DownloadIcon from '@mui/icons-material/Download';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Loading, Title, useBasename, useNotify } from 'react-admin';
import { Link } from 'react-router-dom';
import {
  CLOSE_STATUS_LABELS,
  METHOD_ORDER,
  addDays,
  canAccess,
  canSwitchStores,
  formatNTD,
  scopeIsEmpty,
  taipeiDate,
  unpackBoard,
  type BoardDay,
  type CloseBoard,
  type WireBoard,
} from '../../../core/browser';
import { DateRangeFields, type DateRange } from '../common/DateRangeFields';
import { Forbidden, NoStoreNotice } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { api, downloadFile } from '../http';
import { serverMessage } from '../serverError';
import { CLOSES_UI as T } from '../messages';

const signed = (n: number) => (n > 0 ? `+${formatNTD(n)}` : formatNTD(n));

// 短溢合計, what a manager checks the board for, stays on the right from a tablet up while the wider days and
// methods scroll under it; on a phone the days need the room.
const stickyEnd = {
  position: { xs: 'static', sm: 'sticky' },
  right: { xs: 'auto', sm: 0 },
  zIndex: 1,
  bgcolor: 'background.paper',
  borderLeft: { sm: 1 },
  borderLeftColor: { sm: 'divider' },
} as const;

function DayCell({ d }: { d: BoardDay }) {
  if (d.status === 'closed') {
    const color = d.difference === 0 ? 'success' : 'warning';
    return <Chip size="small" color={color} label={chipText(d)} sx={{ fontVariantNumeric: 'tabular-nums' }} />;
  }
  // nothing came in or went out: nothing to close, so nothing to draw the eye
  if (d.status === 'quiet')
    return <Chip size="small" label={chipText(d)} sx={{ bgcolor: 'transparent', color: 'text.secondary' }} />;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={d.status === 'reopened' ? 'info' : 'default'}
      label={CLOSE_STATUS_LABELS[d.status]}
    />
  );
}

/** The chip's own words come after store and date: speech input finds a link by what is shown (WCAG 2.5.3). */
function dayName(store: string, d: BoardDay): string {
  if (d.status === 'closed') return `${store} ${d.date} ${chipText(d)}（${T.difference}）`;
  return `${store} ${d.date} ${chipText(d)}${d.difference !== null ? ` ${T.difference} ${signed(d.difference)}` : ''}`;
}

const chipText = (d: BoardDay) =>
  d.status === 'closed' ? `${CLOSE_STATUS_LABELS.closed} ${signed(d.difference ?? 0)}` : CLOSE_STATUS_LABELS[d.status];

export function BoardPage() {
  const { me, isPending } = useMe();
  const [selected] = useSelectedStore();
  const storeId = me && canSwitchStores(me) ? selected : null;
  const today = taipeiDate(Date.now());
  const [range, setRange] = useState<DateRange>({ from: addDays(today, -6), to: today });
  const allowed = !!me && canAccess(me, 'closes', 'list');
  const { board, loading, error, load } = useBoard(allowed, range, storeId, today);

  if (isPending) return <Loading />;
  if (!allowed) return <Forbidden title={T.boardTitle} message={T.boardForbidden} testId="board-forbidden" />;
  if (me && scopeIsEmpty(me))
    return <NoStoreNotice title={T.boardTitle} heading={T.noStoreTitle} message={T.noStore} testId="board-no-store" />;

  const canBook = !!me && canAccess(me, 'close', 'daybook');
  return (
    <Box sx={{ py: { xs: 1, sm: 2 }, px: { xs: 0.5, sm: 1 } }} data-testid="board-page">
      <Title title={T.boardTitle} />
      <BoardHeader range={range} setRange={setRange} load={load} loading={loading} />
      <Box sx={{ height: 4, mb: 1 }}>{loading && <LinearProgress />}</Box>
      {error && <Alert severity="error">{error}</Alert>}
      {board && board.stores.length === 0 && <Alert severity="info">{T.noStores}</Alert>}
      {board && board.stores.length > 0 && <BoardTable board={board} />}
      {board && canBook && <Daybook board={board} />}
    </Box>
  );
}

function BoardHeader(props: {
  range: DateRange;
  setRange: (range: DateRange) => void;
  load: () => Promise<void>;
  loading: boolean;
}) {
  const { range, setRange, load, loading } = props;
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={{ xs: 1.5, md: 2 }}
      sx={{ mb: 2, alignItems: { xs: 'stretch', md: 'center' } }}
    >
      <Typography
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, fontSize: { xs: '1.25rem', sm: '1.5rem' }, flex: 1 }}
      >
        {T.boardTitle}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
        <DateRangeFields
          from={range.from}
          to={range.to}
          labels={{ from: T.from, to: T.to }}
          onChange={setRange}
          testids={{ from: 'board-from', to: 'board-to' }}
          sx={{ flex: { xs: '1 1 40%', sm: '0 0 160px' } }}
        />
        <Button
          variant="contained"
          startIcon={<RefreshIcon />}
          onClick={load}
          disabled={loading}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {T.refresh}
        </Button>
      </Box>
    </Stack>
  );
}

/** `storeId` null: every store in scope. */
function useBoard(allowed: boolean, range: DateRange, storeId: number | null, today: string) {
  const [board, setBoard] = useState<CloseBoard | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!allowed) return;
    setLoading(true);
    setError(null);
    try {
      const q = new URLSearchParams({ from: range.from || today, to: range.to || today });
      if (storeId) q.set('store_id', String(storeId));
      setBoard(unpackBoard(await api<WireBoard>('GET', `/closes/board?${q}`)));
    } catch (err) {
      setError(serverMessage(err) ?? T.loadFailed);
    } finally {
      setLoading(false);
    }
  }, [allowed, range.from, range.to, storeId, today]);
  useEffect(() => {
    void load();
  }, [load]);
  return { board, loading, error, load };
}

/** A phone holds a few days, and today is the one a person looks for. */
function useNewestInView(board: CloseBoard) {
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const box = scroller.current;
    const last = box?.querySelector<HTMLElement>('[data-last-date]');
    // the newest day goes beside the sticky 短溢合計, not under it
    const end = box?.querySelector<HTMLElement>('[data-sticky-end]');
    const covered = end && getComputedStyle(end).right !== 'auto' ? end.offsetWidth : 0;
    if (box && last && box.scrollWidth > box.clientWidth)
      box.scrollLeft = Math.max(0, last.offsetLeft + last.offsetWidth - (box.clientWidth - covered));
  }, [board]);
  return scroller;
}

function BoardTable({ board }: { board: CloseBoard }) {
  const scroller = useNewestInView(board);
  return (
    <TableContainer component={Paper} variant="outlined" data-testid="board-table" ref={scroller}>
      <Table size="small" stickyHeader>
        <TableHead>
          <TableRow>
            <TableCell sx={{ position: 'sticky', left: 0, zIndex: 3, bgcolor: 'background.paper' }}>
              {T.store}
            </TableCell>
            {board.dates.map((d, i) => (
              <TableCell
                key={d}
                align="center"
                sx={{ whiteSpace: 'nowrap' }}
                {...(i === board.dates.length - 1 ? { 'data-last-date': '' } : {})}
              >
                {d.slice(5)}
              </TableCell>
            ))}
            {METHOD_ORDER.map((m) => (
              <TableCell key={m} align="right" sx={{ whiteSpace: 'nowrap' }}>
                {m}
              </TableCell>
            ))}
            <TableCell
              align="right"
              sx={{ whiteSpace: 'nowrap', ...stickyEnd, position: 'sticky', zIndex: 3 }}
              data-sticky-end=""
            >
              {T.differenceSum}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {board.stores.map((s) => (
            <StoreRow key={s.id} s={s} />
          ))}
          <TotalsRow board={board} />
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function StoreRow({ s }: { s: CloseBoard['stores'][number] }) {
  const base = useBasename();
  return (
    <TableRow hover>
      <TableCell
        component="th"
        scope="row"
        // on a phone the name wraps in a narrow column, leaving the screen to the days
        sx={{
          position: 'sticky',
          left: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          whiteSpace: { xs: 'normal', sm: 'nowrap' },
          minWidth: { xs: 88 },
          maxWidth: { xs: 104, sm: 'none' },
          fontWeight: 500,
        }}
      >
        {s.name} ({s.code})
      </TableCell>
      {s.days.map((d) => (
        <TableCell key={d.date} align="center" sx={{ px: 0.5 }}>
          <Box
            component={Link}
            to={`${base}/close?store=${s.id}&date=${d.date}`}
            aria-label={dayName(s.name, d)}
            sx={{ textDecoration: 'none', display: 'inline-block' }}
            data-testid={`board-cell-${s.code}-${d.date}`}
          >
            <DayCell d={d} />
          </Box>
        </TableCell>
      ))}
      {METHOD_ORDER.map((m) => (
        <TableCell key={m} align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatNTD(s.by_method[m] ?? 0)}
        </TableCell>
      ))}
      <TableCell
        align="right"
        sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ...stickyEnd }}
        data-testid={`board-difference-${s.code}`}
      >
        {s.closed_days ? signed(s.difference) : T.unknown}
      </TableCell>
    </TableRow>
  );
}

function TotalsRow({ board }: { board: CloseBoard }) {
  return (
    <TableRow>
      <TableCell
        component="th"
        scope="row"
        sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', fontWeight: 600 }}
      >
        {T.totals}
      </TableCell>
      <TableCell colSpan={board.dates.length} />
      {METHOD_ORDER.map((m) => (
        <TableCell
          key={m}
          align="right"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
          data-testid={`board-total-${m}`}
        >
          {formatNTD(board.by_method[m] ?? 0)}
        </TableCell>
      ))}
      <TableCell
        align="right"
        sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ...stickyEnd }}
      >
        {signed(board.stores.reduce((n, s) => n + s.difference, 0))}
      </TableCell>
    </TableRow>
  );
}

function Daybook({ board }: { board: CloseBoard }) {
  const notify = useNotify();
  const [bookStore, setBookStore] = useState<number | ''>('');
  const [booking, setBooking] = useState(false);
  if (board.stores.length === 0) return null;

  const book = bookStore || board.stores[0]?.id || '';
  // fetched, not followed as a link, so a refusal is said on this page
  const download = async (format: 'xlsx' | 'csv') => {
    setBooking(true);
    try {
      await downloadFile(
        `/closes/daybook?store_id=${book}&from=${board.from}&to=${board.to}&format=${format}`,
        `日記帳.${format}`,
      );
    } catch (err) {
      notify(serverMessage(err) ?? T.loadFailed, { type: 'error' });
    } finally {
      setBooking(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { sm: 'center' } }}>
      <TextField
        select
        size="small"
        label={T.daybookStore}
        value={book}
        onChange={(e) => setBookStore(Number(e.target.value))}
        sx={{ minWidth: 200 }}
      >
        {board.stores.map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {s.name} ({s.code})
          </MenuItem>
        ))}
      </TextField>
      {(['xlsx', 'csv'] as const).map((format) => (
        <Button
          key={format}
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => download(format)}
          disabled={booking}
          data-testid={`board-daybook-${format}`}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {format === 'xlsx' ? T.daybookXlsx : T.daybookCsv}
        </Button>
      ))}
    </Stack>
  );
}
