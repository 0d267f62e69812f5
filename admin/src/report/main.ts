/**
 * The public report page: a customer with a store's link (`/r/TOKEN`) reports a
 * transfer and gets a tracking number; `/r/status/TRACKING` shows that report's status. No
 * account and no session: it calls /api/public only. Plain DOM, no framework, ES2015 (see
 * admin/vite.report.config.ts). The server checks everything; the page checks the form with the
 * server's own rules first (validatePayment), so a mistake is shown at once and never sent.
 *
 * After a report the address becomes its status page (`/r/status/TRACKING`, history.replaceState),
 * so a reload or a bookmark keeps the tracking number. 再回報一筆 goes back to the link's form: the
 * link's token rides in the history entry's state, never in the status address, since a status
 * address is shared (a screenshot, a LINE message) and must show that one report only, not hand
 * out the store's link. A status page opened afresh (a bookmark, a new tab) knows no link, so it
 * shows no 再回報一筆.
 *
 * Each report attempt carries a random key (client_key), made when it is first sent and kept
 * while what was typed is unchanged: sent again after no answer (15 s) or a lost one, the server
 * answers with the first report's tracking number (200) instead of storing it twice or asking
 * 您可能已經回報過. A changed field is another report, with a new key.
 */
import {
  CLIENT_KEY_BYTES,
  HONEYPOT_FIELD,
  MSG,
  NOTE_MAX_LENGTH,
  PUBLIC_PAGE_PREFIX,
  formatNTD,
  formatTaipei,
  isLinkToken,
  isTrackingNumber,
  paidAtNeedsConfirm,
  paymentTexts,
  validatePayment,
  type PublicStatus,
} from '../../../core/browser.js';
import { REPORT_TEXT as T } from './texts.js';

const app = document.getElementById('app') as HTMLElement;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, each field checked where it is read
type Answer = { status: number; body: any };

/** How long the page waits for the server before saying so: a phone on a weak signal may wait forever. */
const REPORT_TIMEOUT_MS = 15_000;
/** The status of an answer that did not come within REPORT_TIMEOUT_MS (0: no connection at all). */
const TIMED_OUT = -1;

/**
 * A call to /api/public. Past REPORT_TIMEOUT_MS it answers TIMED_OUT; the request is not cut off,
 * and its answer, should it still come, goes to `late` (a report stored after all is then shown).
 */
function call(method: string, path: string, body?: unknown, late?: (a: Answer) => void): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      resolve({ status: TIMED_OUT, body: null });
    }, REPORT_TIMEOUT_MS);
    fetch(`/api/public${path}`, {
      method,
      credentials: 'omit',
      headers:
        body === undefined
          ? { 'Remit-Error-Codes': '1' }
          : { 'content-type': 'application/json', 'Remit-Error-Codes': '1' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
      .then(
        (res) =>
          res.text().then((text) => {
            let parsed: unknown = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = null;
            }
            return { status: res.status, body: parsed };
          }),
        () => ({ status: 0, body: null }),
      )
      .then((a) => {
        clearTimeout(timer);
        if (waiting) {
          waiting = false;
          resolve(a);
        } else if (late) late(a);
      });
  });
}

/** A new report attempt's key: CLIENT_KEY_BYTES random bytes as hex (the server checks the shape). */
function newClientKey(): string {
  const bytes = new Uint8Array(CLIENT_KEY_BYTES);
  crypto.getRandomValues(bytes);
  let key = '';
  for (let i = 0; i < bytes.length; i++) key += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return key;
}

/** A report as stored: 201 the first time, 200 when the same attempt (its key) was stored before. */
const isStored = (r: Answer) => r.status === 201 || r.status === 200;

/** The seconds a 429 asks to wait, from its details (the page asks for codes and details). */
const waitOf = (r: Answer): number | null => {
  const s = r.body && r.body.details && Number(r.body.details.seconds);
  return s && s > 0 ? Math.ceil(s) : null;
};

/**
 * A read that did not give the page what it needs: 使用人數過多 for too many reads from one address
 * (a shop's shared Wi-Fi; the link still works), the server's own sentence under `title` otherwise.
 */
function readRefused(r: Answer, title: string): void {
  if (r.status === 429) return plain(T.busyTitle, T.busy(waitOf(r)));
  const message = r.body && typeof r.body.message === 'string' ? r.body.message : T.networkError;
  plain(title, message);
}

