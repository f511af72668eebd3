// Vectors the reader types or pastes ("0.13, -0.13, 0.64 …", or numpy's "[ 0.13 -0.13 ]"),
// a hash spec for them, and a code listing. The values are data for package calls; the page
// never computes with them.
import { h, uid } from './dom.js';

/** Parses a list of finite numbers separated by commas, spaces or semicolons (brackets ignored). */
export function parseFloats(text) {
  const parts = String(text).replace(/[[\]()]/g, ' ').split(/[\s,;]+/).filter(Boolean);
  const nums = parts.map((p) => (/^[-+−]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(p) ? Number(p.replace('−', '-')) : NaN));
  return nums.every(Number.isFinite) ? nums : null;
}

/** A hash spec for a vector of exactly `len` numbers (default `def`), written with 17 digits. */
export function floatListSpec(def, len) {
  return {
    def, kind: 'floats', len,
    parse(text) {
      const v = parseFloats(text);
      return v && v.length === len ? v : undefined;
    },
    format: (v) => v.map((x) => String(x)).join(','),
  };
}

/** A labelled text box for a vector of `len` numbers; onChange(numbers) on a valid commit. */
export function vectorInput({ label, value, len, onChange, name, invalidText }) {
  const id = uid('vec');
  const input = h('input', { type: 'text', id, name, 'data-param': name, class: 'vector-input',
    value: value.join(', '), inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false' });
  const msg = h('p', { class: 'hint error', id: `${id}-err`, role: 'status' });
  input.setAttribute('aria-describedby', `${id}-err`);
  const commit = () => {
    const v = parseFloats(input.value);
    const ok = v !== null && v.length === len;
    msg.textContent = ok ? '' : invalidText;
    input.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) onChange(v);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') commit(); });
  return {
    el: h('div', { class: 'control vector' }, h('label', { for: id }, label), input, msg),
    set(v) { input.value = v.join(', '); msg.textContent = ''; input.setAttribute('aria-invalid', 'false'); },
  };
}

/** A code listing (the articles' PyTorch / numpy), labelled with its language. */
export function codeBlock(code, { label, lang = 'python' } = {}) {
  return h('figure', { class: 'code-figure' },
    label ? h('figcaption', {}, label) : null,
    h('pre', { class: 'code', tabindex: '0', 'data-lang': lang }, h('code', { lang: 'en' }, code)));
}
