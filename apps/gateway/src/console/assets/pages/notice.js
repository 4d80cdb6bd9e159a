import { fill, h } from '../dom.js';

/** A live region at the top of a page for outcomes and errors. */
export function notice(parent) {
  const el = h('div', { className: 'notice', role: 'status' });
  parent.append(el);
  return {
    ok: (...children) => fill(el, h('div', { className: 'ok' }, ...children)),
    error: (error) => fill(el, h('div', { className: 'error' }, error.message ?? String(error))),
    clear: () => fill(el),
  };
}

/** Runs an action of a button, reporting its error in `note`. */
export function action(label, note, run, props = {}) {
  return h('button', { type: 'button', ...props, onclick: () => run().catch((error) => note.error(error)) }, label);
}
