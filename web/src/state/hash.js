// The page state lives in the URL hash (#lang=ko&s3.d=64&s9.s=1000000) so that a view can be
// shared. Every value is validated against a schema; a bad value falls back to its default and
// is reported (never thrown), and only values that differ from the default are written back.

/** Parameter specs. `def` is the default; validators return undefined for a bad value. */
export const spec = {
  int: (def, min, max, { even = false } = {}) => ({
    def, kind: 'int', min, max, even,
    parse(text) {
      if (!/^-?\d+$/.test(text)) return undefined;
      const v = Number(text);
      if (!Number.isSafeInteger(v) || v < min || v > max || (even && v % 2 !== 0)) return undefined;
      return v;
    },
    format: (v) => String(v),
  }),
  num: (def, min, max) => ({
    def, kind: 'num', min, max,
    parse(text) {
      if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return undefined;
      const v = Number(text);
      return Number.isFinite(v) && v >= min && v <= max ? v : undefined;
    },
    format: (v) => String(Number(v.toPrecision(12))),
  }),
  enumOf: (def, values) => ({
    def, kind: 'enum', values,
    parse: (text) => (values.includes(text) ? text : undefined),
    format: (v) => v,
  }),
  bool: (def) => ({
    def, kind: 'bool',
    parse: (text) => (text === '1' ? true : text === '0' ? false : undefined),
    format: (v) => (v ? '1' : '0'),
  }),
  /** A list of integers "0,1,2,3": each in [min, max], between minLen and maxLen of them. */
  intList: (def, min, max, maxLen, minLen = 1) => ({
    def, kind: 'list', min, max, maxLen, minLen,
    parse(text) {
      const parts = text.split(',');
      if (parts.length < minLen || parts.length > maxLen) return undefined;
      const out = [];
      for (const p of parts) {
        if (!/^-?\d+$/.test(p)) return undefined;
        const v = Number(p);
        if (!Number.isSafeInteger(v) || v < min || v > max) return undefined;
        out.push(v);
      }
      return out;
    },
    format: (v) => v.join(','),
  }),
};

function equal(a, b) {
  return Array.isArray(a) ? Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]) : a === b;
}

export class HashState {
  /** @param schema {Record<string, spec>} */
  constructor(schema) {
    this.schema = schema;
    this.values = {};
    this.problems = [];
    this.listeners = new Set();
    this.pending = 0;
    this.changed = new Set();
    for (const [key, s] of Object.entries(schema)) this.values[key] = s.def;
  }

  /**
   * Reads `hash` (with or without '#'); returns the list of problems (bad keys/values) and
   * leaves in `changed` the keys whose value differs from before the read.
   */
  read(hash) {
    const before = { ...this.values };
    const problems = [];
    for (const [key, s] of Object.entries(this.schema)) this.values[key] = s.def;
    const body = String(hash ?? '').replace(/^#/, '');
    if (body) {
      for (const part of body.split('&')) {
        if (!part) continue;
        const eq = part.indexOf('=');
        let key, raw;
        try {
          key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
          raw = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
        } catch {
          problems.push({ key: (eq < 0 ? part : part.slice(0, eq)).slice(0, 40), value: '', unknown: true });
          continue;
        }
        // Own keys only: "#constructor=1" must not find Object.prototype.constructor.
        const s = Object.hasOwn(this.schema, key) ? this.schema[key] : undefined;
        if (!s) { problems.push({ key: key.slice(0, 40), value: raw.slice(0, 40), unknown: true }); continue; }
        const v = s.parse(raw);
        if (v === undefined) problems.push({ key, value: raw.slice(0, 40) });
        else this.values[key] = v;
      }
    }
    this.problems = problems;
    this.changed = new Set(Object.keys(this.schema).filter((k) => !equal(before[k], this.values[k])));
    return problems;
  }

  get(key) {
    if (!Object.hasOwn(this.schema, key)) throw new Error(`state: unknown key ${key}`);
    return this.values[key];
  }

  /** Sets a value (ignored unless valid) and writes the hash without adding history entries. */
  set(key, value) {
    const s = Object.hasOwn(this.schema, key) ? this.schema[key] : undefined;
    if (!s) throw new Error(`state: unknown key ${key}`);
    const checked = s.parse(s.format(value));
    if (checked === undefined || equal(checked, this.values[key])) return;
    this.values[key] = checked;
    this.write();
    for (const fn of this.listeners) fn(key, checked);
  }

  /** The canonical hash: only non-default values, in schema order. */
  serialize() {
    return this.serializeWith();
  }

  /** The canonical hash with `key` set to `value` (the state itself unchanged). */
  serializeWith(key, value) {
    const parts = [];
    for (const [k, s] of Object.entries(this.schema)) {
      const v = k === key ? value : this.values[k];
      if (!equal(v, s.def) || this.always?.has(k)) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(s.format(v))}`);
    }
    return parts.length ? `#${parts.join('&')}` : '';
  }

  /**
   * Writes the hash soon (trailing, 250 ms): history.replaceState costs ~10 ms in Chromium,
   * which would eat the frame budget of every slider move if done each time.
   */
  write() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.flush(), 250);
  }

  /** Writes the hash now. */
  flush() {
    clearTimeout(this.pending);
    const hash = this.serialize();
    const url = `${location.pathname}${location.search}${hash}`;
    if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url || location.pathname);
  }

  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
