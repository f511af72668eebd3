// wasm/js/config.js — pe.ropeFromConfig / pe.modelFromConfig: a Hugging Face config.json, as
// published, → a rotator, or the decoder's layer map with its shared rotators; pe.queryScale.
//
// The mapping (which keys HF reads, the family table, every refusal naming its config key) is
// the core's (posenc/config.hpp rope_from_config, model_from_config); this file only flattens
// the object into key paths and stages them (wasm/src/bind_config.cpp describes the blocks),
// then builds each rotator from the numbers the core returns through pe.rope(options), the
// same path as every other rotator. The options it builds for pe.rope are null-prototype
// records: nothing on Object.prototype can intercept them.
//
// Reading the config follows the package's boundary rule (check.js): own enumerable string
// keys only, each property read exactly once through its descriptor (a getter is called
// once), inherited keys never looked at (a polluted Object.prototype adds nothing), Proxies
// see one ownKeys and one getOwnPropertyDescriptor trap per key. Cycles, nesting deeper than
// MAX_DEPTH and configs larger than the limits below are refused naming the key path.
import * as check from './check.js';
import { withKind } from './errors.js';
import { SCALING_FIELDS } from './scaling.js';

const OPTION_KEYS = ['layout', 'seqLen', 'layerType', 'tower', 'cacheLength', 'cacheStart', 'angles', 'family',
  'layer', 'part', 'stack'];
const MODEL_KEYS = ['layout', 'seqLen', 'tower', 'family', 'cacheLength', 'cacheStart', 'angles', 'stack'];
const LAYOUTS = ['half', 'interleaved'];
const LAYER_TYPES = ['full_attention', 'sliding_attention', 'chunked_attention', 'hybrid', 'hybrid_sliding',
  'compressed_sparse_attention', 'heavily_compressed_attention'];
const TOWERS = ['text', 'vision'];
const PARTS = ['attention', 'indexer'];
const STACKS = ['encoder', 'decoder'];
const CROSS = [null, 'separate', 'merged'];
const ATTENTION = ['full', 'sliding', 'chunked', 'sparse', 'linear', 'conv', 'cross', 'none', 'windowed',
  'compressed_sparse', 'heavily_compressed'];
// Numbers per layer in the core's model block (wasm/src/bind_config.cpp).
const LAYER_FIELDS = 18;
const SCALING_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope', 'proportional'];
// A family name is a short identifier; a longer string cannot name one (the core lists them).
const MAX_FAMILY = 64;
// The core's rope_axes_kind by number (5, bands, is never a config's).
const AXES = [null, 'mrope', 'mrope-interleaved', 'qwen2-vl', 'pixtral', 'bands', 'mrope-hw'];
const MROPE_INTERLEAVED = { mrope: false, 'mrope-interleaved': true, 'mrope-hw': 'hw' };
// A published config.json has a few hundred key paths, lists of at most a few hundred
// numbers, nesting of depth < 8; these bounds are far above that and keep the staged copy small.
const MAX_ENTRIES = 1 << 16;
const MAX_VALUES = 1 << 20;
const MAX_TEXT = 1 << 22;
const MAX_DEPTH = 32;
const KIND = { null: 0, boolean: 1, number: 2, string: 3, numbers: 4, object: 5, other: 6, strings: 7 };
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
const fromCharCode = String.fromCharCode;
const objectCreate = Object.create;
const freeze = Object.freeze;

