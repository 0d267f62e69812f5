/**
 * The payment form screen `/` (spec sections 2, 4, 5, 8): light enough for a phone, no
 * react-admin. Rules come from core, so the form and the server check the same things.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  canAccess,
  isBranchUser,
  PAYMENT_METHODS,
  scopeIsEmpty,
  storesInScope,
  submissionStoreId,
  formatTaipei,
  paidAtNeedsConfirm,
  paymentTexts,
  paymentWords,
  validatePayment,
  storeLabel,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { appTitle } from '../config';
import { api, ApiError } from '../http';
import { serverCode } from '../serverError';
import { UI } from '../messages';
import { loadMe } from '../providers/me';
import { signOutOnServer } from '../session';
import { AccountMenu } from './AccountMenu';
import { CashOutForm } from './CashOutForm';
import { MethodFields, type MethodValues } from './MethodFields';
import { METHOD_TRANSFER, needsLastFive } from '../../../core/browser';

interface Store {
  id: number;
  name: string;
  code: string;
}

interface FormState extends MethodValues {
  last_five: string;
  paid_at: string;
  amount: string;
  note: string;
  store_id: string;
}

type Banner = { kind: 'success' | 'error'; text: string } | null;

/** A submission that is probably a mistake, held until the person confirms it or goes back. */
type Doubt = { kind: 'time' | 'duplicate'; title: string; text: string } | null;

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

/** The error banner of spec section 8 for a failed submission. */
function submitErrorText(err: unknown): string {
  if (err instanceof ApiError && err.body?.errors?.length)
    return UI.validationError(err.body.errors.map((e) => e.message));
  if (err instanceof ApiError && err.body?.message) return err.body.message;
  return UI.submitFailed;
}

