/**
 * 修改付款方式: an editor corrects how a payment came in, its 付款方式, an e-payment's
 * 電子支付類型 and the 員工購物 mark, with the form's rule (core's validateMethod: the last five
 * for a transfer only). A payment becoming 匯款 gives its account's last five; a transfer's last
 * five is what the bank shows and stays as it is. The server says the rest: a payment linked to a
 * bank line (取消對帳 first), a cash entry of a closed day (the close's lock, with its message).
 */
import EditIcon from '@mui/icons-material/EditOutlined';
import {
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import {
  EPAY_KINDS,
  formatNTD,
  formatTaipei,
  hasMethodDetail,
  initialStatus,
  METHOD_DETAIL_MAX,
  METHOD_TRANSFER,
  methodText,
  needsLastFive,
  PAYMENT_METHODS,
  validateMethod,
} from '../../../core/browser';
import type { Payment, PaymentMethod } from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import { useHoldLayout } from './layoutHold';
import { useServerAction, type ServerAction } from '../common/useServerAction';
import { PAYMENTS_UI as P, UI } from '../messages';

/**
 * The method as text; for an editor, a button that opens 修改付款方式. `compact` (the desk's dense
 * table): the text alone, dotted underlined, no wider than the plain text, so the row keeps its
 * columns. `icon` (a phone's card, which shows the method already): a pencil named for what it does.
 */
export function MethodCell({
  record,
  editable,
  compact,
  icon,
}: {
  record: Payment;
  editable: boolean;
  compact?: boolean;
  icon?: boolean;
}) {
  const [open, setOpen] = useState(false);
  useHoldLayout(open);
  const text = methodText(record);
  if (!editable) return <>{text}</>;
  const dialog = open && <MethodDialog record={record} onClose={() => setOpen(false)} />;
  if (icon) {
    // a card already shows the method in its heading or its second line
    return (
      <>
        <Tooltip title={P.editMethod}>
          <IconButton
            size="small"
            aria-label={P.editMethodLabel(text)}
            onClick={(e) => (e.stopPropagation(), setOpen(true))}
            data-testid={`method-edit-${record.id}`}
          >
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {dialog}
      </>
    );
  }
  return (
    <>
      <Button
        size="small"
        color="inherit"
        endIcon={compact ? undefined : <EditIcon sx={{ fontSize: '1rem !important' }} />}
        // named by the method it shows (what a person sees is what a screen reader says); the title says what it does
        title={P.editMethod}
        onClick={(e) => (e.stopPropagation(), setOpen(true))}
        data-testid={`method-edit-${record.id}`}
        sx={{
          minWidth: 0,
          px: compact ? 0 : 0.5,
          py: 0,
          fontWeight: 400,
          fontSize: 'inherit',
          lineHeight: 'inherit',
          textTransform: 'none',
          whiteSpace: 'nowrap',
          ...(compact && {
            textDecoration: 'underline dotted',
            textUnderlineOffset: 3,
            '&:hover': { textDecoration: 'underline', bgcolor: 'transparent' },
          }),
        }}
      >
        {text}
      </Button>
      {dialog}
    </>
  );
}

type CheckedMethod = Extract<ReturnType<typeof validateMethod>, { ok: true }>['value'];

/** The save of a checked method: the sub-type only for a method that has one, the last five only when asked for. */
function useSaveMethod(record: Payment, onClose: () => void) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  return async (v: CheckedMethod, withLastFive: boolean) => {
    const data: Record<string, unknown> = { method: v.method, employee: v.employee };
    if (hasMethodDetail(v.method)) data.method_detail = v.method_detail;
    if (withLastFive) data.last_five = v.last_five;
    await dataProvider.update('payments', { id: record.id, data, previousData: record });
    notify(P.saved, { type: 'success', autoHideDuration: 2000 });
    refresh();
    onClose();
  };
}