// A key path in a message: the caller's keys as a short escaped excerpt (check.quote).
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

  // A list → a number list (all elements numbers), a string list (all strings: its elements
  // follow as entries path.0, path.1, …) or "other"; elements read once, in order.
  addList(path, v) {
    const tag = check.tagOf(v);
    const n = tag === undefined ? listLength(path, v) : check.lengthOf(v);
    if (n > MAX_VALUES - this.values.length) {
      throw new RangeError(`posenc: ${where(path)} holds ${n} values, more than the config limit of ${MAX_VALUES}`);
    }
    const start = this.values.length;
    const strings = [];
    for (let i = 0; i < n; i++) {
      const e = tag === undefined ? element(v, i) : v[i];
      if (typeof e === 'string' && strings.length === i && this.values.length === start) {
        strings[i] = e;
        continue;
      }
      if (typeof e !== 'number' || strings.length > 0) {
        this.values.length = start;
        this.add(path, KIND.other, 0);
        return;
      }
      this.values[this.values.length] = e;
    }
    if (strings.length === 0 || n === 0) {
      this.add(path, KIND.numbers, n);
      return;
    }
    this.add(path, KIND.strings, n);
    for (let i = 0; i < n; i++) this.add(`${path}.${i}`, KIND.string, strings[i].length, strings[i]);
  }

  // The object `o` at `path` ('' for the config itself), its subtree after it.
  addObject(path, o, ancestors, depth) {
    if (depth > MAX_DEPTH) throw new RangeError(`posenc: ${where(path)} is nested deeper than ${MAX_DEPTH} levels`);
    if (check.includes(ancestors, o)) throw new TypeError(`posenc: ${where(path)} contains itself (a cycle)`);
    if (path !== '') this.add(path, KIND.object, 0);
    ancestors[ancestors.length] = o;
    const keys = ownKeysOf(o, path);
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

// The own string keys of `o`; a Proxy whose ownKeys trap breaks the invariants (a key listed
// twice, …) is refused naming the key path.
function ownKeysOf(o, path) {
  try {
    return ownNames(o);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new TypeError(`posenc: ${where(path)}: its own keys cannot be listed (a Proxy whose ownKeys trap is invalid: ${String(e.message).slice(0, 80)})`);
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

// A record nothing inherited can see: no prototype, so a setter or getter planted on
// Object.prototype (`scaling`, `mrope`, …) never intercepts what is written or read here.
const record = () => objectCreate(null);

// The core's block (bind_config.cpp append_config) at info[at…] → pe.rope() options.
function ropeOptions(info, at, o) {
  const opts = record();
  opts.headDim = info[at];
  opts.rotaryDim = info[at + 1];
  opts.base = info[at + 2];
  opts.layout = info[at + 3] === 1 ? 'interleaved' : 'half';
  if (info[at + 4] === 1) opts.direction = 'inverse';
  const axes = AXES[info[at + 5]];
  if (axes === 'mrope' || axes === 'mrope-interleaved' || axes === 'mrope-hw') {
    const mrope = record();
    mrope.section = [info[at + 6], info[at + 7], info[at + 8]];
    mrope.interleaved = MROPE_INTERLEAVED[axes];
    opts.mrope = mrope;
  } else if (axes !== null && axes !== 'bands') {
    opts.vision2d = axes;
  }
  const type = SCALING_TYPES[info[at + 9]];
  let k = at + 10;
  const scaling = record();
  scaling.type = type;
  for (let i = 0; i < SCALING_FIELDS.length; i++) {
    const key = SCALING_FIELDS[i];
    const v = info[k++];
    if (v === v) scaling[key] = key === 'truncate' ? v === 1 : v; // NaN: unset
  }
  const nShort = info[k++];
  const nLong = info[k++];
  const buffer = check.bufferOf(info);
  if (nShort > 0) scaling.shortFactor = new check.Float64(buffer, 8 * k, nShort);
  if (nLong > 0) scaling.longFactor = new check.Float64(buffer, 8 * (k + nShort), nLong);
  if (axes === 'bands') { // an axes preset (Muse Glimmer's vision tower): it fixes layout and width
    [opts.axes] = textAt(info, k + nShort + nLong);
    delete opts.layout;
    delete opts.rotaryDim;
  }
  if (type !== 'default') opts.scaling = scaling;
  if (o.cacheLength !== undefined) opts.cacheLength = o.cacheLength;
  if (o.cacheStart !== undefined) opts.cacheStart = o.cacheStart;
  if (o.angles !== undefined) opts.angles = o.angles;
  return opts;
}

// The scaling an encoding was built with, as a frozen record in a fixed key order (type, then
// scaling.js's fields, then the factor lists as arrays); { type: 'default' } without one.
function scalingRecord(scaling) {
  const out = record();
  if (scaling === undefined) {
    out.type = 'default';
    return freeze(out);
  }
  out.type = scaling.type;
  for (let i = 0; i < SCALING_FIELDS.length; i++) {
    const key = SCALING_FIELDS[i];
    if (scaling[key] !== undefined) out[key] = scaling[key];
  }
  if (scaling.shortFactor !== undefined) out.shortFactor = freeze(Array.from(scaling.shortFactor));
  if (scaling.longFactor !== undefined) out.longFactor = freeze(Array.from(scaling.longFactor));
  return freeze(out);
}

// UTF-16 text the core wrote as [count, units…] at info[at]; → [string, next index].
function textAt(info, at) {
  const n = info[at];
  let out = '';
  for (let i = 0; i < n; i++) out += fromCharCode(info[at + 1 + i]);
  return [out, at + 1 + n];
}

// The options the core reads, checked: [layout, seqLen, tower, family, stack].
function commonOptions(o) {
  const layout = o.layout === undefined ? '' : check.oneOf('layout', o.layout, LAYOUTS);
  const seqLen = o.seqLen === undefined ? NaN : check.integer('seqLen', o.seqLen, 1);
  const tower = o.tower === undefined ? TOWERS[0] : check.oneOf('tower', o.tower, TOWERS);
  let family = '';
  if (o.family !== undefined) {
    family = check.string('family', o.family);
    if (family.length === 0 || family.length > MAX_FAMILY) {
      throw new RangeError(`posenc: family must name a listed family (1 to ${MAX_FAMILY} characters), got a string of ${family.length}`);
    }
  }
  const stack = o.stack === undefined ? '' : check.oneOf('stack', o.stack, STACKS);
  return [layout, seqLen, tower, family, stack];
}

export function configApi({ module, heap }, rope) {
  // Stages the flattened config, calls the core with its two blocks, copies the result out.
  function withConfig(config, what, call) {
    const { entries, text } = flattenConfig(config);
    // Every user value is read: from here on no user code runs.
    const eBytes = 8 * check.lengthOf(entries);
    const base = heap.acquire(eBytes + 2 * check.lengthOf(text), what);
    let r;
    try {
      heap.put(base, entries, 'Float64Array');
      heap.put(base + eBytes, text, 'Uint16Array');
      r = call(base, check.lengthOf(entries), base + eBytes, check.lengthOf(text));
    } finally {
      heap.release(base);
    }
    if (r === null) throwConfigError(module);
    return heap.take(r, 'Float64Array');
  }

  // A core function of each position: the list staged as doubles, the result a Float64Array.
  function perPosition(positions, what, call) {
    const list = check.numberList('positions', positions, check.MAX_LIST);
    const n = check.lengthOf(list);
    const base = heap.acquire(8 * n, what);
    let r;
    try {
      heap.put(base, list, 'Float64Array');
      r = call(base, n);
    } finally {
      heap.release(base);
    }
    if (r === null) throwConfigError(module);
    return heap.take(r, 'Float64Array');
  }

  // One layer's query scale: a frozen record of its three numbers (pe.queryScale evaluates it).
  function queryScale(floorScale, attnScale, offset) {
    const q = record();
    q.floorScale = floorScale;
    q.attnScale = attnScale;
    q.offset = offset;
    return freeze(q);
  }

  function patchWindow(side, merge) {
    const w = record();
    w.side = side;
    w.merge = merge;
    return freeze(w);
  }

  // Where a rotator sits in its heads (DeepSeek-V4's trailing slice), or null (NaN: unset).
  function ropeSlice(head, offset) {
    if (head !== head) return null;
    const s = record();
    s.head = head;
    s.offset = offset;
    return freeze(s);
  }

  return {
    /** A rotator from a Hugging Face config.json object, as published; see index.d.ts. */
    ropeFromConfig(config, opts) {
      if (check.tagOf(opts) !== undefined) { // every option is optional: say what was passed
        throw new TypeError(`posenc: the options of ropeFromConfig() must be an object, got ${check.describe(opts)}`);
      }
      const o = check.options(opts, 'ropeFromConfig()', OPTION_KEYS);
      const [layout, seqLen, tower, family, stack] = commonOptions(o);
      const layerType = o.layerType === undefined ? LAYER_TYPES[0] : check.oneOf('layerType', o.layerType, LAYER_TYPES);
      const layer = o.layer === undefined ? -1 : check.integer('layer', o.layer, 0);
      const part = o.part === undefined ? PARTS[0] : check.oneOf('part', o.part, PARTS);
      const info = withConfig(config, 'ropeFromConfig()', (e, ne, t, nt) => module.ropeFromConfig(e, ne, t, nt,
        layout, seqLen, layerType, tower, family, layer, part, stack));
      return info[0] === 0 ? null : rope(ropeOptions(info, 1, o));
    },

    /** Every decoder layer of a config.json: RoPE or none, attention, shared rotators. */
    modelFromConfig(config, opts) {
      if (check.tagOf(opts) !== undefined) {
        throw new TypeError(`posenc: the options of modelFromConfig() must be an object, got ${check.describe(opts)}`);
      }
      const o = check.options(opts, 'modelFromConfig()', MODEL_KEYS);
      const [layout, seqLen, tower, family, stack] = commonOptions(o);
      const info = withConfig(config, 'modelFromConfig()', (e, ne, t, nt) => module.modelFromConfig(e, ne, t, nt,
        layout, seqLen, tower, family, stack));
      let at = 0;
      let modelType;
      let familyName;
      [modelType, at] = textAt(info, at);
      [familyName, at] = textAt(info, at);
      const nLayers = info[at++];
      const layers = [];
      for (let i = 0; i < nLayers; i++) {
        const r = info[at];
        const layer = record();
        layer.index = i;
        layer.rope = r < 0 ? null : `e${r}`;
        layer.attention = ATTENTION[info[at + 1]];
        layer.window = info[at + 2] === info[at + 2] ? info[at + 2] : null;
        layer.chunk = info[at + 3] === info[at + 3] ? info[at + 3] : null;
        layer.queryScale = info[at + 4] === info[at + 4] ? queryScale(info[at + 4], info[at + 5], info[at + 6]) : null;
        layer.bidirectional = info[at + 7] === 1;
        layer.lookahead = info[at + 8] === info[at + 8] ? info[at + 8] : null;
        layer.crossAttention = CROSS[info[at + 9]];
        layer.patchWindow = info[at + 10] === info[at + 10] ? patchWindow(info[at + 10], info[at + 11]) : null;
        layer.compressRate = info[at + 12] === info[at + 12] ? info[at + 12] : null;
        layer.ropeSlice = ropeSlice(info[at + 13], info[at + 14]);
        layer.outputInverse = info[at + 15] === 1;
        layer.indexerSlice = ropeSlice(info[at + 16], info[at + 17]);
        layers[i] = freeze(layer);
        at += LAYER_FIELDS;
      }
      const encodings = record();
      const scalings = record();
      const made = [];
      try {
        const nEnc = info[at++];
        for (let i = 0; i < nEnc; i++) {
          const length = info[at];
          const ropeOpts = ropeOptions(info, at + 1, o);
          made[i] = rope(ropeOpts);
          encodings[`e${i}`] = made[i];
          scalings[`e${i}`] = scalingRecord(ropeOpts.scaling);
          at += 1 + length;
        }
      } catch (e) {
        for (let i = 0; i < made.length; i++) made[i].dispose();
        throw e;
      }
      const model = record();
      model.modelType = modelType;
      model.family = familyName;
      model.layers = freeze(layers);
      model.encodings = freeze(encodings);
      model.scaling = freeze(scalings);
      model.dispose = () => { for (let i = 0; i < made.length; i++) made[i].dispose(); };
      return freeze(model);
    },

    /** A layer's query scale (Llama 4, Ministral 3) at each position: Float64Array. */
    queryScale(scale, positions) {
      const q = check.options(scale, 'queryScale()', ['floorScale', 'attnScale', 'offset']);
      const floorScale = check.number('scale.floorScale', q.floorScale);
      const attnScale = check.number('scale.attnScale', q.attnScale);
      const offset = q.offset === undefined ? 1 : check.number('scale.offset', q.offset);
      return perPosition(positions, 'queryScale()', (base, n) => module.queryScales(floorScale, attnScale, offset, base, n));
    },

    /** How many compressed keys (DeepSeek-V4) the query at each position sees: Float64Array. */
    compressedKeys(compressRate, positions) {
      const rate = check.integer('compressRate', compressRate, 1);
      return perPosition(positions, 'compressedKeys()', (base, n) => module.compressedKeys(rate, base, n));
    },
  };
}