/** `initialMe`: who is signed in, when the page already asked (so the name shows at once). */
export function SubmitPage({ initialMe = null }: { initialMe?: Me | null } = {}) {
  const title = appTitle();
  const [me, setMe] = useState<Me | null>(initialMe);
  const [stores, setStores] = useState<Store[]>([]);
  const [form, setForm] = useState<FormState>(emptyForm(initialMe?.store_id ?? null));
  const [errors, setErrors] = useState<Partial<Record<keyof FormState, string>>>({});
  const [banner, setBanner] = useState<Banner>(null);
  const [submitting, setSubmitting] = useState(false);
  const [doubt, setDoubt] = useState<Doubt>(null);
  const busy = useRef(false);
  // What the person must read next (a message, a question, the first field in error) is scrolled
  // to and focused: on a phone the form's top is far above the button just pressed.
  const bannerRef = useRef<HTMLDivElement>(null);
  const doubtRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [showErrors, setShowErrors] = useState(0);
  useEffect(() => bringIntoView(bannerRef.current), [banner]);
  useEffect(() => bringIntoView(doubtRef.current), [doubt]);
  useEffect(() => {
    if (showErrors)
      bringIntoView(
        formRef.current?.querySelector<HTMLElement>(
          '[aria-invalid="true"], .methods[aria-describedby] input, .has-error input, .has-error select',
        ) ?? null,
      );
  }, [showErrors]);

  useEffect(() => {
    document.title = title;
    loadMe().then(
      (m) => {
        setMe(m);
        if (m.store_id !== null) setForm((f) => ({ ...f, store_id: String(m.store_id) }));
      },
      (e) => console.error('載入用戶資料失敗', e),
    );
    api<Store[]>('GET', '/stores').then(setStores, (e) => console.error('載入分店失敗', e));
  }, [title]);

  const locked = me !== null && isBranchUser(me);
  const lockedStore = locked ? stores.find((s) => s.id === me!.store_id) : undefined;
  // Only the stores the user may submit for; with none, they are told before typing.
  const offered = me ? storesInScope(me, stores) : [];
  const noStore = me !== null && scopeIsEmpty(me);
  const username = me?.username ?? UI.unknownUser;
  // a transfer report is everyone's; cash, card and e-payment are 記錄收款's
  const methods = me && canAccess(me, 'submit', 'takings') ? PAYMENT_METHODS : [METHOD_TRANSFER];

  const transfer = needsLastFive(form.method);
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

  async function onSubmit(e: FormEvent | null, confirmed: { time?: boolean; duplicate?: boolean } = {}) {
    e?.preventDefault();
    if (busy.current) return; // a second submit while sending is ignored
    setBanner(null);
    setDoubt(null);
    // The time is parsed once on this side (to check it and to ask about odd times) and sent as typed,
    // Taiwan wall-clock text; the server parses that text once.
    const checked = validatePayment(
      {
        method: form.method,
        method_detail: form.method_detail,
        employee: form.employee,
        last_five: transfer ? form.last_five : '',
        paid_at: form.paid_at,
        amount: form.amount === '' ? '' : Number(form.amount),
        note: form.note,
        store_id: form.store_id,
      },
      // the server's rule too: a time over a day ahead is refused here, not asked about
      { storeRequired: offered.length > 0, now: Date.now() },
    );
    if (!checked.ok) {
      setErrors(Object.fromEntries(checked.errors.map((x) => [x.field, x.message])));
      setShowErrors((n) => n + 1);
      return;
    }
    const v = checked.value;
    const odd = paidAtNeedsConfirm(v.paid_at, Date.now());
    if (odd && !confirmed.time) {
      const when = formatTaipei(v.paid_at);
      const texts = paymentTexts(v.method);
      setDoubt({
        kind: 'time',
        title: paymentWords(v.method).time,
        text: 'ahead' in odd ? texts.confirmPaidAtAhead(when) : texts.confirmPaidAtOld(when, odd.daysBack),
      });
      return;
    }
    const methodPart = {
      method: v.method,
      ...(v.method_detail ? { method_detail: v.method_detail } : {}),
      ...(v.employee ? { employee: true } : {}),
    };
    const payload = {
      ...methodPart,
      last_five: v.last_five,
      paid_at: form.paid_at,
      amount: v.amount,
      note: v.note,
      store_id: submissionStoreId(me ?? { store_id: null }, v.store_id),
    };
    busy.current = true;
    setSubmitting(true);
    try {
      const created = await api<{ uuid: string }>(
        'POST',
        '/payments',
        confirmed.duplicate ? { ...payload, confirm_duplicate: true } : payload,
      );
      setBanner({
        kind: 'success',
        text: v.method === METHOD_TRANSFER ? UI.submitSuccess(created.uuid) : UI.saleSuccess(v.method, created.uuid),
      });
      // the next entry keeps the method: a shop records several cash sales in a row
      setForm({ ...emptyForm(locked ? me!.store_id : null), method: v.method, method_detail: v.method_detail ?? '' });
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

  async function logout() {
    await signOutOnServer();
    window.location.assign('/admin/login');
  }

  return (
    <div className="page">
      <header className="bar">
        <h1>{title}</h1>
        <div className="bar-actions">
          <AccountMenu
            username={username}
            onLogout={logout}
            onPasswordChanged={() => setBanner({ kind: 'success', text: UI.passwordChanged })}
          />
          <a className="btn btn-light" href="/admin">
            {UI.toAdmin}
          </a>
          <button type="button" className="btn btn-light" onClick={logout}>
            {UI.logout}
          </button>
        </div>
      </header>

      <main className="card">
        {banner && (
          <div
            ref={bannerRef}
            tabIndex={-1}
            className={`banner banner-${banner.kind}`}
            role={banner.kind === 'error' ? 'alert' : 'status'}
            data-testid={`banner-${banner.kind}`}
          >
            {banner.text}
          </div>
        )}
        {doubt && (
          <div
            ref={doubtRef}
            tabIndex={-1}
            className="banner banner-warn"
            role="alertdialog"
            aria-labelledby="doubt-title"
            aria-describedby="doubt-text"
            data-testid={`doubt-${doubt.kind}`}
          >
            <strong id="doubt-title">{doubt.title}</strong>
            <p id="doubt-text">{doubt.text}</p>
            <div className="doubt-actions">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => onSubmit(null, doubt.kind === 'time' ? { time: true } : { time: true, duplicate: true })}
              >
                {UI.submitAnyway}
              </button>
              <button type="button" className="btn btn-light-on-card" onClick={() => setDoubt(null)}>
                {UI.checkAgain}
              </button>
            </div>
          </div>
        )}
        {noStore && (
          <div className="banner banner-warn" role="alert" data-testid="no-store">
            <strong>{UI.noStoreTitle}</strong>
            <p>{UI.noStoreForm}</p>
          </div>
        )}
        <form ref={formRef} onSubmit={(e) => onSubmit(e)} noValidate data-testid="payment-form">
          <fieldset className="fields" disabled={noStore}>
            <MethodFields
              methods={methods}
              value={form}
              onChange={setMethod}
              error={errors.method}
              detailError={errors.method_detail}
            />
            {transfer && (
              <Field label={UI.lastFive} error={errors.last_five} htmlFor="last_five">
                <input
                  id="last_five"
                  name="last_five"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={5}
                  pattern="\d{5}"
                  placeholder="12345"
                  value={form.last_five}
                  onChange={set('last_five')}
                  {...invalid('last_five', errors.last_five)}
                />
              </Field>
            )}
            <Field label={paymentWords(form.method).time} error={errors.paid_at} htmlFor="paid_at">
              <input
                id="paid_at"
                name="paid_at"
                type="datetime-local"
                value={form.paid_at}
                onChange={set('paid_at')}
                {...invalid('paid_at', errors.paid_at)}
              />
            </Field>
            <Field label={paymentWords(form.method).amount} error={errors.amount} htmlFor="amount">
              <div className="money">
                <span className="prefix">NT$</span>
                <input
                  id="amount"
                  name="amount"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  value={form.amount}
                  onChange={set('amount')}
                  {...invalid('amount', errors.amount)}
                />
              </div>
            </Field>
            {offered.length > 0 &&
              (locked ? (
                <div className="field">
                  <span className="label">{UI.chooseStore}</span>
                  <div className="locked" data-testid="locked-store">
                    <span>{storeLabel(lockedStore)}</span>
                    <span className="badge">{UI.locked}</span>
                  </div>
                  <p className="hint">{UI.branchHint}</p>
                </div>
              ) : (
                <Field label={UI.chooseStore} error={errors.store_id} htmlFor="store_id">
                  <select
                    id="store_id"
                    name="store_id"
                    value={form.store_id}
                    onChange={set('store_id')}
                    {...invalid('store_id', errors.store_id)}
                  >
                    <option value="">{UI.chooseStore}</option>
                    {offered.map((s) => (
                      <option key={s.id} value={s.id}>
                        {storeLabel(s)}
                      </option>
                    ))}
                  </select>
                </Field>
              ))}
            <Field label={UI.note} error={errors.note} htmlFor="note">
              <textarea
                id="note"
                name="note"
                rows={3}
                maxLength={1000}
                placeholder={UI.notePlaceholder}
                value={form.note}
                onChange={set('note')}
                {...invalid('note', errors.note)}
              />
            </Field>
            <button type="submit" className="btn btn-primary submit" disabled={submitting || noStore}>
              {submitting ? UI.submitting : transfer ? UI.submit : UI.submitSale(form.method)}
            </button>
          </fieldset>
        </form>
      </main>
      {me && canAccess(me, 'submit', 'cash_out') && (
        <CashOutForm stores={offered} lockedStoreId={locked ? me.store_id : null} disabled={noStore} />
      )}
    </div>
  );
}

function Field(props: { label: string; htmlFor: string; error?: string; children: React.ReactNode }) {
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <label className="label" htmlFor={props.htmlFor}>
        {props.label}
      </label>
      {props.children}
      {props.error && (
        <p className="error" id={`${props.htmlFor}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A field in error says so to assistive technology, and which text tells why (Field's). */
function invalid(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

/** Scrolls an element to the middle of the screen and moves focus there. */
function bringIntoView(el: HTMLElement | null) {
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  el.focus({ preventScroll: true });
}
