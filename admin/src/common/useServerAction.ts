import { useState } from 'react';
import type { Validated } from '../../../core/browser';
import { fieldMessages, serverFieldErrors, serverMessage } from '../serverError';

type DescribeFailure = (err: unknown) => { fields: Record<string, string>; message: string | null };

// A form or dialog that sends one request: a second submit while busy is ignored. After a success it stays
// busy: the caller closes the dialog or leaves the page.
export function useServerAction(fallback: string, describe?: DescribeFailure) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  /** Refused by core's check: its field errors, and nothing sent. */
  async function submit<T>(checked: Validated<T>, send: (value: T) => Promise<void>): Promise<void> {
    if (busy) return;
    setFailure(null);
    if (!checked.ok) {
      setErrors(fieldMessages(checked.errors));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await send(checked.value);
    } catch (err) {
      const d = describe ? describe(err) : { fields: serverFieldErrors(err), message: serverMessage(err) ?? fallback };
      setErrors(d.fields);
      setFailure(d.message);
      setBusy(false);
    }
  }

  const clearError = (field: string) =>
    setErrors((e) => {
      if (!e[field]) return e;
      const { [field]: _gone, ...rest } = e;
      return rest;
    });

  const reset = () => {
    setBusy(false);
    setFailure(null);
    setErrors({});
  };

  return { busy, failure, errors, submit, clearError, reset };
}

export type ServerAction = ReturnType<typeof useServerAction>;
