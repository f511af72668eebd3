// wasm/js/axes.js — image and video models: the `axes` option of pe.rope (a preset name or an
// explicit per-axis description; core: posenc/axes.hpp) and their position grids
// (pe.axesPositions; core: posenc/axes_positions.hpp). Options are read and type-checked here
// (own properties, once); every range and every preset name is the core's.
import * as check from './check.js';
import { unwrap } from './errors.js';

const AXES_KEYS = ['dims', 'names', 'scales'];
const GRID_KEYS = ['model', 'frames', 'height', 'width', 'textTokens', 'references', 'version', 'baseHeight',
  'baseWidth', 'prefixTokens'];
// Longer lists than any model has are refused here; the core names the real bound (4 axes).
const MAX_LIST = 64;
const MAX_REFERENCES = 1024;

/** Two integers of a [first, second] pair (a grid, a reference image's size). */
export function pair(name, v, what) {
  const out = [0, 0];
  const n = check.eachElement(name, v, 2, (e, i) => { out[i] = check.integer(`${name}[${i}]`, e); });
  if (n !== 2) throw new RangeError(`posenc: ${name} must hold 2 values (${what}), got ${n}`);
  return out;
}

/**
 * rope({ axes }) → { preset, block, names, n }: a preset name (passed to the core as is), or
 * { dims, names?, scales? } staged as n (dims, scale) double pairs with comma-joined names.
 */
export function axesOption(v) {
  if (typeof v === 'string') return { preset: v, block: null, names: '', n: 0 };
  const o = check.options(v, 'rope() (axes)', AXES_KEYS);
  if (o.dims === undefined) {
    throw new TypeError('posenc: axes.dims is required (the rotary dims of each axis, in order: diffusers axes_dim)');
  }
  const dims = check.numberList('axes.dims', o.dims, MAX_LIST);
  const n = check.lengthOf(dims);
  const block = new check.Float64(2 * n);
  for (let a = 0; a < n; a++) {
    block[2 * a] = check.integer(`axes.dims[${a}]`, dims[a]);
    block[2 * a + 1] = 1;
  }
  let names = '';
  if (o.names === undefined) {
    for (let a = 0; a < n; a++) names += `${a === 0 ? '' : ','}a${a}`;
  } else {
    const m = check.eachElement('axes.names', o.names, MAX_LIST, (e, a) => {
      const s = check.string(`axes.names[${a}]`, e);
      for (let i = 0; i < s.length; i++) {
        if (s[i] === ',') throw new RangeError(`posenc: axes.names[${a}] must not contain a comma, got '${s}'`);
      }
      names += `${a === 0 ? '' : ','}${s}`;
    });
    if (m !== n) throw new RangeError(`posenc: axes.names holds ${m} names but axes.dims ${n} axes`);
  }
  if (o.scales !== undefined) {
    const scales = check.numberList('axes.scales', o.scales, MAX_LIST);
    if (check.lengthOf(scales) !== n) {
      throw new RangeError(`posenc: axes.scales holds ${check.lengthOf(scales)} values but axes.dims ${n} axes`);
    }
    for (let a = 0; a < n; a++) block[2 * a + 1] = scales[a];
  }
  return { preset: '', block, names, n };
}

/** Calls call(ptr) with the description's block staged (0 for a preset). */
export function withBands(heap, axes, call) {
  if (axes.block === null || axes.n === 0) return call(0);
  const ptr = heap.acquire(8 * axes.block.length, 'rope()');
  try {
    heap.put(ptr, axes.block, 'Float64Array');
    return call(ptr);
  } finally {
    heap.release(ptr);
  }
}

/**
 * Real-valued positions: a Float64Array (copied when it views WebAssembly memory), or null
 * when v is not one (the caller reads it as integer positions).
 */
export function realPositions(name, v, heapBuffer) {
  if (check.tagOf(v) !== 'Float64Array') return null;
  check.typedArray(name, v, 'Float64Array');
  return check.bufferOf(v) === heapBuffer ? check.copyOf(v, 'Float64Array') : v;
}

export function axesApi({ module, heap }) {
  return {
    /** The positions [axes][tokens] of a model's sequence; index.d.ts has the contract. */
    axesPositions(opts) {
      const o = check.options(opts, 'axesPositions()', GRID_KEYS);
      if (o.model === undefined) throw new TypeError('posenc: axesPositions() needs model (a preset name, e.g. \'flux\')');
      const model = check.string('model', o.model);
      const int = (key, fallback) => (o[key] === undefined ? fallback : check.integer(key, o[key]));
      if (o.height === undefined || o.width === undefined) {
        throw new TypeError('posenc: axesPositions() needs height and width (the token grid)');
      }
      let refs = new check.Float64(0);
      if (o.references !== undefined) {
        check.eachElement('references', o.references, MAX_REFERENCES, (e, k, count) => {
          if (k === 0) refs = new check.Float64(2 * count);
          const [h, w] = pair(`references[${k}]`, e, 'height, width');
          refs[2 * k] = h;
          refs[2 * k + 1] = w;
        });
      }
      const version = o.version === undefined ? '' : check.string('version', o.version);
      const args = [model, int('frames', 1), int('height'), int('width'), int('textTokens', 0)];
      const rest = [version, int('baseHeight', 0), int('baseWidth', 0), int('prefixTokens', 0)];
      const p = refs.length === 0 ? 0 : heap.acquire(8 * refs.length, 'axesPositions()');
      let r;
      try {
        if (p !== 0) heap.put(p, refs, 'Float64Array');
        r = module.axesPositions(...args, p, refs.length / 2, ...rest);
      } finally {
        if (p !== 0) heap.release(p);
      }
      const all = heap.take(unwrap(module, r), 'Float64Array');
      const n = check.lengthOf(all) - 1;
      const axes = all[n];
      const values = new check.Float64(check.bufferOf(all), 0, n);
      let integral = true;
      for (let i = 0; i < n && integral; i++) integral = values[i] === Math.trunc(values[i]);
      if (!integral) return { positions: values, axes, tokens: n / axes };
      const ints = new check.Int32(n);
      for (let i = 0; i < n; i++) ints[i] = values[i];
      return { positions: ints, axes, tokens: n / axes };
    },
  };
}
