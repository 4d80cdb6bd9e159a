// Builds DOM from data without ever parsing HTML: strings become text nodes, so an integrator's
// value such as "<script>" is shown as those characters, never run.

/** h('td', { className: 'x', onclick: fn }, 'text', child) */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'className') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything inside `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A table with a header row; `rows` are arrays of cells (text or nodes). */
export function table(caption, headers, rows) {
  return h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, rows.length ? rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))
      : h('tr', {}, h('td', { colspan: headers.length, className: 'empty' }, 'Nothing to show.'))));
}

/** A labelled form field. */
export function field(label, input) {
  const id = input.id || `f-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  input.id = id;
  return h('div', { className: 'field' }, h('label', { for: id }, label), input);
}

export const when = (iso) => (iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');
