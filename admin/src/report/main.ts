/**
 * The public report page (issue 25): a customer with a store's link (`/r/TOKEN`) reports a
 * transfer and gets a tracking number; `/r/status/TRACKING` shows that report's status. No
 * account and no session: it calls /api/public only. Plain DOM, no framework, ES2015 (see
 * admin/vite.report.config.ts). The server checks everything; this page shows what it says.
 */
import { HONEYPOT_FIELD, PUBLIC_PAGE_PREFIX, formatNTD, formatTaipei, isLinkToken, isTrackingNumber, type PublicStatus } from '../../../core/browser.js';
import { REPORT_TEXT as T } from './texts.js';

const app = document.getElementById('app') as HTMLElement;

type Answer = { status: number; body: any };

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  return fetch(`/api/public${path}`, {
    method,
    credentials: 'omit',
    headers: body === undefined ? { 'Remit-Error-Codes': '1' } : { 'content-type': 'application/json', 'Remit-Error-Codes': '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(
    (res) => res.text().then((text) => {
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch (e) {
        parsed = null;
      }
      return { status: res.status, body: parsed };
    }),
    () => ({ status: 0, body: null }),
  );
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
  const field = (name: string, label: string, input: HTMLInputElement | HTMLTextAreaElement, hint?: string) => {
    input.id = name;
    input.setAttribute('name', name);
    const error = h('p', { class: 'field-error', id: `${name}-error` });
    error.hidden = true;
    input.setAttribute('aria-describedby', `${name}-error`);
    fields[name] = { input, error };
    return [h('label', { for: name }, label, hint ? h('span', { class: 'hint' }, hint) : null), input, error];
  };
  const input = (attrs: Record<string, string>) => h('input', attrs) as HTMLInputElement;
  const lastFive = input({ type: 'text', inputmode: 'numeric', pattern: '[0-9]*', maxlength: '5', autocomplete: 'off', required: '' });
  const paidAt = input({ type: 'datetime-local', required: '' });
  paidAt.value = nowValue();
  const amount = input({ type: 'text', inputmode: 'numeric', autocomplete: 'off', required: '' });
  const note = h('textarea', { maxlength: '1000' }) as HTMLTextAreaElement;
  const trap = input({ type: 'text', name: HONEYPOT_FIELD, tabindex: '-1', autocomplete: 'off' });
  const submit = h('button', { type: 'submit' }, T.submit) as HTMLButtonElement;
  const form = h(
    'form',
    { class: 'card', novalidate: '' },
    notice,
    ...field('last_five', T.lastFive, lastFive, T.lastFiveHint),
    ...field('paid_at', T.paidAt, paidAt),
    ...field('amount', T.amount, amount, T.amountHint),
    ...field('note', T.note, note, T.optional),
    h('div', { class: 'trap', 'aria-hidden': 'true' }, h('label', { for: 'hp' }, T.trap), trap),
    submit,
  ) as HTMLFormElement;
  trap.id = 'hp';

  const clear = () => {
    notice.className = '';
    notice.textContent = '';
    for (const k of Object.keys(fields)) {
      fields[k].error.hidden = true;
      fields[k].input.removeAttribute('aria-invalid');
    }
  };
  const send = (confirmDuplicate: boolean) => {
    clear();
    submit.disabled = true;
    submit.textContent = T.sending;
    const body: Record<string, unknown> = {
      last_five: lastFive.value.trim(),
      paid_at: paidAt.value,
      amount: amount.value.replace(/[,，\s]/g, ''),
      note: note.value,
    };
    body[HONEYPOT_FIELD] = trap.value;
    if (confirmDuplicate) body.confirm_duplicate = true;
    call('POST', `/links/${token}/reports`, body).then((r) => {
      submit.disabled = false;
      submit.textContent = T.submit;
      if (r.status === 201) return done(storeName, r.body.tracking, r.body.status_path);
      const message = (r.body && typeof r.body.message === 'string' && r.body.message) || T.networkError;
      if (r.status === 409 && r.body && r.body.code === 'public_possible_duplicate') return askDuplicate(message);
      if (r.status === 404 && r.body && r.body.code === 'link_inactive') return plain(T.linkGoneTitle, message);
      const errors: Array<{ field: string; message: string }> = (r.body && Array.isArray(r.body.errors) && r.body.errors) || [];
      let first: HTMLElement | null = null;
      for (const e of errors) {
        const f = fields[e.field];
        if (!f) continue;
        f.error.textContent = e.message;
        f.error.hidden = false;
        f.input.setAttribute('aria-invalid', 'true');
        first = first || f.input;
      }
      notice.className = 'notice error';
      notice.textContent = errors.length ? T.fixFields : message;
      if (first) first.focus();
    });
  };
  const askDuplicate = (message: string) => {
    notice.className = 'notice warn';
    notice.textContent = '';
    const again = h('button', { type: 'button' }, T.sendAnyway) as HTMLButtonElement;
    const cancel = h('button', { type: 'button', class: 'secondary' }, T.cancel) as HTMLButtonElement;
    again.onclick = () => send(true);
    cancel.onclick = () => clear();
    notice.appendChild(h('p', { style: 'margin:0' }, message));
    notice.appendChild(again);
    notice.appendChild(cancel);
    again.focus();
  };
  form.onsubmit = (e) => {
    e.preventDefault();
    send(false);
  };
  show(h('header', {}, h('p', { class: 'store' }, storeName), h('h1', { class: 'what' }, T.title)), h('p', { class: 'muted' }, T.intro), form);
  lastFive.focus();
}

function done(storeName: string, tracking: string, statusPath: string): void {
  document.title = T.doneTitle;
  const link = h('a', { href: statusPath }, T.statusLink);
  show(
    h('header', {}, h('p', { class: 'store' }, storeName), h('h1', { class: 'what' }, T.title)),
    h('div', { class: 'card done' }, h('h2', {}, T.doneTitle), h('p', {}, T.doneText), h('p', { class: 'muted' }, T.trackingLabel), h('p', { class: 'tracking' }, tracking), h('p', {}, link), h('p', { class: 'muted' }, T.keepLink)),
  );
}

function statusPage(tracking: string): void {
  call('GET', `/reports/${tracking}`).then((r) => {
    if (r.status !== 200) return plain(T.statusTitle, (r.body && r.body.message) || T.networkError);
    const s = r.body as PublicStatus;
    document.title = `${T.statusTitle}｜${s.store_name}`;
    show(
      h('header', {}, h('p', { class: 'store' }, s.store_name), h('h1', { class: 'what' }, T.statusTitle)),
      h(
        'div',
        { class: 'card status' },
        h('dl', {}, h('dt', {}, T.status), h('dd', {}, h('span', { class: `badge ${s.status}` }, s.status)), h('dt', {}, T.amount), h('dd', {}, formatNTD(s.amount)), h('dt', {}, T.paidAt), h('dd', {}, formatTaipei(Date.parse(s.paid_at))), h('dt', {}, T.trackingLabel), h('dd', { class: 'tracking' }, s.tracking)),
        h('p', { class: 'muted' }, T.statusMeaning[s.status] || ''),
      ),
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
    plain(T.linkGoneTitle, (r.body && r.body.message) || T.networkError);
  });
}

start();
