// The payment form's fields below the method.
import { storeLabel } from '../../../core/browser';
import { UI } from '../messages';

interface Store {
  id: number;
  name: string;
  code: string;
}

type Change = (e: { target: { value: string } }) => void;

interface FieldProps {
  value: string;
  error?: string;
  onChange: Change;
}

/** `aside`: the field's 鎖定 toggle, beside its label. */
function Field(props: {
  label: string;
  htmlFor: string;
  error?: string;
  aside?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <div className="field-head">
        <label className="label" htmlFor={props.htmlFor}>
          {props.label}
        </label>
        {props.aside}
      </div>
      {props.children}
      {props.error && (
        <p className="error" id={`${props.htmlFor}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** Keeps the field's value from one entry to the next. */
export function LockToggle({ label, on, onToggle }: { label: string; on: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className={`lock${on ? ' on' : ''}`}
      aria-pressed={on}
      aria-label={UI.lockField(label)}
      title={UI.lockHint}
      onClick={onToggle}
    >
      {UI.lock}
    </button>
  );
}

/** Tells assistive technology the field is in error, and which text says why. */
function invalid(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

export function LastFiveField({ value, error, onChange }: FieldProps) {
  return (
    <Field label={UI.lastFive} error={error} htmlFor="last_five">
      <input
        id="last_five"
        name="last_five"
        inputMode="numeric"
        autoComplete="off"
        maxLength={5}
        pattern="\d{5}"
        placeholder="12345"
        value={value}
        onChange={onChange}
        {...invalid('last_five', error)}
      />
    </Field>
  );
}

/** `label`: 匯款時間, 時間. `onNow`, when the time was set by hand: back to following the clock. */
export function PaidAtField({
  label,
  value,
  error,
  onChange,
  onNow,
  lock,
}: FieldProps & { label: string; onNow?: () => void; lock?: React.ReactNode }) {
  return (
    <Field label={label} error={error} htmlFor="paid_at" aside={lock}>
      <div className="with-button">
        <input
          id="paid_at"
          name="paid_at"
          type="datetime-local"
          value={value}
          onChange={onChange}
          {...invalid('paid_at', error)}
        />
        {onNow && (
          <button type="button" className="btn btn-light-on-card" onClick={onNow}>
            {UI.now}
          </button>
        )}
      </div>
      {!onNow && <p className="hint">{UI.timeFollowsClock}</p>}
    </Field>
  );
}

/** `label`: 匯款金額, 金額. */
export function AmountField({
  label,
  value,
  error,
  onChange,
  lock,
}: FieldProps & { label: string; lock?: React.ReactNode }) {
  return (
    <Field label={label} error={error} htmlFor="amount" aside={lock}>
      <div className="money">
        <span className="prefix">NT$</span>
        <input
          id="amount"
          name="amount"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={value}
          onChange={onChange}
          {...invalid('amount', error)}
        />
      </div>
    </Field>
  );
}

export function StoreField({
  locked,
  lockedStore,
  offered,
  value,
  error,
  onChange,
  hint,
  lock,
}: FieldProps & {
  locked: boolean;
  lockedStore: Store | undefined;
  offered: Store[];
  hint: string;
  lock?: React.ReactNode;
}) {
  if (locked)
    return (
      <div className="field">
        <span className="label">{UI.chooseStore}</span>
        <div className="locked" data-testid="locked-store">
          <span>{storeLabel(lockedStore)}</span>
          <span className="badge">{UI.locked}</span>
        </div>
        <p className="hint">{hint}</p>
      </div>
    );
  return (
    <Field label={UI.chooseStore} error={error} htmlFor="store_id" aside={lock}>
      <select id="store_id" name="store_id" value={value} onChange={onChange} {...invalid('store_id', error)}>
        <option value="">{UI.chooseStore}</option>
        {offered.map((s) => (
          <option key={s.id} value={s.id}>
            {storeLabel(s)}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function NoteField({ value, error, onChange }: FieldProps) {
  return (
    <Field label={UI.note} error={error} htmlFor="note">
      <textarea
        id="note"
        name="note"
        rows={3}
        maxLength={1000}
        placeholder={UI.notePlaceholder}
        value={value}
        onChange={onChange}
        {...invalid('note', error)}
      />
    </Field>
  );
}