/** The history entry's link (see the top): set when this tab reported through it. */
function linkOfEntry(): string | null {
  const state = history.state as { link?: unknown } | null;
  return state && isLinkToken(state.link) ? state.link : null;
}

/** To the link's empty form, as a new history entry (Back returns to the report's status). */
function anotherButton(token: string): HTMLElement {
  const again = h('button', { type: 'button', class: 'secondary' }, T.anotherReport) as HTMLButtonElement;
  again.onclick = () => {
    history.pushState(null, '', `${PUBLIC_PAGE_PREFIX}${token}`);
    start();
  };
  return again;
}

/** An element with attributes and children: text children are set as text, never as HTML. */
function h(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string | null>): HTMLElement {
  const el = document.createElement(tag);
  for (const k of Object.keys(attrs)) el.setAttribute(k, attrs[k]);
  for (const c of children) if (c !== null) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

function show(...nodes: Node[]): void {
  while (app.firstChild) app.removeChild(app.firstChild);
  for (const n of nodes) app.appendChild(n);
  window.scrollTo(0, 0);
}

function plain(title: string, text: string): void {
  document.title = title;
  show(h('div', { class: 'card' }, h('h2', {}, title), h('p', {}, text)));
}

/** datetime-local's value for now, in Taiwan time */
const nowValue = () => formatTaipei(Date.now()).replace(/\//g, '-').replace(' ', 'T');

function reportPage(token: string, storeName: string): void {
  document.title = `${storeName}｜${T.title}`;
  const notice = h('div', { role: 'alert' });
  const fields: Record<string, { input: HTMLInputElement | HTMLTextAreaElement; error: HTMLElement }> = {};
  const field = (
    name: string,
    label: string,
    input: HTMLInputElement | HTMLTextAreaElement,
    hint?: string,
    after?: HTMLElement,
  ) => {
    input.id = name;
    input.setAttribute('name', name);
    const error = h('p', { class: 'field-error', id: `${name}-error` });
    error.hidden = true;
    input.setAttribute('aria-describedby', after ? `${name}-error ${after.id}` : `${name}-error`);
    fields[name] = { input, error };
    return [
      h('label', { for: name }, label, hint ? h('span', { class: 'hint' }, hint) : null),
      input,
      error,
      after || null,
    ].filter((n): n is HTMLElement => n !== null);
  };
  const input = (attrs: Record<string, string>) => h('input', attrs) as HTMLInputElement;
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
  // the question about an odd time (see the top), filled when asked
  const question = h('div', {
    class: 'question',
    role: 'alertdialog',
    tabindex: '-1',
    'aria-labelledby': 'time-question-title',
    'aria-describedby': 'time-question-text',
  });
  question.hidden = true;
  const form = h(
    'form',
    { class: 'card', novalidate: '' },
    notice,
    ...field('last_five', T.lastFive, lastFive, T.lastFiveHint),
    ...field('paid_at', T.paidAt, paidAt),
    ...field('amount', T.amount, amount, T.amountHint),
    ...field('note', T.note, note, T.optional, noteCount),
    h('div', { class: 'trap', 'aria-hidden': 'true' }, h('label', { for: 'hp' }, T.trap), trap),
    question,
    submit,
  ) as HTMLFormElement;
  trap.id = 'hp';

  const setError = (name: string, message: string | null) => {
    const f = fields[name];
    f.error.textContent = message || '';
    f.error.hidden = !message;
    if (message) f.input.setAttribute('aria-invalid', 'true');
    else f.input.removeAttribute('aria-invalid');
  };
  // the note as the server measures it (trimmed), against its limit; past it, said at once
  let noteOver = false;
  const countNote = () => {
    const n = note.value.trim().length;
    noteCount.textContent = T.noteCount(n);
    noteCount.className = n > NOTE_MAX_LENGTH ? 'counter over' : 'counter';
    if (n > NOTE_MAX_LENGTH !== noteOver) setError('note', n > NOTE_MAX_LENGTH ? MSG.noteTooLong : null);
    noteOver = n > NOTE_MAX_LENGTH;
  };
  note.oninput = countNote;
  // said when it happens (typing past the limit), not only when the field is next read
  fields.note.error.setAttribute('aria-live', 'polite');
  countNote();

  // while the question stands, its own two buttons are the way on: 送出回報 under it would ask again
  const hideQuestion = () => {
    question.hidden = true;
    submit.hidden = false;
    while (question.firstChild) question.removeChild(question.firstChild);
  };
  const clear = () => {
    hideQuestion();
    notice.className = '';
    notice.textContent = '';
    for (const k of Object.keys(fields)) setError(k, null);
    noteOver = false;
    countNote();
  };
  const showErrors = (errors: Array<{ field: string; message: string }>, otherwise: string) => {
    let first: HTMLElement | null = null;
    for (const e of errors) {
      if (!fields[e.field]) continue;
      setError(e.field, e.message);
      first = first || fields[e.field].input;
    }
    notice.className = 'notice error';
    notice.textContent = first ? T.fixFields : otherwise;
    if (first) first.focus();
  };
  const idle = () => {
    submit.disabled = false;
    submit.textContent = T.submit;
  };
  // each press is a send; an earlier one that timed out may still answer 201 (stored after all)
  let attempt = 0;
  let finished = false;
  // the report attempt's key, and the values (as the server reads them) it was made for
  let attemptKey: { key: string; values: string } | null = null;
  const keyFor = (values: string) => {
    if (!attemptKey || attemptKey.values !== values) attemptKey = { key: newClientKey(), values };
    return attemptKey.key;
  };
  const stored = (r: Answer) => {
    if (finished) return;
    finished = true;
    done(token, storeName, r.body.tracking, r.body.status_path);
  };
  /** `time`: the person said 仍要送出 to the question about the time; `duplicate`: to 您可能已經回報過 */
  const send = (confirmed: { time?: boolean; duplicate?: boolean }) => {
    clear();
    const body: Record<string, unknown> = {
      last_five: lastFive.value.trim(),
      paid_at: paidAt.value,
      amount: amount.value.replace(/[,，\s]/g, ''),
      note: note.value,
    };
    // the server's own rules, here first: a mistake is shown at once, and never sent
    const checked = validatePayment(body, { now: Date.now() });
    if (!checked.ok) return showErrors(checked.errors, T.fixFields);
    const v = checked.value;
    const odd = paidAtNeedsConfirm(v.paid_at, Date.now());
    if (odd && !confirmed.time) {
      const when = formatTaipei(v.paid_at);
      return askTime(
        'ahead' in odd
          ? paymentTexts(v.method).confirmPaidAtAhead(when)
          : paymentTexts(v.method).confirmPaidAtOld(when, odd.daysBack),
      );
    }
    body.client_key = keyFor(JSON.stringify([v.last_five, v.paid_at, v.amount, v.note]));
    body[HONEYPOT_FIELD] = trap.value;
    if (confirmed.duplicate) body.confirm_duplicate = true;
    const mine = ++attempt;
    submit.disabled = true;
    submit.textContent = T.sending;
    call('POST', `/links/${token}/reports`, body, (late) => {
      if (isStored(late)) stored(late);
    }).then((r) => {
      if (finished) return;
      if (mine !== attempt) {
        if (isStored(r)) stored(r);
        return;
      }
      idle();
      if (isStored(r)) return stored(r);
      if (r.status === TIMED_OUT) {
        notice.className = 'notice error';
        notice.textContent = T.timedOut;
        return;
      }
      const message = (r.body && typeof r.body.message === 'string' && r.body.message) || T.networkError;
      if (r.status === 409 && r.body && r.body.code === 'public_possible_duplicate') return askDuplicate(message);
      if (r.status === 404 && r.body && r.body.code === 'link_inactive') return plain(T.linkGoneTitle, message);
      showErrors((r.body && Array.isArray(r.body.errors) && r.body.errors) || [], message);
    });
  };
  const askDuplicate = (message: string) => {
    notice.className = 'notice warn';
    notice.textContent = '';
    const again = h('button', { type: 'button' }, T.sendAnyway) as HTMLButtonElement;
    const cancel = h('button', { type: 'button', class: 'secondary' }, T.cancel) as HTMLButtonElement;
    again.onclick = () => send({ time: true, duplicate: true });
    cancel.onclick = () => clear();
    notice.appendChild(h('p', { style: 'margin:0' }, message));
    notice.appendChild(again);
    notice.appendChild(cancel);
    again.focus();
  };
  const askTime = (text: string) => {
    hideQuestion();
    const anyway = h('button', { type: 'button' }, T.sendAnyway) as HTMLButtonElement;
    const change = h('button', { type: 'button', class: 'secondary' }, T.changeTime) as HTMLButtonElement;
    const back = () => {
      hideQuestion();
      paidAt.focus();
    };
    anyway.onclick = () => {
      hideQuestion();
      submit.focus();
      send({ time: true });
    };
    change.onclick = back;
    question.onkeydown = (e) => {
      if (e.key === 'Escape' || e.key === 'Esc') {
        e.preventDefault();
        back();
      }
    };
    question.appendChild(h('h2', { id: 'time-question-title' }, T.timeQuestionTitle));
    question.appendChild(h('p', { id: 'time-question-text' }, text));
    question.appendChild(anyway);
    question.appendChild(change);
    question.hidden = false;
    submit.hidden = true;
    question.focus();
  };
  // what the question asked about has changed: it no longer stands
  form.addEventListener('input', (e) => {
    if (!question.hidden && e.target !== trap) hideQuestion();
  });
  form.onsubmit = (e) => {
    e.preventDefault();
    send({});
  };
  show(
    h('header', {}, h('p', { class: 'store' }, storeName), h('h1', { class: 'what' }, T.title)),
    h('p', { class: 'muted' }, T.intro),
    form,
  );
  lastFive.focus();
}

/** A report stored: the address becomes its status page (reload and bookmarks keep it), the link kept in the entry's state only. */
function done(token: string, storeName: string, tracking: string, statusPath: string): void {
  history.replaceState({ link: token }, '', statusPath);
  document.title = T.doneTitle;
  const link = h('a', { href: statusPath }, T.statusLink);
  show(
    h('header', {}, h('p', { class: 'store' }, storeName), h('h1', { class: 'what' }, T.title)),
    h(
      'div',
      { class: 'card done' },
      h('h2', {}, T.doneTitle),
      h('p', {}, T.doneText),
      h('p', { class: 'muted' }, T.trackingLabel),
      h('p', { class: 'tracking' }, tracking),
      h('p', {}, link),
      h('p', { class: 'muted' }, T.keepLink),
    ),
    anotherButton(token),
  );
}

function statusPage(tracking: string): void {
  call('GET', `/reports/${tracking}`).then((r) => {
    if (r.status !== 200) return readRefused(r, T.statusTitle);
    const s = r.body as PublicStatus;
    const token = linkOfEntry();
    document.title = `${T.statusTitle}｜${s.store_name}`;
    show(
      h('header', {}, h('p', { class: 'store' }, s.store_name), h('h1', { class: 'what' }, T.statusTitle)),
      h(
        'div',
        { class: 'card status' },
        h(
          'dl',
          {},
          h('dt', {}, T.status),
          h('dd', {}, h('span', { class: `badge ${s.status}` }, s.status)),
          h('dt', {}, T.amount),
          h('dd', {}, formatNTD(s.amount)),
          h('dt', {}, T.paidAt),
          h('dd', {}, formatTaipei(Date.parse(s.paid_at))),
          h('dt', {}, T.trackingLabel),
          h('dd', { class: 'tracking' }, s.tracking),
        ),
        h('p', { class: 'muted' }, T.statusMeaning[s.status] || ''),
      ),
      ...(token ? [anotherButton(token)] : []),
    );
  });
}

function start(): void {
  const path = location.pathname;
  const rest = path.indexOf(PUBLIC_PAGE_PREFIX) === 0 ? path.slice(PUBLIC_PAGE_PREFIX.length) : '';
  if (rest.indexOf('status/') === 0) {
    const tracking = rest.slice('status/'.length);
    if (!isTrackingNumber(tracking)) return plain(T.statusTitle, T.trackingNotFound);
    return statusPage(tracking);
  }
  if (!isLinkToken(rest)) return plain(T.linkGoneTitle, T.linkGone);
  call('GET', `/links/${rest}`).then((r) => {
    if (r.status === 200) return reportPage(rest, r.body.store_name);
    // only a link the server says is gone is 連結已失效: too many reads or no connection is not the link's fault
    if (r.status === 404) return plain(T.linkGoneTitle, (r.body && r.body.message) || T.linkGone);
    readRefused(r, T.unavailableTitle);
  });
}

// Back and Forward between a report's status and the form of 再回報一筆
window.addEventListener('popstate', () => start());
start();
