// A text box for a short list of real numbers ("0.126, -0.132, …"), validated on commit, so a
// reader can type or paste the q and k of an article's check. Text reaches the page only as
// textContent; a bad list shows a message and keeps the last good value.
import { h, uid } from '../ui/dom.js';

const NUMBER = /^[-+\u2212]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** Parses "a, b, c" into numbers (true minus sign accepted); null if any part is not a number. */
export function parseList(text, length) {
  const parts = String(text).trim().split(/[\s,;]+/).filter(Boolean);
  if (parts.length !== length || !parts.every((p) => NUMBER.test(p))) return null;
  const nums = parts.map((p) => Number(p.replace('\u2212', '-')));
  return nums.every((v) => Number.isFinite(v) && Math.abs(v) <= 1e6) ? nums : null;
}

/** { el, set(values), get value } — onChange(values) after each valid commit. */
export function vectorInput({ label, value, length, onChange, invalidText, testid }) {
  const id = uid('vec');
  const input = h('input', { type: 'text', id, value: value.join(', '), autocomplete: 'off', spellcheck: 'false',
    inputmode: 'decimal', 'data-testid': testid, class: 'vector-input' });
  const msg = h('p', { class: 'hint error', id: `${id}-err`, role: 'status' });
  input.setAttribute('aria-describedby', `${id}-err`);
  let current = value.slice();
  const commit = () => {
    const nums = parseList(input.value, length());
    msg.textContent = nums ? '' : invalidText();
    input.setAttribute('aria-invalid', nums ? 'false' : 'true');
    if (nums) { current = nums; onChange(nums); }
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') commit(); });
  return {
    el: h('div', { class: 'control list vector' }, h('label', { for: id }, label), input, msg),
    set(v) { current = v.slice(); input.value = v.join(', '); msg.textContent = ''; input.setAttribute('aria-invalid', 'false'); },
    get value() { return current; },
  };
}
