// wasm/js/config.js — pe.ropeFromConfig: a Hugging Face config.json, as published, → a rotator.
//
// The mapping (which keys HF reads, family rules, every refusal naming its config key) is the
// core's (posenc/config.hpp rope_from_config); this file only flattens the object into key
// paths and stages them (wasm/src/bind_config.cpp describes the blocks), then builds the
// rotator from the numbers the core returns through pe.rope(options), the same path as
// every other rotator.
//
// Reading the config follows the package's boundary rule (check.js): own enumerable string
// keys only, each property read exactly once through its descriptor (a getter is called
// once), inherited keys never looked at (a polluted Object.prototype adds nothing), Proxies
// see one ownKeys and one getOwnPropertyDescriptor trap per key. Cycles, nesting deeper than
// MAX_DEPTH and configs larger than the limits below are refused naming the key path.
import * as check from './check.js';
import { withKind } from './errors.js';
import { SCALING_FIELDS } from './scaling.js';

const OPTION_KEYS = ['layout', 'seqLen', 'layerType', 'tower', 'cacheLength', 'cacheStart', 'angles'];
const LAYOUTS = ['half', 'interleaved'];
const LAYER_TYPES = ['full_attention', 'sliding_attention'];
const TOWERS = ['text', 'vision'];
const SCALING_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope'];
const AXES = [null, 'mrope', 'mrope-interleaved', 'qwen2-vl', 'pixtral'];
// A published config.json has a few hundred key paths, lists of at most a few hundred
// numbers, nesting of depth < 8; these bounds are far above that and keep the staged copy small.
const MAX_ENTRIES = 1 << 16;
const MAX_VALUES = 1 << 20;
const MAX_TEXT = 1 << 22;
const MAX_DEPTH = 32;
const KIND = { null: 0, boolean: 1, number: 2, string: 3, numbers: 4, object: 5, other: 6 };
// A key holding '.' cannot be a step of a dotted path: it is kept as an unreadable value
// under this stand-in, so the core can still name it (and refuse it where RoPE reads keys).
const DOT_STAND_IN = '\u2024';

// Intrinsics, captured when the package loads.
const ownNames = Object.getOwnPropertyNames;
const { getOwnPropertyDescriptor } = Reflect;
const isArray = Array.isArray;
const isInteger = Number.isInteger;
const stringIncludes = Function.prototype.call.bind(String.prototype.includes);
const stringReplaceAll = Function.prototype.call.bind(String.prototype.replaceAll);
const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);

const where = (path) => (path === '' ? 'config' : `config key ${check.quote(path)}`);

// isArray, or a TypeError for a revoked Proxy (the one intrinsic that tells, by throwing).
function arrayOrThrow(v, path) {
  try {
    return isArray(v);
  } catch {
    throw new TypeError(`posenc: ${where(path)} is a revoked Proxy`);
  }
}

// The flattened config being built: entries [kind, key length, a, b], the values of number
// lists, and the text (keys and strings, in entry order).
class Flat {
  entries = [];
  values = [];
  text = [];
  textLength = 0;
  count = 0;

  add(path, kind, a, str) {
    if (++this.count > MAX_ENTRIES) {
      throw new RangeError(`posenc: config has more than ${MAX_ENTRIES} key paths (at ${where(path)})`);
    }
    this.addText(path, path);
    if (str !== undefined) this.addText(path, str);
    const e = this.entries;
    const n = e.length;
    e[n] = kind;
    e[n + 1] = path.length;
    e[n + 2] = a;
    e[n + 3] = 0;
  }

  addText(path, s) {
    this.textLength += s.length;
    if (this.textLength > MAX_TEXT) {
      throw new RangeError(`posenc: config holds more than ${MAX_TEXT} characters of keys and strings (at ${where(path)})`);
    }
    this.text[this.text.length] = s;
  }