/** The method being chosen, with its sub-type, 員工購物 mark and last five; a new choice clears their errors. */
function useMethodDraft(record: Payment, action: ServerAction) {
  const was: PaymentMethod = record.method ?? METHOD_TRANSFER;
  const [method, setMethod] = useState<PaymentMethod>(was);
  const [detail, setDetail] = useState(record.method_detail ?? '');
  const [employee, setEmployee] = useState(Boolean(record.employee));
  // a transfer keeps its last five; one becoming a transfer is asked for it
  const [lastFive, setLastFive] = useState(was === METHOD_TRANSFER ? record.last_five : '');
  const choose = (m: PaymentMethod) => {
    setMethod(m);
    if (!hasMethodDetail(m)) setDetail('');
    action.clearError('method_detail');
    action.clearError('last_five');
  };
  const changed = method !== was;
  const transfer = needsLastFive(method);
  return { method, choose, detail, setDetail, employee, setEmployee, lastFive, setLastFive, changed, transfer };
}

function MethodDialog({ record, onClose }: { record: Payment; onClose: () => void }) {
  const action = useServerAction(P.saveFailedUnknown);
  const save = useSaveMethod(record, onClose);
  const draft = useMethodDraft(record, action);
  const { method, detail, setDetail, employee, setEmployee, lastFive, setLastFive, changed, transfer } = draft;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const checked = validateMethod({ method, method_detail: detail, employee, last_five: transfer ? lastFive : '' });
    void action.submit(checked, (v) => save(v, changed && transfer));
  };

  return (
    <FormDialog
      open
      id="method-edit"
      title={P.editMethod}
      onClose={onClose}
      action={action}
      labels={{ action: P.save, busy: P.saving }}
      onSubmit={onSubmit}
    >
      <Typography variant="body2" color="text.secondary" data-testid="method-edit-payment">
        {P.editMethodOf(methodText(record), formatNTD(record.amount), formatTaipei(Date.parse(record.paid_at)))}
      </Typography>
      <MethodChoice value={method} error={action.errors.method} onChange={draft.choose} />
      {hasMethodDetail(method) && (
        <DetailField
          value={detail}
          error={action.errors.method_detail}
          onChange={(v) => (setDetail(v), action.clearError('method_detail'))}
        />
      )}
      {transfer && (
        <LastFiveField
          value={lastFive}
          changed={changed}
          error={action.errors.last_five}
          onChange={(v) => (setLastFive(v), action.clearError('last_five'))}
        />
      )}
      <FormControlLabel
        control={<Checkbox checked={employee} onChange={(e) => setEmployee(e.target.checked)} />}
        label={UI.employee}
      />
      {changed && (
        <Typography variant="body2" data-testid="method-edit-status">
          {P.methodStatusAfter(method, initialStatus(method))}
        </Typography>
      )}
    </FormDialog>
  );
}

function MethodChoice({
  value,
  error,
  onChange,
}: {
  value: PaymentMethod;
  error?: string;
  onChange: (m: PaymentMethod) => void;
}) {
  return (
    <FormControl component="fieldset" error={Boolean(error)}>
      <FormLabel component="legend">{UI.method}</FormLabel>
      <RadioGroup row value={value} onChange={(e) => onChange(e.target.value as PaymentMethod)}>
        {PAYMENT_METHODS.map((m) => (
          <FormControlLabel key={m} value={m} control={<Radio />} label={m} />
        ))}
      </RadioGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** An e-payment's 電子支付類型: one of the usual kinds, or typed. */
function DetailField({ value, error, onChange }: { value: string; error?: string; onChange: (v: string) => void }) {
  return (
    <>
      <TextField
        id="method-edit-detail"
        label={UI.methodDetail}
        placeholder={UI.methodDetailPlaceholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={Boolean(error)}
        helperText={error}
        slotProps={{ htmlInput: { list: 'method-edit-kinds', maxLength: METHOD_DETAIL_MAX, autoComplete: 'off' } }}
      />
      <datalist id="method-edit-kinds">
        {EPAY_KINDS.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
    </>
  );
}

/** The last five: asked of a payment becoming a transfer; a transfer's own is locked, saying why. */
function LastFiveField({
  value,
  changed,
  error,
  onChange,
}: {
  value: string;
  changed: boolean;
  error?: string;
  onChange: (v: string) => void;
}) {
  return (
    <TextField
      id="method-edit-last-five"
      label={UI.lastFive}
      value={value}
      disabled={!changed}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error ?? (changed ? undefined : P.lastFiveKept)}
      // why it is locked, readable (a disabled field's helper is greyed below the contrast a person needs)
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' },
        formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
      }}
    />
  );
}
