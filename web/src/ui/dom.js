// Tiny DOM builder. Text always goes in through textContent / text nodes, never innerHTML,
// so nothing a visitor types (or a URL hash carries) can become markup.

/**
 * h('button', { type: 'button', class: 'x', on: { click } , dataset: {k: 'v'} }, 'text', child)
 * Attributes are set with setAttribute (except `class`, `on`, `dataset`, `props`).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'props') Object.assign(el, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Appends strings (as text), nodes, and nested arrays of either; skips null/false. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let counter = 0;
/** A unique id for label/for and aria-describedby wiring. */
export function uid(prefix = 'id') {
  counter += 1;
  return `${prefix}-${counter}`;
}
