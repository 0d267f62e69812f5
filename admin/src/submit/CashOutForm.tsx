/**
 * Cash out on the form page: 店內支出 (what was bought, a note) or 提領 (to the bank or
 * headquarters), recorded by whoever may submit a payment for the store. The rule is core's
 * (validateCashOut), so the form and the server say the same; a closed day is refused by the
 * server with its reason, shown here as it came.
 */
import { useState, type FormEvent } from 'react';
import { CASH_OUT_KINDS, EXPENSE_CATEGORIES, formatNTD, storeLabel, validateCashOut } from '../../../core/browser';
import { api } from '../http';
import { fieldMessages, serverFieldErrors, serverMessage } from '../serverError';
import { CLOSES_UI as T } from '../messages';

interface Store {
  id: number;
  name: string;
  code: string;
}

type Kind = (typeof CASH_OUT_KINDS)[number];

export function CashOutForm({
  stores,
  lockedStoreId,
  disabled,
}: {
  stores: Store[];
  lockedStoreId: number | null;
  disabled: boolean;
}) {
  const [kind, setKind] = useState<Kind>('店內支出');
  const [category, setCategory] = useState<string>(EXPENSE_CATEGORIES[0]);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [at, setAt] = useState('');
  const [storeId, setStoreId] = useState<string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const store = lockedStoreId ?? (storeId ? Number(storeId) : stores.length === 1 ? stores[0].id : null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBanner(null);
    const body = {
      store_id: store,
      kind,
      category: kind === '店內支出' ? category : undefined,
      amount,
      note,
      at: at || undefined,
    };
    const checked = validateCashOut(body, Date.now());
    const local = checked.ok ? {} : fieldMessages(checked.errors);
    if (store === null) local.store_id = T.chooseStore;
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const saved = await api<{ kind: string; amount: number }>('POST', '/cash-out', body);
      setBanner({ kind: 'success', text: T.cashOutRecorded(saved.kind, formatNTD(saved.amount)) });
      setAmount('');
      setNote('');
      setAt('');
    } catch (err) {
      const fields = serverFieldErrors(err);
      setErrors(fields);
      setBanner({ kind: 'error', text: serverMessage(err) ?? T.cashOutFailed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card cash-out" aria-labelledby="cash-out-title" data-testid="cash-out">
      <h2 id="cash-out-title">{T.cashOutTitle}</h2>
      <p className="hint">{T.cashOutHint}</p>
      {banner && (
        <div
          className={`banner banner-${banner.kind}`}
          role={banner.kind === 'error' ? 'alert' : 'status'}
          data-testid={`cash-out-${banner.kind}`}
        >
          {banner.text}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <fieldset className="fields" disabled={disabled}>
          <div className="field" role="radiogroup" aria-labelledby="cash-out-kind">
            <span className="label" id="cash-out-kind">
              {T.kind}
            </span>
            <div className="choices">
              {CASH_OUT_KINDS.map((k) => (
                <label key={k} className={`choice${kind === k ? ' chosen' : ''}`}>
                  <input type="radio" name="cash_out_kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
                  {k}
                </label>
              ))}
            </div>
          </div>
          {kind === '店內支出' && (
            <div className={`field${errors.category ? ' has-error' : ''}`}>
              <label className="label" htmlFor="cash_out_category">
                {T.category}
              </label>
              <input
                id="cash_out_category"
                list="cash_out_categories"
                maxLength={30}
                value={category}
                onChange={(e) => setCategory(e.target.value)}
              />
              <datalist id="cash_out_categories">
                {EXPENSE_CATEGORIES.map((c) => (
                  <option key={c} value={c} />
                ))}
              </datalist>
              {errors.category && <p className="error">{errors.category}</p>}
            </div>
          )}
          <div className={`field${errors.amount ? ' has-error' : ''}`}>
            <label className="label" htmlFor="cash_out_amount">
              {T.amount}
            </label>
            <div className="money">
              <span className="prefix">NT$</span>
              <input
                id="cash_out_amount"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            </div>
            {errors.amount && <p className="error">{errors.amount}</p>}
          </div>
          {lockedStoreId === null && stores.length > 1 && (
            <div className={`field${errors.store_id ? ' has-error' : ''}`}>
              <label className="label" htmlFor="cash_out_store">
                {T.store}
              </label>
              <select id="cash_out_store" value={storeId} onChange={(e) => setStoreId(e.target.value)}>
                <option value="">{T.chooseStore}</option>
                {stores.map((s) => (
                  <option key={s.id} value={s.id}>
                    {storeLabel(s)}
                  </option>
                ))}
              </select>
              {errors.store_id && <p className="error">{errors.store_id}</p>}
            </div>
          )}
          <div className={`field${errors.at ? ' has-error' : ''}`}>
            <label className="label" htmlFor="cash_out_at">
              {T.at}
            </label>
            <input
              id="cash_out_at"
              type="datetime-local"
              value={at}
              onChange={(e) => setAt(e.target.value)}
              aria-describedby="cash_out_at_hint"
            />
            <p className="hint" id="cash_out_at_hint">
              {T.atHint}
            </p>
            {errors.at && <p className="error">{errors.at}</p>}
          </div>
          <div className={`field${errors.note ? ' has-error' : ''}`}>
            <label className="label" htmlFor="cash_out_note">
              {T.note}
            </label>
            <textarea
              id="cash_out_note"
              rows={2}
              maxLength={1000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
            {errors.note && <p className="error">{errors.note}</p>}
          </div>
          <button
            type="submit"
            className="btn btn-primary submit"
            disabled={busy || disabled}
            data-testid="cash-out-submit"
          >
            {busy ? T.recording : T.recordCashOut}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
