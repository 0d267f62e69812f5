// 日結, made for a phone at the counter: count the drawer, see the difference before sending, and close a
// store's day. Only a manager (manage_payments) may reopen it.
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Divider,
  FormControlLabel,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Loading, Title, useNotify } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import {
  addDays,
  CLOSE_STATUS_LABELS,
  DENOMINATIONS,
  METHOD_ORDER,
  canAccess,
  cashDifference,
  denominationTotal,
  formatNTD,
  formatTaipei,
  scopeIsEmpty,
  storeLabel,
  storesInScope,
  taipeiDate,
  validateClose,
  type DayView,
  type Denominations,
  type Me,
} from '../../../core/browser';
import { Forbidden, NoStoreNotice } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { api } from '../http';
import { fieldMessages, serverCode, serverFieldErrors, serverMessage } from '../serverError';
import { CLOSES_UI as T, PAYMENTS_UI } from '../messages';
import { ConfirmDialog } from '../payments/ConfirmDialog';
import { CashOutActions, useCashOutChanges } from './CashOutActions';

const signed = (n: number) => (n > 0 ? `+${formatNTD(n)}` : formatNTD(n));
const digits = (v: string) => v.replace(/[^\d]/g, '');

export function ClosePage() {
  const { me, isPending } = useMe();
  const where = useWhere(me);
  const { storeId, date } = where;
  const allowed = !!me && canAccess(me, 'close', 'list');
  const { day, loading, loadError, load } = useDay(storeId, date, allowed);

  if (isPending) return <Loading />;
  if (!allowed) return <Forbidden title={T.closeTitle} message={T.forbidden} testId="close-forbidden" />;
  if (me && scopeIsEmpty(me))
    return <NoStoreNotice title={T.closeTitle} heading={T.noStoreTitle} message={T.noStore} testId="close-no-store" />;

  return (
    <Box sx={{ py: { xs: 1, sm: 2 }, px: { xs: 0.5, sm: 1 }, maxWidth: 720 }} data-testid="close-page">
      <Title title={T.closeTitle} />
      <Typography
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, fontSize: { xs: '1.25rem', sm: '1.5rem' }, mb: 1.5 }}
      >
        {T.closeTitle}
      </Typography>
      <WhereFields where={where} fixedStore={!!me?.store_id} />
      <Box sx={{ height: 4, mb: 1 }}>{loading && <LinearProgress />}</Box>
      {loadError && <Alert severity="error">{loadError}</Alert>}
      {day && (
        <DayCard
          day={day}
          canClose={canAccess(me!, 'close', 'close')}
          canReopen={canAccess(me!, 'close', 'reopen')}
          reload={load}
          me={me!}
        />
      )}
    </Box>
  );
}

/** Kept in the address; else one's own store or the top bar's, and today. */
function useWhere(me: Me | undefined) {
  const { stores } = useStores();
  const [selected] = useSelectedStore();
  const [params, setParams] = useSearchParams();
  const offered = useMemo(() => (me ? storesInScope(me, stores) : []), [me, stores]);
  const storeId = Number(params.get('store')) || me?.store_id || selected || offered[0]?.id || null;
  const date = params.get('date') || taipeiDate(Date.now());
  const setWhere = (next: { store?: number; date?: string }) => {
    const p = new URLSearchParams(params);
    if (next.store) p.set('store', String(next.store));
    if (next.date) p.set('date', next.date);
    setParams(p, { replace: true });
  };
  return { offered, storeId, date, setWhere };
}

function useDay(storeId: number | null, date: string, allowed: boolean) {
  const [day, setDay] = useState<DayView | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!storeId || !allowed) return;
    setLoading(true);
    setLoadError(null);
    try {
      setDay(await api<DayView>('GET', `/closes/day?store_id=${storeId}&date=${date}`));
    } catch (err) {
      setDay(null);
      setLoadError(serverMessage(err) ?? T.loadFailed);
    } finally {
      setLoading(false);
    }
  }, [storeId, date, allowed]);
  useEffect(() => {
    void load();
  }, [load]);
  return { day, loading, loadError, load };
}