  // A list → a number list (all elements numbers) or "other"; elements read once, in order.
  addList(path, v) {
    const tag = check.tagOf(v);
    const n = tag === undefined ? listLength(path, v) : check.lengthOf(v);
    if (n > MAX_VALUES - this.values.length) {
      throw new RangeError(`posenc: ${where(path)} holds ${n} values, more than the config limit of ${MAX_VALUES}`);
    }
    const start = this.values.length;
    for (let i = 0; i < n; i++) {
      const e = tag === undefined ? element(v, i) : v[i];
      if (typeof e !== 'number') {
        this.values.length = start;
        this.add(path, KIND.other, 0);
        return;
      }
      this.values[this.values.length] = e;
    }
    this.add(path, KIND.numbers, n);
  }

  // The object `o` at `path` ('' for the config itself), its subtree after it.
  addObject(path, o, ancestors, depth) {
    if (depth > MAX_DEPTH) throw new RangeError(`posenc: ${where(path)} is nested deeper than ${MAX_DEPTH} levels`);
    if (check.includes(ancestors, o)) throw new TypeError(`posenc: ${where(path)} contains itself (a cycle)`);
    if (path !== '') this.add(path, KIND.object, 0);
    ancestors[ancestors.length] = o;
    const keys = ownNames(o);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const d = getOwnPropertyDescriptor(o, key);
      if (d === undefined || !d.enumerable) continue; // as JSON.stringify: own enumerable keys
      const dotted = key === '' || stringIncludes(key, '.');
      const name = dotted ? stringReplaceAll(key, '.', DOT_STAND_IN) || DOT_STAND_IN : key;
      const child = path === '' ? name : `${path}.${name}`;
      const v = check.descriptorValue(d, o);
      if (dotted) this.add(child, KIND.other, 0);
      else this.addValue(child, v, ancestors, depth + 1);
    }
    ancestors.length -= 1;
  }

  addValue(path, v, ancestors, depth) {
    switch (typeof v) {
      case 'undefined': return; // JSON has no undefined: as if the key were absent
      case 'number': this.add(path, KIND.number, v); return;
      case 'boolean': this.add(path, KIND.boolean, v ? 1 : 0); return;
      case 'string': this.add(path, KIND.string, v.length, v); return;
      case 'object': break;
      default: this.add(path, KIND.other, 0); return; // bigint, symbol, function
    }
    if (v === null) this.add(path, KIND.null, 0);
    else if (arrayOrThrow(v, path)) this.addList(path, v);
    else if (isNumberArray(v)) this.addList(path, v);
    else if (check.tagOf(v) !== undefined) this.add(path, KIND.other, 0); // BigInt64Array, …
    else this.addObject(path, v, ancestors, depth);
  }
}

const isNumberArray = (v) => {
  const tag = check.tagOf(v);
  return tag !== undefined && tag !== 'BigInt64Array' && tag !== 'BigUint64Array';
};

function listLength(path, v) {
  const n = check.field(v, 'length');
  if (typeof n !== 'number' || !isInteger(n) || n < 0) {
    throw new TypeError(`posenc: ${where(path)} is an array without a valid length`);
  }
  return n;
}

function element(v, i) {
  return check.field(v, `${i}`); // a hole reads as absent: not a number
}

/** The config as the core's blocks: { entries: Float64Array, text: Uint16Array }. */
export function flattenConfig(config) {
  if (config === null || typeof config !== 'object' || arrayOrThrow(config, '') || check.tagOf(config) !== undefined) {
    throw new TypeError(`posenc: ropeFromConfig() config must be an object (a parsed config.json), got ${check.describe(config)}`);
  }
  const flat = new Flat();
  flat.addObject('', config, [], 0);
  const { entries: e, values } = flat;
  const entries = new check.Float64(1 + e.length + values.length);
  entries[0] = flat.count;
  for (let i = 0; i < e.length; i++) entries[1 + i] = e[i];
  for (let i = 0; i < values.length; i++) entries[1 + e.length + i] = values[i];
  const text = new check.Uint16(flat.textLength);
  let at = 0;
  for (let k = 0; k < flat.text.length; k++) {
    const s = flat.text[k];
    for (let i = 0; i < s.length; i++) text[at++] = charCodeAt(s, i);
  }
  return { entries, text };
}

