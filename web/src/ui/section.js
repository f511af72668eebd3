// The frame every section shares: number, title, lead prose, then its own content.
import { h } from './dom.js';
import { paragraphs, tex } from './math.js';

/** <section id=… data-section=n> with <h2> and the lead paragraphs t(`s{n}.lead`). */
export function shell(ctx, def, ...children) {
  const n = def.num;
  const titleId = `s${n}-title`;
  return h('section', { id: def.id, class: 'sec', 'aria-labelledby': titleId, 'data-section': n },
    h('h2', { id: titleId }, h('span', { class: 'sec-num', 'aria-hidden': 'true' }, String(n).padStart(2, '0')),
      ctx.t(`s${n}.title`)),
    paragraphs(ctx.t(`s${n}.lead`)),
    ...children);
}

/** A boxed group: figure + controls, optional heading. */
export function panel(title, ...children) {
  return h('div', { class: 'panel' }, title ? h('h3', {}, title) : null, ...children);
}

/** A short highlighted result line ("max difference: 1.2 × 10⁻⁷"). */
export function result(label, valueEl, attrs = {}) {
  const value = valueEl instanceof Node ? valueEl : h('output', {}, valueEl);
  return h('p', { class: 'result', ...attrs }, h('span', { class: 'result-label' }, label), ' ', value);
}

export { tex, paragraphs };
