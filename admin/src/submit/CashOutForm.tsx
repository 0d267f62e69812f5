// Cash out on the form page (店內支出 or 提領), checked with core's rule so the form and the server agree.
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
type Saved = { id: number; kind: string; amount: number };

interface FieldProps {
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

function useCashOut(stores: Store[], lockedStoreId: number | null) {
  const [kind, setKind] = useState<Kind>('店內支出');
  const [category, setCategory] = useState<string>(EXPENSE_CATEGORIES[0]);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [at, setAt] = useState('');
  const [storeId, setStoreId] = useState<string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string; undo?: Saved } | null>(null);
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
      const saved = await api<Saved>('POST', '/cash-out', body);
      setBanner({ kind: 'success', text: T.cashOutRecorded(saved.kind, formatNTD(saved.amount)), undo: saved });
      setAmount('');
      setNote('');
      setAt('');
    } catch (err) {
      setErrors(serverFieldErrors(err));
      setBanner({ kind: 'error', text: serverMessage(err) ?? T.cashOutFailed });
    } finally {
      setBusy(false);
    }
  }

  /** 復原: the entry just recorded goes, as a wrong one would be deleted on 日結. */
  async function undo(saved: Saved) {
    setBusy(true);
    try {
      await api('DELETE', `/cash-out/${saved.id}`);
      setBanner({ kind: 'success', text: T.cashOutUndone(saved.kind, formatNTD(saved.amount)) });
    } catch (err) {
      setBanner({ kind: 'error', text: serverMessage(err) ?? T.cashOutFailed });
    } finally {
      setBusy(false);
    }
  }

  const values = { kind, category, amount, note, at, storeId };
  const setters = { setKind, setCategory, setAmount, setNote, setAt, setStoreId };
  return { values, ...setters, errors, banner, busy, submit, undo };
}

export function CashOutForm({
  stores,
  lockedStoreId,
  disabled,
}: {
  stores: Store[];
  lockedStoreId: number | null;
  disabled: boolean;
}) {
  const c = useCashOut(stores, lockedStoreId);
  const { values, errors } = c;
  return (
    <section className="card cash-out" aria-labelledby="cash-out-title" data-testid="cash-out">
      <h2 id="cash-out-title">{T.cashOutTitle}</h2>
      <p className="hint">{T.cashOutHint}</p>
      {c.banner && (
        <div
          className={`banner banner-${c.banner.kind}`}
          role={c.banner.kind === 'error' ? 'alert' : 'status'}
          data-testid={`cash-out-${c.banner.kind}`}
        >
          {c.banner.text}
          {c.banner.undo && (
            <button
              type="button"
              className="btn btn-light-on-card undo"
              disabled={c.busy}
              onClick={() => void c.undo(c.banner!.undo!)}
            >
              {T.cashOutUndo}
            </button>
          )}
        </div>
      )}
      <form onSubmit={c.submit} noValidate>
        <fieldset className="fields" disabled={disabled}>
          <KindChoice kind={values.kind} onChange={c.setKind} />
          {values.kind === '店內支出' && (
            <CategoryField value={values.category} error={errors.category} onChange={c.setCategory} />
          )}
          <AmountField value={values.amount} error={errors.amount} onChange={c.setAmount} />
          {lockedStoreId === null && stores.length > 1 && (
            <StoreField stores={stores} value={values.storeId} error={errors.store_id} onChange={c.setStoreId} />
          )}
          <AtField value={values.at} error={errors.at} onChange={c.setAt} />
          <NoteField value={values.note} error={errors.note} onChange={c.setNote} />
          <button
            type="submit"
            className="btn btn-primary submit"
            disabled={c.busy || disabled}
            data-testid="cash-out-submit"
          >
            {c.busy ? T.recording : T.recordCashOut}
          </button>
        </fieldset>
      </form>
    </section>
  );
}

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error && <p className="error">{error}</p>}
    </div>
  );
}

function KindChoice({ kind, onChange }: { kind: Kind; onChange: (k: Kind) => void }) {
  return (
    <div className="field" role="radiogroup" aria-labelledby="cash-out-kind">
      <span className="label" id="cash-out-kind">
        {T.kind}
      </span>
      <div className="choices">
        {CASH_OUT_KINDS.map((k) => (
          <label key={k} className={`choice${kind === k ? ' chosen' : ''}`}>
            <input type="radio" name="cash_out_kind" value={k} checked={kind === k} onChange={() => onChange(k)} />
            {k}
          </label>
        ))}
      </div>
    </div>
  );
}

function CategoryField({ value, error, onChange }: FieldProps) {
  return (
    <Field id="cash_out_category" label={T.category} error={error}>
      <input
        id="cash_out_category"
        list="cash_out_categories"
        maxLength={30}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id="cash_out_categories">
        {EXPENSE_CATEGORIES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
    </Field>
  );
}

function AmountField({ value, error, onChange }: FieldProps) {
  return (
    <Field id="cash_out_amount" label={T.amount} error={error}>
      <div className="money">
        <span className="prefix">NT$</span>
        <input
          id="cash_out_amount"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </Field>
  );
}

function StoreField({ stores, value, error, onChange }: FieldProps & { stores: Store[] }) {
  return (
    <Field id="cash_out_store" label={T.store} error={error}>
      <select id="cash_out_store" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{T.chooseStore}</option>
        {stores.map((s) => (
          <option key={s.id} value={s.id}>
            {storeLabel(s)}
          </option>
        ))}
      </select>
    </Field>
  );
}

function AtField({ value, error, onChange }: FieldProps) {
  return (
    <Field id="cash_out_at" label={T.at} error={error}>
      <input
        id="cash_out_at"
        type="datetime-local"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby="cash_out_at_hint"
      />
      <p className="hint" id="cash_out_at_hint">
        {T.atHint}
      </p>
    </Field>
  );
}

function NoteField({ value, error, onChange }: FieldProps) {
  return (
    <Field id="cash_out_note" label={T.note} error={error}>
      <textarea id="cash_out_note" rows={2} maxLength={1000} value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
