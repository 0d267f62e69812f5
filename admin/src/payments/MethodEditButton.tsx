// 修改付款方式: an editor corrects a payment's method, e-payment kind and 員工購物 mark. A transfer's last five
// is what the bank shows and stays; a payment becoming 匯款 is asked for it. The server refuses linked or closed ones.
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

/** `compact`: no wider than the plain text, so the dense row keeps its columns; `icon`: a card's pencil. */
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
        // named by the method it shows (a screen reader says what is seen); the title says what it does
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

function useMethodDraft(record: Payment, action: ServerAction) {
  const was: PaymentMethod = record.method ?? METHOD_TRANSFER;
  const [method, setMethod] = useState<PaymentMethod>(was);
  const [detail, setDetail] = useState(record.method_detail ?? '');
  const [employee, setEmployee] = useState(Boolean(record.employee));
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
      // a disabled field's helper is greyed below readable contrast, and it says why the field is locked
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' },
        formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
      }}
    />
  );
}
