// The payment form's state and submission, with the question held when a submission is probably a mistake.
import { useCallback, useRef, useState, type FormEvent } from 'react';
import {
  formatTaipei,
  METHOD_TRANSFER,
  needsLastFive,
  paidAtNeedsConfirm,
  paymentTexts,
  paymentWords,
  submissionStoreId,
  taipeiInputValue,
  validatePayment,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { api, ApiError } from '../http';
import { serverCode } from '../serverError';
import { UI } from '../messages';
import type { MethodValues } from './MethodFields';
import { useClock, useLocks, type Locks } from './locks';

interface FormState extends MethodValues {
  last_five: string;
  paid_at: string;
  amount: string;
  note: string;
  store_id: string;
}

type FormErrors = Partial<Record<keyof FormState, string>>;

export type Banner = { kind: 'success' | 'error'; text: string } | null;

export type Doubt = { kind: 'time' | 'duplicate'; title: string; text: string } | null;

/** What the person said 仍要送出 to. */
type Confirmed = { time?: boolean; duplicate?: boolean };

/** The store is required when stores are offered. */
interface SubmitScope {
  me: Me | null;
  locked: boolean;
  storeRequired: boolean;
}

type Checked = Extract<ReturnType<typeof validatePayment>, { ok: true }>['value'];

const emptyForm = (storeId: number | null): FormState => ({
  method: METHOD_TRANSFER,
  method_detail: '',
  employee: false,
  last_five: '',
  paid_at: '',
  amount: '', // empty, so typing 1200 gives 1200 and not 01200
  note: '',
  store_id: storeId !== null ? String(storeId) : '',
});

function submitErrorText(err: unknown): string {
  if (err instanceof ApiError && err.body?.errors?.length)
    return UI.validationError(err.body.errors.map((e) => e.message));
  if (err instanceof ApiError && err.body?.message) return err.body.message;
  return UI.submitFailed;
}

/** The time is parsed here to check and ask about it, but sent as typed, Taiwan wall-clock text. */
function checkForm(form: FormState, storeRequired: boolean) {
  return validatePayment(
    {
      method: form.method,
      method_detail: form.method_detail,
      employee: form.employee,
      last_five: needsLastFive(form.method) ? form.last_five : '',
      paid_at: form.paid_at,
      amount: form.amount === '' ? '' : Number(form.amount),
      note: form.note,
      store_id: form.store_id,
    },
    // the server's rule too: a time over a day ahead is refused here, not asked about
    { storeRequired, now: Date.now() },
  );
}

function timeDoubt(v: Checked): Doubt {
  const odd = paidAtNeedsConfirm(v.paid_at, Date.now());
  if (!odd) return null;
  const when = formatTaipei(v.paid_at);
  const texts = paymentTexts(v.method);
  return {
    kind: 'time',
    title: paymentWords(v.method).time,
    text: 'ahead' in odd ? texts.confirmPaidAtAhead(when) : texts.confirmPaidAtOld(when, odd.daysBack),
  };
}

function paymentPayload(v: Checked, paidAtTyped: string, me: Me | null) {
  return {
    method: v.method,
    ...(v.method_detail ? { method_detail: v.method_detail } : {}),
    ...(v.employee ? { employee: true } : {}),
    last_five: v.last_five,
    paid_at: paidAtTyped,
    amount: v.amount,
    note: v.note,
    store_id: submissionStoreId(me ?? { store_id: null }, v.store_id),
  };
}

/** The next entry after a sale: what is locked stays, the rest starts afresh (an untouched time follows the clock). */
function nextForm(sent: FormState, locks: Locks, storeId: number | null): FormState {
  const next = emptyForm(storeId);
  if (locks.method) Object.assign(next, { method: sent.method, method_detail: sent.method_detail });
  if (locks.amount) next.amount = sent.amount;
  if (locks.paid_at) next.paid_at = sent.paid_at;
  if (locks.store_id && storeId === null) next.store_id = sent.store_id;
  return next;
}

/** Any change withdraws the question that stood. An empty `paid_at` means the time follows the clock. */
function useFormValues(initialStoreId: number | null) {
  const [form, setForm] = useState<FormState>(emptyForm(initialStoreId));
  const [errors, setErrors] = useState<FormErrors>({});
  const [doubt, setDoubt] = useState<Doubt>(null);
  const clock = useClock();
  const takeStore = useCallback((id: number) => setForm((f) => ({ ...f, store_id: String(id) })), []);
  const setMethod = (v: MethodValues) => {
    setForm((f) => ({ ...f, ...v, last_five: needsLastFive(v.method) ? f.last_five : '' }));
    setErrors((er) => ({ ...er, method: undefined, method_detail: undefined, last_five: undefined }));
    setDoubt(null);
  };
  const set = (key: keyof FormState) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setErrors((er) => ({ ...er, [key]: undefined }));
    setDoubt(null);
  };
  const followClock = () => set('paid_at')({ target: { value: '' } });
  const paidAtShown = form.paid_at || clock;
  return { form, setForm, errors, setErrors, doubt, setDoubt, takeStore, setMethod, set, followClock, paidAtShown };
}

export function useSubmitForm(initialStoreId: number | null) {
  const values = useFormValues(initialStoreId);
  const { form, setForm, setErrors, setDoubt } = values;
  const lockState = useLocks();
  const [banner, setBanner] = useState<Banner>(null);
  const [submitting, setSubmitting] = useState(false);
  // each refused submission brings the first field in error into view
  const [showErrors, setShowErrors] = useState(0);
  const busy = useRef(false);

  async function send(v: Checked, sent: FormState, confirmed: Confirmed, scope: SubmitScope) {
    const payload = paymentPayload(v, sent.paid_at, scope.me);
    busy.current = true;
    setSubmitting(true);
    try {
      const body = confirmed.duplicate ? { ...payload, confirm_duplicate: true } : payload;
      const created = await api<{ uuid: string }>('POST', '/payments', body);
      setBanner({
        kind: 'success',
        text: v.method === METHOD_TRANSFER ? UI.submitSuccess(created.uuid) : UI.saleSuccess(v.method, created.uuid),
      });
      setForm(nextForm(form, lockState.locks, scope.locked ? scope.me!.store_id : null));
      setErrors({});
    } catch (err) {
      if (err instanceof ApiError && serverCode(err) === 'possible_duplicate') {
        setDoubt({ kind: 'duplicate', title: UI.possibleDuplicateTitle, text: err.body?.message ?? '' });
        return;
      }
      setBanner({ kind: 'error', text: submitErrorText(err) });
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }

  async function submit(e: FormEvent | null, confirmed: Confirmed, scope: SubmitScope) {
    e?.preventDefault();
    if (busy.current) return; // a second submit while sending is ignored
    setBanner(null);
    setDoubt(null);
    // the time sent is the one on screen: the clock's when untouched, renewed at the press
    const sent = { ...form, paid_at: form.paid_at || taipeiInputValue(Date.now()) };
    const checked = checkForm(sent, scope.storeRequired);
    if (!checked.ok) {
      setErrors(Object.fromEntries(checked.errors.map((x) => [x.field, x.message])));
      setShowErrors((n) => n + 1);
      return;
    }
    const question = confirmed.time ? null : timeDoubt(checked.value);
    if (question) return setDoubt(question);
    await send(checked.value, sent, confirmed, scope);
  }

  return { ...values, ...lockState, banner, setBanner, submitting, showErrors, submit };
}

export type SubmitForm = ReturnType<typeof useSubmitForm>;
