// The public report page, plain DOM and no session: a customer with a store's link (`/r/TOKEN`) reports a
// transfer; `/r/status/TRACKING` shows its status. The link's token rides in the history state, never in the
// status address, which people share (a screenshot, a LINE message) and which must not hand out the link.
import {
  CLIENT_KEY_BYTES,
  HONEYPOT_FIELD,
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
import { button, h, plain, show } from './dom.js';
import {
  askDuplicate,
  askTime,
  buildForm,
  countNote,
  hideQuestion,
  setError,
  showErrors,
  type ReportForm,
} from './form.js';
import { REPORT_TEXT as T } from './texts.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, each field checked where it is read
type Answer = { status: number; body: any };

/** A phone on a weak signal may otherwise wait forever. */
const REPORT_TIMEOUT_MS = 15_000;
/** No answer in time; 0 is no connection at all. */
const TIMED_OUT = -1;

/** Past the time-out it answers TIMED_OUT but is not cut off: a late answer goes to `late`. */
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

function newClientKey(): string {
  const bytes = new Uint8Array(CLIENT_KEY_BYTES);
  crypto.getRandomValues(bytes);
  let key = '';
  for (let i = 0; i < bytes.length; i++) key += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return key;
}

/** 200 when the same attempt (its key) was stored before. */
const isStored = (r: Answer) => r.status === 201 || r.status === 200;

const waitOf = (r: Answer): number | null => {
  const s = r.body && r.body.details && Number(r.body.details.seconds);
  return s && s > 0 ? Math.ceil(s) : null;
};

/** A 429 is too many reads from one address (a shop's shared Wi-Fi), not the link's fault. */
function readRefused(r: Answer, title: string): void {
  if (r.status === 429) return plain(T.busyTitle, T.busy(waitOf(r)));
  const message = r.body && typeof r.body.message === 'string' ? r.body.message : T.networkError;
  plain(title, message);
}

/** Set only when this tab reported through the link. */
function linkOfEntry(): string | null {
  const state = history.state as { link?: unknown } | null;
  return state && isLinkToken(state.link) ? state.link : null;
}

/** A new history entry, so Back returns to the report's status. */
function anotherButton(token: string): HTMLElement {
  const again = button(T.anotherReport, true);
  again.onclick = () => {
    history.pushState(null, '', `${PUBLIC_PAGE_PREFIX}${token}`);
    start();
  };
  return again;
}

/** What the person said 仍要送出 to. */
type Confirmed = { time?: boolean; duplicate?: boolean };

type Checked = Extract<ReturnType<typeof validatePayment>, { ok: true }>['value'];

function reportPage(token: string, storeName: string): void {
  document.title = `${storeName}｜${T.title}`;
  const f = buildForm();
  const recountNote = countNote(f);
  const clear = () => {
    hideQuestion(f);
    f.notice.className = '';
    f.notice.textContent = '';
    for (const k of Object.keys(f.fields)) setError(f, k, null);
    recountNote();
  };
  const send = reportSender(token, storeName, f, clear);
  // what the question asked about changed: it no longer stands
  f.form.addEventListener('input', (e) => {
    if (!f.question.hidden && e.target !== f.trap) hideQuestion(f);
  });
  f.form.onsubmit = (e) => {
    e.preventDefault();
    send({});
  };
  show(
    h('header', {}, h('p', { class: 'store' }, storeName), h('h1', { class: 'what' }, T.title)),
    h('p', { class: 'muted' }, T.intro),
    f.form,
  );
  f.lastFive.focus();
}

function formBody(f: ReportForm): Record<string, unknown> {
  return {
    last_five: f.lastFive.value.trim(),
    paid_at: f.paidAt.value,
    amount: f.amount.value.replace(/[,，\s]/g, ''),
    note: f.note.value,
  };
}

function timeQuestion(v: Checked): string | null {
  const odd = paidAtNeedsConfirm(v.paid_at, Date.now());
  if (!odd) return null;
  const when = formatTaipei(v.paid_at);
  return 'ahead' in odd
    ? paymentTexts(v.method).confirmPaidAtAhead(when)
    : paymentTexts(v.method).confirmPaidAtOld(when, odd.daysBack);
}

/** Kept while the values are unchanged: a resend after a lost answer gets the first report's tracking number. */
function attemptKeys(): (values: string) => string {
  let current: { key: string; values: string } | null = null;
  return (values) => {
    if (!current || current.values !== values) current = { key: newClientKey(), values };
    return current.key;
  };
}

/** An earlier send that timed out may still be stored; the first report stored is the one shown. */
function reportSender(token: string, storeName: string, f: ReportForm, clear: () => void) {
  let attempt = 0;
  let finished = false;
  const keyFor = attemptKeys();
  const stored = (r: Answer) => {
    if (finished) return;
    finished = true;
    done(token, storeName, r.body.tracking, r.body.status_path);
  };
  const answered = (r: Answer, mine: number) => {
    if (finished) return;
    if (mine !== attempt) {
      if (isStored(r)) stored(r);
      return;
    }
    f.submit.disabled = false;
    f.submit.textContent = T.submit;
    if (isStored(r)) return stored(r);
    refused(r, f, { anyway: () => send({ time: true, duplicate: true }), cancel: clear });
  };
  const send = (confirmed: Confirmed): void => {
    clear();
    const body = formBody(f);
    // the server's own rules first: a mistake is shown at once and never sent
    const checked = validatePayment(body, { now: Date.now() });
    if (!checked.ok) return showErrors(f, checked.errors, T.fixFields);
    const v = checked.value;
    const question = confirmed.time ? null : timeQuestion(v);
    if (question) return askTime(f, question, () => send({ time: true }));
    body.client_key = keyFor(JSON.stringify([v.last_five, v.paid_at, v.amount, v.note]));
    body[HONEYPOT_FIELD] = f.trap.value;
    if (confirmed.duplicate) body.confirm_duplicate = true;
    const mine = ++attempt;
    f.submit.disabled = true;
    f.submit.textContent = T.sending;
    call('POST', `/links/${token}/reports`, body, (late) => {
      if (isStored(late)) stored(late);
    }).then((r) => answered(r, mine));
  };
  return send;
}

function refused(r: Answer, f: ReportForm, duplicate: { anyway: () => void; cancel: () => void }): void {
  if (r.status === TIMED_OUT) {
    f.notice.className = 'notice error';
    f.notice.textContent = T.timedOut;
    return;
  }
  const message = (r.body && typeof r.body.message === 'string' && r.body.message) || T.networkError;
  if (r.status === 409 && r.body && r.body.code === 'public_possible_duplicate')
    return askDuplicate(f, message, duplicate.anyway, duplicate.cancel);
  if (r.status === 404 && r.body && r.body.code === 'link_inactive') return plain(T.linkGoneTitle, message);
  showErrors(f, (r.body && Array.isArray(r.body.errors) && r.body.errors) || [], message);
}

/** The address becomes its status page, so a reload or bookmark keeps it; the link stays in the state only. */
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
    // only a 404 is 連結已失效: too many reads or no connection is not the link's fault
    if (r.status === 404) return plain(T.linkGoneTitle, (r.body && r.body.message) || T.linkGone);
    readRefused(r, T.unavailableTitle);
  });
}

window.addEventListener('popstate', () => start());
start();
