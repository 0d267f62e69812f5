// The payment method, asked first as large choices a thumb can hit. With only 匯款 allowed there is no choice
// to show, and the form is a plain transfer report (no 員工購物 mark).
import { EPAY_KINDS, hasMethodDetail, METHOD_DETAIL_MAX, type PaymentMethod } from '../../../core/browser';
import { UI } from '../messages';

export interface MethodValues {
  method: PaymentMethod;
  method_detail: string;
  employee: boolean;
}

export function MethodFields(props: {
  methods: readonly PaymentMethod[];
  value: MethodValues;
  onChange: (v: MethodValues) => void;
  error?: string;
  detailError?: string;
  lock?: React.ReactNode;
}) {
  const { value, onChange } = props;
  return (
    <>
      {props.methods.length > 1 && (
        <div className="methods-wrap">
          <fieldset className="field methods" aria-describedby={props.error ? 'method-error' : undefined}>
            <legend className="label">{UI.method}</legend>
            <div className="method-choices" role="radiogroup" aria-label={UI.method}>
              {props.methods.map((m) => (
                <label key={m} className={`method-choice${value.method === m ? ' chosen' : ''}`}>
                  <input
                    type="radio"
                    name="method"
                    value={m}
                    checked={value.method === m}
                    onChange={() =>
                      onChange({ ...value, method: m, method_detail: hasMethodDetail(m) ? value.method_detail : '' })
                    }
                  />
                  <span>{m}</span>
                </label>
              ))}
            </div>
            {props.error && (
              <p className="error" id="method-error">
                {props.error}
              </p>
            )}
          </fieldset>
          {props.lock}
        </div>
      )}
      {hasMethodDetail(value.method) && (
        <MethodDetailField
          value={value.method_detail}
          error={props.detailError}
          onChange={(method_detail) => onChange({ ...value, method_detail })}
        />
      )}
      {props.methods.length > 1 && (
        <div className="field">
          <label className="check" htmlFor="employee">
            <input
              id="employee"
              name="employee"
              type="checkbox"
              checked={value.employee}
              onChange={(e) => onChange({ ...value, employee: e.target.checked })}
            />
            <span>{UI.employee}</span>
          </label>
          <p className="hint">{UI.employeeHint}</p>
        </div>
      )}
    </>
  );
}

/** 電子支付's kind (LINE Pay, 街口 …), typed or picked. */
function MethodDetailField(props: { value: string; error?: string; onChange: (v: string) => void }) {
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <label className="label" htmlFor="method_detail">
        {UI.methodDetail}
      </label>
      <input
        id="method_detail"
        name="method_detail"
        list="epay-kinds"
        autoComplete="off"
        maxLength={METHOD_DETAIL_MAX}
        placeholder={UI.methodDetailPlaceholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <datalist id="epay-kinds">
        {EPAY_KINDS.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      {props.error && <p className="error">{props.error}</p>}
    </div>
  );
}