function WhereFields({ where, fixedStore }: { where: ReturnType<typeof useWhere>; fixedStore: boolean }) {
  const { offered, storeId, date, setWhere } = where;
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1.5 }}>
      {fixedStore ? (
        <TextField
          size="small"
          label={T.store}
          value={storeLabel(offered.find((s) => s.id === storeId))}
          slotProps={{ input: { readOnly: true } }}
          sx={{ flex: 1 }}
        />
      ) : (
        <TextField
          select
          size="small"
          label={T.store}
          value={storeId ?? ''}
          onChange={(e) => setWhere({ store: Number(e.target.value) })}
          sx={{ flex: 1 }}
          data-testid="close-store"
        >
          {offered.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {storeLabel(s)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', flex: '0 0 auto' }}>
        <DayArrow date={date} days={-1} onDate={(d) => setWhere({ date: d })} />
        <TextField
          type="date"
          size="small"
          label={T.date}
          value={date}
          onChange={(e) => e.target.value && setWhere({ date: e.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: taipeiDate(Date.now()) } }}
          sx={{ width: 150 }}
          data-testid="close-date"
        />
        <DayArrow date={date} days={1} onDate={(d) => setWhere({ date: d })} />
      </Box>
    </Stack>
  );
}

/** ‹ › a day, as the list's; › stops at today. */
function DayArrow({ date, days, onDate }: { date: string; days: -1 | 1; onDate: (d: string) => void }) {
  const next = addDays(date, days);
  const label = days < 0 ? PAYMENTS_UI.dayBefore : PAYMENTS_UI.dayAfter;
  return (
    <IconButton
      size="small"
      aria-label={label}
      disabled={next > taipeiDate(Date.now())}
      onClick={() => onDate(next)}
      data-testid={days < 0 ? 'close-day-before' : 'close-day-after'}
    >
      {days < 0 ? <ChevronLeftIcon /> : <ChevronRightIcon />}
    </IconButton>
  );
}

function Figure({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.5 }}>
      <Typography
        variant="body2"
        color={strong ? 'text.primary' : 'text.secondary'}
        sx={{ fontWeight: strong ? 600 : 400 }}
      >
        {label}
      </Typography>
      <Typography
        variant="body2"
        sx={{ fontWeight: strong ? 700 : 500, fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId}
      >
        {value}
      </Typography>
    </Box>
  );
}

function DayCard({
  day,
  canClose,
  canReopen,
  reload,
  me,
}: {
  day: DayView;
  canClose: boolean;
  canReopen: boolean;
  reload: () => Promise<void>;
  me: Me;
}) {
  const f = day.figures;
  const c = day.close;
  const statusColor = day.status === 'closed' ? 'success' : day.status === 'reopened' ? 'info' : 'default';
  const openingText = f.opening === null ? T.unknown : formatNTD(f.opening);
  const openingNote =
    day.opening_from === 'stated' ? T.openingStated : day.opening_from ? T.openingFrom(day.opening_from) : '';
  return (
    <Stack spacing={1.5}>
      <Card variant="outlined">
        <CardContent sx={{ pb: '12px !important' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {storeLabel(day.store)} {day.date}
            </Typography>
            <Chip size="small" color={statusColor} label={CLOSE_STATUS_LABELS[day.status]} data-testid="close-status" />
          </Box>
          <Figure label={`${T.opening}${openingNote ? `（${openingNote}）` : ''}`} value={openingText} />
          <Divider sx={{ my: 0.5 }} />
          {METHOD_ORDER.map((m) => (
            <Figure key={m} label={m} value={formatNTD(f.by_method[m] ?? 0)} testId={`close-method-${m}`} />
          ))}
          <Divider sx={{ my: 0.5 }} />
          <Figure label={T.cashIn} value={formatNTD(f.cash_in)} />
          <Figure label={T.expense} value={formatNTD(-f.expense)} testId="close-expense" />
          <Figure label={T.withdrawal} value={formatNTD(-f.withdrawal)} />
          <Figure
            label={T.expected}
            value={f.expected === null ? T.unknown : formatNTD(f.expected)}
            strong
            testId="close-expected"
          />
        </CardContent>
      </Card>
      {c && day.status === 'closed' ? (
        <ClosedCard day={day} canReopen={canReopen} reload={reload} />
      ) : canClose ? (
        <CloseForm day={day} reload={reload} />
      ) : (
        <Alert severity="info">{T.cannotClose}</Alert>
      )}
      <Entries day={day} reload={reload} me={me} />
    </Stack>
  );
}

function ClosedCard({ day, canReopen, reload }: { day: DayView; canReopen: boolean; reload: () => Promise<void> }) {
  const c = day.close!;
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const reopen = async () => {
    setBusy(true);
    try {
      await api('POST', '/closes/reopen', { store_id: day.store.id, date: day.date });
      notify(T.reopenedOk(day.date), { type: 'success' });
      setAsking(false);
      await reload();
    } catch (err) {
      notify(serverMessage(err) ?? T.loadFailed, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card variant="outlined" data-testid="close-done">
      <CardContent sx={{ pb: '12px !important' }}>
        <Figure label={T.expected} value={formatNTD(c.expected)} />
        <Figure label={T.counted} value={formatNTD(c.counted)} strong testId="close-counted" />
        <Figure label={T.difference} value={signed(c.difference)} strong testId="close-difference" />
        {c.denominations && (
          <Typography variant="caption" color="text.secondary" component="p">
            {DENOMINATIONS.filter((v) => c.denominations?.[v])
              .map((v) => `${v}×${c.denominations![v]}`)
              .join('　')}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {T.closedBy(c.closed_by, formatTaipei(Date.parse(c.closed_at)))}
          {c.note ? `：${c.note}` : ''}
        </Typography>
        {c.late_changes > 0 && (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="close-late">
            {T.lateChanges(c.late_changes)}
          </Alert>
        )}
        {canReopen && (
          <Button
            startIcon={<LockOpenIcon />}
            onClick={() => setAsking(true)}
            sx={{ mt: 1 }}
            data-testid="close-reopen"
          >
            {T.reopen}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={asking}
        title={T.reopen}
        body={T.reopenConfirm(day.date)}
        confirm={T.reopen}
        color="warning"
        busy={busy}
        onConfirm={reopen}
        onClose={() => setAsking(false)}
      />
    </Card>
  );
}

function CloseForm({ day, reload }: { day: DayView; reload: () => Promise<void> }) {
  const drawer = useDrawer(day);
  const sending = useSendClose(day, reload);
  const { busy, errors, failure } = sending;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    sending.setFailure(null);
    const checked = validateClose(drawer.body, taipeiDate(Date.now()));
    const local = checked.ok ? {} : fieldMessages(checked.errors);
    if (drawer.needsOpening && drawer.opening === '') local.opening = T.openingUnknown;
    sending.setErrors(local);
    if (Object.keys(local).length) return;
    // a drawer that does not match is asked about once more: only a manager can reopen the day
    if (drawer.difference !== null && drawer.difference !== 0) sending.setAsking(true);
    else void sending.send(drawer.body);
  };

  return (
    <Card variant="outlined" component="form" onSubmit={submit} noValidate data-testid="close-form">
      <CardContent>
        <Stack spacing={1.5}>
          {failure && (
            <Alert severity="error" data-testid="close-error">
              {failure}
            </Alert>
          )}
          <CountFields drawer={drawer} errors={errors} />
          <DifferencePreview difference={drawer.difference} />
          <TextField
            label={T.closeNote}
            value={drawer.note}
            onChange={(e) => drawer.setNote(e.target.value)}
            error={!!errors.note}
            helperText={errors.note}
            multiline
            minRows={1}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="close-submit">
            {busy ? T.closing : T.closeDay}
          </Button>
        </Stack>
      </CardContent>
      <DifferenceDialog drawer={drawer} sending={sending} />
    </Card>
  );
}

function useDrawer(day: DayView) {
  const f = day.figures;
  const needsOpening = f.opening === null;
  const [counted, setCounted] = useState('');
  const [opening, setOpening] = useState('');
  const [note, setNote] = useState('');
  const [byNotes, setByNotes] = useState(false);
  const [notes, setNotes] = useState<Record<number, string>>({});

  const denominations: Denominations = Object.fromEntries(DENOMINATIONS.map((v) => [v, Number(notes[v] || 0)]));
  const countedValue = byNotes ? denominationTotal(denominations) : counted === '' ? null : Number(counted);
  const openingValue = needsOpening ? (opening === '' ? null : Number(opening)) : f.opening;
  const expected = openingValue === null ? null : openingValue + f.cash_in - f.cash_out;
  const difference = countedValue === null || expected === null ? null : cashDifference(countedValue, expected);

  const body = {
    store_id: day.store.id,
    date: day.date,
    counted: byNotes ? denominationTotal(denominations) : counted,
    ...(needsOpening ? { opening } : {}),
    ...(byNotes ? { denominations } : {}),
    note,
  };
  return {
    needsOpening,
    counted,
    setCounted,
    opening,
    setOpening,
    note,
    setNote,
    byNotes,
    setByNotes,
    notes,
    setNotes,
    denominations,
    countedValue,
    expected,
    difference,
    body,
  };
}

type Drawer = ReturnType<typeof useDrawer>;

/** After a send whose answer never came. */
async function closedOnServer(day: DayView) {
  try {
    const now = await api<DayView>('GET', `/closes/day?store_id=${day.store.id}&date=${day.date}`);
    return now.status === 'closed';
  } catch {
    return false;
  }
}

function useSendClose(day: DayView, reload: () => Promise<void>) {
  const notify = useNotify();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);

  const send = async (body: Drawer['body']) => {
    if (busy) return;
    setBusy(true);
    try {
      await api('POST', '/closes', body);
      setAsking(false);
      notify(T.closedOk(day.date), { type: 'success' });
      await reload();
    } catch (err) {
      setAsking(false);
      const code = serverCode(err);
      if (code === 'day_already_closed') {
        // sent twice (a lost answer, a second phone): the close that is stored is shown, with who and when
        notify(serverMessage(err)!, { type: 'info' });
        await reload();
        return;
      }
      if (code === undefined && (await closedOnServer(day))) {
        // the answer was lost but the close was stored
        notify(T.closedOk(day.date), { type: 'success' });
        await reload();
        return;
      }
      const fields = serverFieldErrors(err);
      setErrors(fields);
      if (!Object.keys(fields).length)
        setFailure(code === undefined ? T.closeUnsure : (serverMessage(err) ?? T.loadFailed));
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, failure, setFailure, busy, asking, setAsking, send };
}

function CountFields({ drawer, errors }: { drawer: Drawer; errors: Record<string, string> }) {
  const { byNotes, notes, setNotes } = drawer;
  return (
    <>
      {drawer.needsOpening && (
        <TextField
          label={T.opening}
          value={drawer.opening}
          onChange={(e) => drawer.setOpening(digits(e.target.value))}
          helperText={errors.opening ?? T.openingUnknown}
          error={!!errors.opening}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'close-opening' } }}
        />
      )}
      <FormControlLabel
        control={<Switch checked={byNotes} onChange={(e) => drawer.setByNotes(e.target.checked)} />}
        label={T.countByNotes}
      />
      {byNotes ? (
        <Box
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}
          data-testid="close-notes"
        >
          {DENOMINATIONS.map((v) => (
            <TextField
              key={v}
              size="small"
              label={T.denominationLabel(v)}
              value={notes[v] ?? ''}
              onChange={(e) => setNotes((n) => ({ ...n, [v]: digits(e.target.value) }))}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `close-note-${v}` } }}
            />
          ))}
        </Box>
      ) : null}
      <TextField
        label={byNotes ? T.denominationTotal : T.counted}
        value={byNotes ? String(denominationTotal(drawer.denominations)) : drawer.counted}
        onChange={(e) => drawer.setCounted(digits(e.target.value))}
        error={!!errors.counted || !!errors.denominations}
        helperText={errors.counted ?? errors.denominations}
        slotProps={{
          input: { readOnly: byNotes },
          htmlInput: { inputMode: 'numeric', 'data-testid': 'close-counted-input' },
        }}
      />
    </>
  );
}

function DifferencePreview({ difference }: { difference: number | null }) {
  return (
    <Box
      sx={{
        px: 1.5,
        py: 1,
        borderRadius: 1,
        bgcolor: difference === null ? 'action.hover' : difference === 0 ? 'success.light' : 'warning.light',
      }}
    >
      <Figure
        label={T.difference}
        value={difference === null ? T.unknown : signed(difference)}
        strong
        testId="close-preview-difference"
      />
      <Typography variant="caption" color="text.primary">
        {T.differenceHint}
      </Typography>
    </Box>
  );
}

function DifferenceDialog({ drawer, sending }: { drawer: Drawer; sending: ReturnType<typeof useSendClose> }) {
  const { difference, expected, countedValue } = drawer;
  const { busy } = sending;
  return (
    <ConfirmDialog
      open={sending.asking}
      title={T.differenceTitle}
      body={
        difference !== null && expected !== null && countedValue !== null
          ? T.differenceAsk(formatNTD(countedValue), formatNTD(expected), difference, formatNTD(Math.abs(difference)))
          : ''
      }
      cancel={T.recount}
      confirm={busy ? T.closing : T.closeAnyway}
      color="warning"
      busy={busy}
      onConfirm={() => void sending.send(drawer.body)}
      onClose={() => sending.setAsking(false)}
      testIds={{ dialog: 'close-difference-dialog', cancel: 'close-recount', confirm: 'close-confirm' }}
    >
      <TextField
        label={T.differenceReason}
        value={drawer.note}
        onChange={(e) => drawer.setNote(e.target.value)}
        helperText={T.differenceReasonHint}
        fullWidth
        multiline
        minRows={2}
        slotProps={{ htmlInput: { 'data-testid': 'close-difference-reason' } }}
      />
    </ConfirmDialog>
  );
}

/** A closed day's cash is changed only by a manager (manage_payments, who may also reopen it). */
function cashOutRights(me: Me, day: DayView) {
  const open = day.status !== 'closed' || canAccess(me, 'close', 'reopen');
  return { edit: open && canAccess(me, 'cash_out', 'edit'), delete: open && canAccess(me, 'cash_out', 'delete') };
}

function Entries({ day, reload, me }: { day: DayView; reload: () => Promise<void>; me: Me }) {
  const changes = useCashOutChanges(reload);
  const rights = cashOutRights(me, day);
  const lines = changes.shown(day.lines);
  return (
    <Card variant="outlined">
      <CardContent sx={{ pb: '12px !important' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {T.entries}
        </Typography>
        {lines.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {T.noEntries}
          </Typography>
        ) : (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="close-entries">
            {lines.map((l) => (
              <Box
                component="li"
                key={`${l.type}-${l.id}`}
                sx={{ display: 'flex', gap: 1, py: 0.75, borderTop: 1, borderColor: 'divider', alignItems: 'baseline' }}
              >
                <Typography variant="body2" sx={{ width: 44, flex: '0 0 auto', fontVariantNumeric: 'tabular-nums' }}>
                  {formatTaipei(Date.parse(l.at)).slice(11)}
                </Typography>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {l.type === 'payment' ? T.income : T.out}・{l.method}
                    {l.method_detail ? `（${l.method_detail}）` : ''}
                    {l.category ? `・${l.category}` : ''}
                    {l.employee ? `・${T.employee}` : ''}
                    {l.after_close ? `・${T.afterClose}` : ''}
                  </Typography>
                  {l.note && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ display: 'block', overflowWrap: 'anywhere' }}
                    >
                      {l.note}
                    </Typography>
                  )}
                </Box>
                <Box sx={{ textAlign: 'right', flex: '0 0 auto' }}>
                  <Typography
                    variant="body2"
                    sx={{ fontVariantNumeric: 'tabular-nums', color: l.cash < 0 ? 'error.dark' : 'text.primary' }}
                  >
                    {formatNTD(l.cash < 0 ? -l.amount : l.amount)}
                  </Typography>
                  {l.cash !== 0 && l.running !== null && (
                    <Typography variant="caption" color="text.secondary">
                      {T.running} {formatNTD(l.running)}
                    </Typography>
                  )}
                </Box>
                {l.type === 'cash_out' && (rights.edit || rights.delete) && (
                  <Box sx={{ flex: '0 0 auto', alignSelf: 'center' }}>
                    <CashOutActions
                      line={l}
                      onChange={rights.edit ? (next) => changes.change(l, next) : undefined}
                      onDelete={rights.delete ? () => changes.drop(l) : undefined}
                    />
                  </Box>
                )}
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
