// wasm/js/positions.js — the angle table p·θ_i (core: posenc/angle_table.hpp) and the input
// layer scale·e + PE(p) (core: posenc/embedding.hpp). Each call reads its options once, as a
// snapshot of the object's own data properties, so a getter, a Proxy trap or an inherited
// (prototype-polluted) value cannot change an argument between its check and its use.
import { unwrap } from './errors.js';

const LAYOUTS = ['interleaved', 'concat'];

function kind(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an Array';
  if (ArrayBuffer.isView(v)) return `a ${Object.getPrototypeOf(v)?.constructor?.name ?? 'typed array'}`;
  return typeof v === 'string' ? `the string '${v}'` : typeof v;
}

/** Own data properties of `opts` named in `allowed`, each read exactly once. */
function snapshot(opts, fn, allowed) {
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new TypeError(`posenc: ${fn} options must be an object, got ${kind(opts)}`);
  }
  const out = { __proto__: null };
  for (const key of Reflect.ownKeys(opts)) {
    const d = Reflect.getOwnPropertyDescriptor(opts, key);
    if (d === undefined || !d.enumerable) continue;
    if (typeof key !== 'string' || !allowed.includes(key)) {
      throw new TypeError(`posenc: unknown option '${String(key)}' of ${fn}; allowed: ${allowed.join(', ')}`);
    }
    if (!('value' in d)) throw new TypeError(`posenc: ${fn} option '${key}' must be a plain value, not a getter`);
    out[key] = d.value;
  }
  return out;
}

function int32(name, v) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer, got ${kind(v)}`);
  if (!Number.isInteger(v) || v < -(2 ** 31) || v > 2 ** 31 - 1) {
    throw new RangeError(`posenc: ${name} must be an integer in [-2147483648, 2147483647], got ${v}`);
  }
  return v;
}

function finite(name, v) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be a number, got ${kind(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`posenc: ${name} must be a finite number, got ${v}`);
  return v;
}

/** True for a view of a transferred buffer (ArrayBuffer.prototype.detached is newer than Node 20). */
function detached(v) {
  if (v.buffer.detached !== undefined) return v.buffer.detached;
  if (v.byteLength !== 0) return false;
  try {
    v.subarray(0, 0);  // a view of a detached buffer cannot be made
    return false;
  } catch {
    return true;
  }
}

/** An Int32Array (copied) or an array of int32 numbers → a fresh Int32Array. */
function positionsArg(v) {
  if (v instanceof Int32Array) {
    if (detached(v)) throw new TypeError('posenc: positions is a detached Int32Array');
    return Int32Array.from(v);
  }
  if (!Array.isArray(v)) throw new TypeError(`posenc: positions must be an Int32Array or an array of integers, got ${kind(v)}`);
  const n = v.length;  // read once: a Proxy could report another length on every read
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = int32(`positions[${i}]`, v[i]);
  return out;
}

function floatsArg(name, v) {
  if (!(v instanceof Float32Array)) throw new TypeError(`posenc: ${name} must be a Float32Array, got ${kind(v)}`);
  if (detached(v)) throw new TypeError(`posenc: ${name} is a detached Float32Array`);
  return Float32Array.from(v);  // a snapshot: staging may grow memory, and e may view it
}

export function positionsApi({ module, heap }) {
  const baseOf = (o) => (o.base === undefined ? 10000 : finite('base', o.base));
  return {
    /** p·θ_i for each listed position, Float64Array(positions.length · dim/2), row-major. */
    positionAngles(opts) {
      const o = snapshot(opts, 'positionAngles()', ['dim', 'base', 'positions']);
      const dim = int32('dim', o.dim);
      const base = baseOf(o);
      const positions = positionsArg(o.positions);
      return heap.stage([positions], 'positionAngles()', ([p]) =>
        unwrap(module.positionAngles(dim, base, p, positions.length)));
    },

    /** scale·e + PE(positions[r]) row by row: e is positions.length × dim floats → Float32Array. */
    addSinusoidal(opts) {
      const o = snapshot(opts, 'addSinusoidal()', ['e', 'dim', 'base', 'positions', 'scale', 'layout']);
      const e = floatsArg('e', o.e);
      const dim = int32('dim', o.dim);
      const base = baseOf(o);
      const positions = positionsArg(o.positions);
      const scale = o.scale === undefined ? 1 : finite('scale', o.scale);
      const layout = o.layout === undefined ? 'interleaved' : o.layout;
      if (typeof layout !== 'string') throw new TypeError(`posenc: layout must be a string, got ${kind(layout)}`);
      if (!LAYOUTS.includes(layout)) throw new RangeError(`posenc: layout must be 'interleaved' or 'concat', got '${layout}'`);
      return heap.stage([e, positions], 'addSinusoidal()', ([pe, pp]) =>
        unwrap(module.addSinusoidal(pe, e.length, dim, base, pp, positions.length, scale, layout)));
    },
  };
}
