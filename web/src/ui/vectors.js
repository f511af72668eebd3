// Vectors the reader types or pastes ("0.13, -0.13, 0.64 …", or numpy's "[ 0.13 -0.13 ]"),
// a hash spec for them, and a code listing. The values are data for package calls; the page
// never computes with them.
import { h } from './dom.js';
import { listInput } from './controls.js';

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
  const parse = (text) => { const v = parseFloats(text); return v && v.length === len ? v : null; };
  return listInput({ label, value, onChange, name, invalidText, parse, className: 'vector' });
}

/** A code listing (the articles' PyTorch / numpy), labelled with its language. */
export function codeBlock(code, { label, lang = 'python' } = {}) {
  return h('figure', { class: 'code-figure' },
    label ? h('figcaption', {}, label) : null,
    h('pre', { class: 'code', tabindex: '0', 'data-lang': lang }, h('code', { lang: 'en' }, code)));
}
