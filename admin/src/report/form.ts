// The report form's elements, errors, note counter and questions; sending is main.ts's.
import { HONEYPOT_FIELD, MSG, NOTE_MAX_LENGTH, taipeiInputValue } from '../../../core/browser.js';
import { button, h } from './dom.js';
import { REPORT_TEXT as T } from './texts.js';

type Input = HTMLInputElement | HTMLTextAreaElement;

export interface ReportForm {
  form: HTMLFormElement;
  notice: HTMLElement;
  fields: Record<string, { input: Input; error: HTMLElement }>;
  lastFive: HTMLInputElement;
  paidAt: HTMLInputElement;
  amount: HTMLInputElement;
  note: HTMLTextAreaElement;
  noteCount: HTMLElement;
  trap: HTMLInputElement;
  submit: HTMLButtonElement;
  question: HTMLElement;
}

const nowValue = () => taipeiInputValue(Date.now());

const input = (attrs: Record<string, string>) => h('input', attrs) as HTMLInputElement;

function fieldRow(
  fields: ReportForm['fields'],
  name: string,
  label: string,
  control: Input,
  hint?: string,
  after?: HTMLElement,
): HTMLElement[] {
  control.id = name;
  control.setAttribute('name', name);
  const error = h('p', { class: 'field-error', id: `${name}-error` });
  error.hidden = true;
  control.setAttribute('aria-describedby', after ? `${name}-error ${after.id}` : `${name}-error`);
  fields[name] = { input: control, error };
  return [
    h('label', { for: name }, label, hint ? h('span', { class: 'hint' }, hint) : null),
    control,
    error,
    after || null,
  ].filter((n): n is HTMLElement => n !== null);
}

/** Nothing listens yet. */
export function buildForm(): ReportForm {
  const lastFive = input({
    type: 'text',
    inputmode: 'numeric',
    pattern: '[0-9]*',
    maxlength: '5',
    autocomplete: 'off',
    required: '',
  });
  const paidAt = input({ type: 'datetime-local', required: '' });
  paidAt.value = nowValue();
  const amount = input({ type: 'text', inputmode: 'numeric', autocomplete: 'off', required: '' });
  // no maxlength: a paste longer than the limit is kept whole, and the counter says by how much
  const note = h('textarea', {}) as HTMLTextAreaElement;
  const noteCount = h('p', { class: 'counter', id: 'note-count' });
  const trap = input({ type: 'text', name: HONEYPOT_FIELD, tabindex: '-1', autocomplete: 'off' });
  const submit = h('button', { type: 'submit' }, T.submit) as HTMLButtonElement;
  const question = h('div', {
    class: 'question',
    role: 'alertdialog',
    tabindex: '-1',
    'aria-labelledby': 'time-question-title',
    'aria-describedby': 'time-question-text',
  });
  question.hidden = true;
  const notice = h('div', { role: 'alert' });
  const fields: ReportForm['fields'] = {};
  const form = h(
    'form',
    { class: 'card', novalidate: '' },
    notice,
    ...fieldRow(fields, 'last_five', T.lastFive, lastFive, T.lastFiveHint),
    ...fieldRow(fields, 'paid_at', T.paidAt, paidAt),
    ...fieldRow(fields, 'amount', T.amount, amount, T.amountHint),
    ...fieldRow(fields, 'note', T.note, note, T.optional, noteCount),
    h('div', { class: 'trap', 'aria-hidden': 'true' }, h('label', { for: 'hp' }, T.trap), trap),
    question,
    submit,
  ) as HTMLFormElement;
  trap.id = 'hp';
  return { form, notice, fields, lastFive, paidAt, amount, note, noteCount, trap, submit, question };
}

export function setError(f: ReportForm, name: string, message: string | null): void {
  const field = f.fields[name];
  field.error.textContent = message || '';
  field.error.hidden = !message;
  if (message) field.input.setAttribute('aria-invalid', 'true');
  else field.input.removeAttribute('aria-invalid');
}

/** Trimmed, as the server counts; past the limit said at once (aria-live). Returns a restart of the count. */
export function countNote(f: ReportForm): () => void {
  let over = false;
  const count = () => {
    const n = f.note.value.trim().length;
    f.noteCount.textContent = T.noteCount(n);
    f.noteCount.className = n > NOTE_MAX_LENGTH ? 'counter over' : 'counter';
    if (n > NOTE_MAX_LENGTH !== over) setError(f, 'note', n > NOTE_MAX_LENGTH ? MSG.noteTooLong : null);
    over = n > NOTE_MAX_LENGTH;
  };
  f.note.oninput = count;
  f.fields.note.error.setAttribute('aria-live', 'polite');
  count();
  return () => {
    over = false;
    count();
  };
}

/** While a question stands 送出回報 is hidden: it would only ask again. */
export function hideQuestion(f: ReportForm): void {
  f.question.hidden = true;
  f.submit.hidden = false;
  while (f.question.firstChild) f.question.removeChild(f.question.firstChild);
}

/** `otherwise` when no error is a field's. */
export function showErrors(f: ReportForm, errors: Array<{ field: string; message: string }>, otherwise: string): void {
  let first: HTMLElement | null = null;
  for (const e of errors) {
    if (!f.fields[e.field]) continue;
    setError(f, e.field, e.message);
    first = first || f.fields[e.field].input;
  }
  f.notice.className = 'notice error';
  f.notice.textContent = first ? T.fixFields : otherwise;
  if (first) first.focus();
}

export function askDuplicate(f: ReportForm, message: string, onAnyway: () => void, onCancel: () => void): void {
  f.notice.className = 'notice warn';
  f.notice.textContent = '';
  const again = button(T.sendAnyway);
  const cancel = button(T.cancel, true);
  again.onclick = onAnyway;
  cancel.onclick = onCancel;
  f.notice.appendChild(h('p', { style: 'margin:0' }, message));
  f.notice.appendChild(again);
  f.notice.appendChild(cancel);
  again.focus();
}

/** Escape, like 修改時間, goes back to the time. */
export function askTime(f: ReportForm, text: string, onAnyway: () => void): void {
  hideQuestion(f);
  const anyway = button(T.sendAnyway);
  const change = button(T.changeTime, true);
  const back = () => {
    hideQuestion(f);
    f.paidAt.focus();
  };
  anyway.onclick = () => {
    hideQuestion(f);
    f.submit.focus();
    onAnyway();
  };
  change.onclick = back;
  f.question.onkeydown = (e) => {
    if (e.key === 'Escape' || e.key === 'Esc') {
      e.preventDefault();
      back();
    }
  };
  f.question.appendChild(h('h2', { id: 'time-question-title' }, T.timeQuestionTitle));
  f.question.appendChild(h('p', { id: 'time-question-text' }, text));
  f.question.appendChild(anyway);
  f.question.appendChild(change);
  f.question.hidden = false;
  f.submit.hidden = true;
  f.question.focus();
}
