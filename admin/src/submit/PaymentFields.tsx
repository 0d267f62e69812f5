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

/** `label`: 匯款時間, 收款時間. */
export function PaidAtField({ label, value, error, onChange }: FieldProps & { label: string }) {
  return (
    <Field label={label} error={error} htmlFor="paid_at">
      <input
        id="paid_at"
        name="paid_at"
        type="datetime-local"
        value={value}
        onChange={onChange}
        {...invalid('paid_at', error)}
      />
    </Field>
  );
}

/** `label`: 匯款金額, 收款金額. */
export function AmountField({ label, value, error, onChange }: FieldProps & { label: string }) {
  return (
    <Field label={label} error={error} htmlFor="amount">
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
}: FieldProps & { locked: boolean; lockedStore: Store | undefined; offered: Store[] }) {
  if (locked)
    return (
      <div className="field">
        <span className="label">{UI.chooseStore}</span>
        <div className="locked" data-testid="locked-store">
          <span>{storeLabel(lockedStore)}</span>
          <span className="badge">{UI.locked}</span>
        </div>
        <p className="hint">{UI.branchHint}</p>
      </div>
    );
  return (
    <Field label={UI.chooseStore} error={error} htmlFor="store_id">
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
