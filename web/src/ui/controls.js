// Labelled, keyboard-operable controls. Each returns { el, set(value) } and calls back with
// validated values only. A range slider and a number box are kept in step, so a learner can
// drag or type an exact value; `log: true` makes the slider move in powers of ten.
import { h, uid } from './dom.js';

function clamp(v, min, max) { return Math.min(max, Math.max(min, v)); }

/**
 * A slider + number box. Values outside [min, max], non-numbers and (with even: true) odd
 * numbers are corrected on commit. `integer` rounds. onChange(value) after each valid change.
 */
export function slider({ label, min, max, step = 1, value, onChange, log = false, integer = true,
  even = false, name, hint }) {
  const id = uid('ctl');
  // A log slider over [0, max] keeps one notch below 10⁰ for the value 0.
  const zeroNotch = log && min <= 0;
  const toSlider = (v) => {
    if (!log) return v;
    if (zeroNotch && v <= 0) return -1;
    return Math.log10(Math.max(v, zeroNotch ? 1 : min));
  };
  const fromSlider = (s) => {
    if (!log) return Number(s);
    if (zeroNotch && Number(s) < -0.5) return 0;
    return 10 ** Math.max(Number(s), zeroNotch ? 0 : -Infinity);
  };
  const normalize = (v) => {
    let x = clamp(v, min, max);
    if (integer) x = Math.round(x);
    if (even && x % 2 !== 0) x = x + 1 <= max ? x + 1 : x - 1;
    return x;
  };
  const range = h('input', {
    type: 'range', id: `${id}-r`, 'aria-label': label, min: toSlider(min), max: toSlider(max),
    'aria-valuetext': String(value),
    step: log ? 'any' : step, value: toSlider(value), name: name ? `${name}-range` : undefined,
  });
  const box = h('input', {
    type: 'number', id, min, max, step: even ? 2 : integer ? 1 : 'any', value, inputmode: 'decimal',
    name, 'data-param': name, 'aria-describedby': hint ? `${id}-hint` : undefined,
  });
  let current = value;
  const commit = (v, from) => {
    if (!Number.isFinite(v)) { box.value = String(current); return; }
    const x = normalize(v);
    if (from !== 'range') range.value = String(toSlider(x));
    range.setAttribute('aria-valuetext', String(x));
    if (from !== 'box' || Number(box.value) !== x) box.value = String(x);
    if (x !== current) { current = x; onChange(x); }
  };
  range.addEventListener('input', () => commit(fromSlider(range.value), 'range'));
  box.addEventListener('change', () => commit(Number(box.value), 'box'));
  box.addEventListener('keydown', (e) => { if (e.key === 'Enter') commit(Number(box.value), 'box'); });
  const el = h('div', { class: 'control slider' },
    h('label', { for: id }, label),
    h('div', { class: 'slider-row' }, range, box),
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null);
  return {
    el,
    set(v) {
      current = normalize(v);
      range.value = String(toSlider(current));
      range.setAttribute('aria-valuetext', String(current));
      box.value = String(current);
    },
    get value() { return current; },
  };
}

/** A group of radio buttons (a segmented control) inside a fieldset with a legend. */
export function choice({ label, options, value, onChange, name }) {
  const group = name ?? uid('choice');
  const inputs = [];
  const el = h('fieldset', { class: 'control choice', 'data-param': name },
    h('legend', {}, label),
    h('div', { class: 'choice-row' }, options.map(([v, text]) => {
      const id = uid('opt');
      const input = h('input', { type: 'radio', id, name: group, value: v });
      input.checked = v === value;
      input.addEventListener('change', () => { if (input.checked) onChange(v); });
      inputs.push(input);
      return h('span', { class: 'choice-item' }, input, h('label', { for: id }, text));
    })));
  return { el, set(v) { for (const i of inputs) i.checked = i.value === v; } };
}

/** A native <select>. */
export function select({ label, options, value, onChange, name }) {
  const id = uid('sel');
  const sel = h('select', { id, name, 'data-param': name },
    options.map(([v, text]) => h('option', { value: v }, text)));
  sel.value = value;
  sel.addEventListener('change', () => onChange(sel.value));
  return {
    el: h('div', { class: 'control select' }, h('label', { for: id }, label), sel),
    set(v) { sel.value = v; },
  };
}

export function checkbox({ label, value, onChange, name }) {
  const id = uid('chk');
  const input = h('input', { type: 'checkbox', id, name, 'data-param': name });
  input.checked = value;
  input.addEventListener('change', () => onChange(input.checked));
  return {
    el: h('div', { class: 'control check' }, input, h('label', { for: id }, label)),
    set(v) { input.checked = v; },
  };
}

export function button(text, onClick, attrs = {}) {
  return h('button', { type: 'button', class: 'btn', ...attrs, on: { click: onClick } }, text);
}

/** A free-text list of integers ("0, 1, 2, 3"), validated on commit; bad input → message. */
export function intListInput({ label, value, onChange, min, max, maxLen, name, invalidText }) {
  const parse = (text) => {
    const parts = text.split(/[\s,;]+/).filter(Boolean);
    const nums = parts.map(Number);
    const ok = parts.length > 0 && parts.length <= maxLen
      && nums.every((n) => Number.isSafeInteger(n) && n >= min && n <= max);
    return ok ? nums : null;
  };
  return listInput({ label, value, onChange, name, invalidText, parse, inputmode: 'numeric' });
}

/**
 * A free-text list of numbers: parse(text) → array, or null for bad input (then the message
 * `invalidText` shows and nothing changes). onChange(array) after each valid commit.
 */
export function listInput({ label, value, onChange, name, invalidText, parse, inputmode = 'decimal', className = 'list' }) {
  const id = uid('list');
  const input = h('input', { type: 'text', id, name, 'data-param': name, value: value.join(', '),
    inputmode, autocomplete: 'off', spellcheck: 'false' });
  const msg = h('p', { class: 'hint error', id: `${id}-err`, role: 'status' });
  input.setAttribute('aria-describedby', `${id}-err`);
  const commit = () => {
    const v = parse(input.value);
    // textContent: the visitor's text is never parsed as markup.
    msg.textContent = v ? '' : invalidText;
    input.setAttribute('aria-invalid', v ? 'false' : 'true');
    if (v) onChange(v);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') commit(); });
  return {
    el: h('div', { class: `control ${className}` }, h('label', { for: id }, label), input, msg),
    set(v) { input.value = v.join(', '); msg.textContent = ''; input.setAttribute('aria-invalid', 'false'); },
  };
}

/** A row of controls. */
export function controlRow(...controls) {
  return h('div', { class: 'controls' }, controls.map((c) => (c?.el ?? c)));
}
