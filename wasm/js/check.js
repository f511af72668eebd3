// wasm/js/check.js — type checks made before anything crosses into WebAssembly.
//
// Only types and shapes are checked here (a wrong type → TypeError; a number that is NaN,
// infinite, fractional or outside the C++ parameter type → RangeError). Whether a value is
// in its allowed range (dim even and ≤ 65536, base > 1, …) is decided by the core, whose
// RangeError names the argument and the range. Every message names the argument.

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an Array';
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'object') return `a ${v.constructor?.name ?? 'object'}`;
  if (typeof v === 'string') return `the string '${v}'`;
  return `${typeof v} ${String(v)}`;
}

/** The options object of `fn`, with only `allowed` keys; undefined → {}. */
export function options(value, fn, allowed) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`posenc: ${fn} options must be an object, got ${describe(value)}`);
  }
  // for…in + hasOwn, not Object.keys: no array per call (rope.apply runs once per token).
  for (const key in value) {
    if (Object.hasOwn(value, key) && !allowed.includes(key)) {
      throw new TypeError(
        `posenc: unknown option '${key}' of ${fn}; allowed: ${allowed.join(', ')}`);
    }
  }
  return value;
}

/** A finite number. */
export function number(name, v) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be a number, got ${describe(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`posenc: ${name} must be a finite number, got ${v}`);
  return v;
}

/** An integer in [lo, hi] (the C++ parameter type's range, not the allowed range). */
export function integer(name, v, lo = INT32_MIN, hi = INT32_MAX) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer, got ${describe(v)}`);
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`posenc: ${name} must be an integer in [${lo}, ${hi}], got ${v}`);
  }
  return v;
}

/** An integer exactly representable as a double (positions, starts, deltas: int64 in C++). */
export function safeInteger(name, v) {
  return integer(name, v, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/**
 * An integer the core takes as int64 and range-checks itself (counts with a documented
 * maximum): only "is an integer" is checked here, so that every out-of-range value gets the
 * core's one message with the real range. Beyond ±2^53 (outside every such range, and not
 * exact in a double) the value is clamped, which keeps the C++ conversion defined.
 */
export function int64(name, v) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer, got ${describe(v)}`);
  if (!Number.isInteger(v)) throw new RangeError(`posenc: ${name} must be an integer, got ${v}`);
  return Math.min(2 ** 53, Math.max(-(2 ** 53), v));
}

/** A count or size: an integer ≥ 0 (upper bound left to the core / memory). */
export function size(name, v) {
  return integer(name, v, 0, Number.MAX_SAFE_INTEGER);
}

export function boolean(name, v) {
  if (typeof v !== 'boolean') throw new TypeError(`posenc: ${name} must be a boolean, got ${describe(v)}`);
  return v;
}

export function string(name, v) {
  if (typeof v !== 'string') throw new TypeError(`posenc: ${name} must be a string, got ${describe(v)}`);
  return v;
}

/**
 * True for a typed array whose buffer was transferred away, or an old view of WebAssembly
 * memory after it grew. Such a view reads as empty but throws on use; a genuinely empty
 * array does not (ArrayBuffer.prototype.detached is missing before Node 22 / Chrome 114).
 */
function isDetached(v) {
  if (v.buffer.detached !== undefined) return v.buffer.detached;
  if (v.byteLength !== 0) return false;
  try {
    v.subarray(0, 0); // constructing a view on a detached buffer throws
    return false;
  } catch {
    return true;
  }
}

/** A typed array of `type` whose buffer is still attached. */
export function typedArray(name, v, type) {
  if (!(v instanceof type)) throw new TypeError(`posenc: ${name} must be a ${type.name}, got ${describe(v)}`);
  if (isDetached(v)) {
    throw new TypeError(`posenc: ${name} is a detached ${type.name} (its buffer was transferred, or ` +
      'it is an old view of WebAssembly memory that has since grown: re-read tensor.array)');
  }
  return v;
}

export function float32Array(name, v) {
  return typedArray(name, v, Float32Array);
}

/** One of the strings in `allowed` (layout and mode names, as in index.d.ts). */
export function oneOf(name, v, allowed) {
  string(name, v);
  if (!allowed.includes(v)) {
    throw new RangeError(`posenc: ${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got '${v}'`);
  }
  return v;
}

/** A row of an even number ≥ 2 of floats (dim = its length). */
export function evenRow(name, v) {
  float32Array(name, v);
  if (v.length < 2 || v.length % 2 !== 0) {
    throw new RangeError(`posenc: ${name} must hold an even number ≥ 2 of values (its length is the dim), got ${v.length}`);
  }
  return v;
}

/** Int32Array or an array of int32 numbers → Int32Array (no copy for an Int32Array). */
export function int32Array(name, v) {
  if (v instanceof Int32Array) return typedArray(name, v, Int32Array);
  if (!Array.isArray(v)) {
    throw new TypeError(`posenc: ${name} must be an Int32Array or an array of integers, got ${describe(v)}`);
  }
  const out = new Int32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = integer(`${name}[${i}]`, v[i]);
  return out;
}

/** Float64Array / Float32Array or an array of finite numbers → Float64Array. */
export function float64Array(name, v) {
  if (ArrayBuffer.isView(v) && isDetached(v)) typedArray(name, v, v.constructor);
  if (v instanceof Float64Array || v instanceof Float32Array || Array.isArray(v)) {
    const out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = number(`${name}[${i}]`, v[i]);
    return out;
  }
  throw new TypeError(`posenc: ${name} must be an array of numbers, got ${describe(v)}`);
}

/** A seed: a safe integer ≥ 0 or a BigInt in [0, 2^64) → [lo32, hi32]. */
export function seed(name, v) {
  if (typeof v === 'bigint') {
    if (v < 0n || v >= 1n << 64n) throw new RangeError(`posenc: ${name} must be in [0, 2^64), got ${v}`);
    return [Number(v & 0xffffffffn), Number(v >> 32n)];
  }
  integer(name, v, 0, Number.MAX_SAFE_INTEGER);
  return [v % 2 ** 32, Math.floor(v / 2 ** 32)];
}
