// The public page's few DOM helpers: no framework, so elements are made and swapped by hand.

const app = document.getElementById('app') as HTMLElement;

/** Text children are set as text, never as HTML. */
export function h(
  tag: string,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string | null>
): HTMLElement {
  const el = document.createElement(tag);
  for (const k of Object.keys(attrs)) el.setAttribute(k, attrs[k]);
  for (const c of children) if (c !== null) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

export function show(...nodes: Node[]): void {
  while (app.firstChild) app.removeChild(app.firstChild);
  for (const n of nodes) app.appendChild(n);
  window.scrollTo(0, 0);
}

export function plain(title: string, text: string): void {
  document.title = title;
  show(h('div', { class: 'card' }, h('h2', {}, title), h('p', {}, text)));
}

export function button(text: string, secondary = false): HTMLButtonElement {
  return h(
    'button',
    secondary ? { type: 'button', class: 'secondary' } : { type: 'button' },
    text,
  ) as HTMLButtonElement;
}