// The core's refusal: a wrong value type is a TypeError, a value out of range a RangeError.
// Config keys keep their snake_case names; only the options are renamed to the JS ones.
function throwConfigError(module) {
  const text = module.lastError();
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const message = text.slice(colon + 1).replace(/(^|[^.\w])seq_len\b/g, '$1seqLen')
    .replace(/(^|[^.\w])layer_type\b/g, '$1layerType');
  const wrongType = / must be (?:a|an) (?:number|string|boolean|list of numbers|object)\b/.test(message);
  const E = kind === 'internal' ? Error : wrongType ? TypeError : RangeError;
  throw withKind(new E(message), kind);
}

// The core's result (bind_config.cpp config_result) → pe.rope() options.
function ropeOptions(info, o) {
  const opts = {
    headDim: info[0], rotaryDim: info[1], base: info[2], layout: info[3] === 1 ? 'interleaved' : 'half',
  };
  const axes = AXES[info[4]];
  if (axes === 'mrope' || axes === 'mrope-interleaved') {
    opts.mrope = { section: [info[5], info[6], info[7]], interleaved: axes === 'mrope-interleaved' };
  } else if (axes !== null) {
    opts.vision2d = axes;
  }
  const type = SCALING_TYPES[info[8]];
  if (type !== 'default') {
    const scaling = { type };
    let at = 9;
    for (let i = 0; i < SCALING_FIELDS.length; i++) {
      const key = SCALING_FIELDS[i];
      const v = info[at++];
      if (v === v) scaling[key] = key === 'truncate' ? v === 1 : v; // NaN: unset
    }
    const nShort = info[at++];
    const nLong = info[at++];
    const buffer = check.bufferOf(info);
    if (nShort > 0) scaling.shortFactor = new check.Float64(buffer, 8 * at, nShort);
    if (nLong > 0) scaling.longFactor = new check.Float64(buffer, 8 * (at + nShort), nLong);
    opts.scaling = scaling;
  }
  if (o.cacheLength !== undefined) opts.cacheLength = o.cacheLength;
  if (o.cacheStart !== undefined) opts.cacheStart = o.cacheStart;
  if (o.angles !== undefined) opts.angles = o.angles;
  return opts;
}

export function configApi({ module, heap }, rope) {
  return {
    /** A rotator from a Hugging Face config.json object, as published; see index.d.ts. */
    ropeFromConfig(config, opts) {
      if (check.tagOf(opts) !== undefined) { // every option is optional: say what was passed
        throw new TypeError(`posenc: the options of ropeFromConfig() must be an object, got ${check.describe(opts)}`);
      }
      const o = check.options(opts, 'ropeFromConfig()', OPTION_KEYS);
      const layout = o.layout === undefined ? '' : check.oneOf('layout', o.layout, LAYOUTS);
      const seqLen = o.seqLen === undefined ? NaN : check.integer('seqLen', o.seqLen, 1);
      const layerType = o.layerType === undefined ? LAYER_TYPES[0] : check.oneOf('layerType', o.layerType, LAYER_TYPES);
      const tower = o.tower === undefined ? TOWERS[0] : check.oneOf('tower', o.tower, TOWERS);
      const { entries, text } = flattenConfig(config);
      // Every user value is read: from here on no user code runs.
      const eBytes = 8 * check.lengthOf(entries);
      const base = heap.acquire(eBytes + 2 * check.lengthOf(text), 'ropeFromConfig()');
      let r;
      try {
        heap.put(base, entries, 'Float64Array');
        heap.put(base + eBytes, text, 'Uint16Array');
        r = module.ropeFromConfig(base, check.lengthOf(entries), base + eBytes, check.lengthOf(text), layout, seqLen,
          layerType, tower);
      } finally {
        heap.release(base);
      }
      if (r === null) throwConfigError(module);
      return rope(ropeOptions(heap.take(r, 'Float64Array'), o));
    },
  };
}
