// wasm/js/check.js — the package boundary: every user value is read here, once.
//
// The rule every public function follows (index.d.ts states it for users):
//   1. `options(value, fn, keys)` reads the options object into a record whose prototype
//      chain holds no keys (a plain one, or a `recordOf` class's with every key present): its
//      own string keys only (enumerable or not), each read once through its property
//      descriptor — a data property gives its value, an accessor's getter is called exactly
//      once (with the object as `this`) and that value is used, a setter-only accessor reads
//      as undefined. Inherited keys are never looked at, symbol keys are ignored, and an own
//      key that is not an option is a TypeError. A Proxy sees one ownKeys and one
//      getOwnPropertyDescriptor trap per key.
//   2. The record's values are type-checked, never coerced (no valueOf / toString runs):
//      numbers must be numbers, lists are copied element by element (own elements only,
//      each read once; a hole is a TypeError), typed arrays are identified by their internal
//      type and measured with the %TypedArray% getters captured below, which no property of
//      the array can shadow. Sizes are checked before anything is allocated.
//   3. Only then does the caller resolve handles (rope, tensors: private state, checked
//      live), allocate and copy. No user code can run from there to the return, so a
//      handle disposed or an option changed by a getter is seen, and a posenc call made
//      from inside a getter runs to completion before the outer call touches memory.
// A wrong type is a TypeError, a value outside its range a RangeError; every message names
// the JS argument. Ranges that depend on other arguments are the core's (its messages name
// the argument as well).

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** The longest list any option takes (positions: one int32 per token, 1 GiB). */
export const MAX_LIST = 2 ** 28;

// ---- intrinsics, captured when the package loads ---------------------------------------

// uncurry(f)(self, ...args) = f.call(self, ...args), immune to later patching of call/bind.
const uncurry = Function.prototype.bind.bind(Function.prototype.call);
const { apply: reflectApply, getOwnPropertyDescriptor } = Reflect;
// Own string keys, enumerable or not (a Proxy's ownKeys trap, once); symbols are left out.
// (Reflect.ownKeys says the same with symbols, and is far slower on V8: decode calls read
// their options once per token.)
const ownNames = Object.getOwnPropertyNames;
// The prototype of every options record: no keys, frozen, so a record answers only its own.
const NO_KEYS = Object.freeze(Object.create(null));
const objectCreate = Object.create;
const { freeze, setPrototypeOf } = Object;
const NO_ARGS = Object.freeze([]);
const getterOf = (proto, key) => uncurry(Object.getOwnPropertyDescriptor(proto, key).get);
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayLength = getterOf(TypedArrayPrototype, 'length');
const typedArrayByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
const typedArrayBuffer = getterOf(TypedArrayPrototype, 'buffer');
const typedArraySet = uncurry(TypedArrayPrototype.set);
const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
const arrayBufferDetached = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')
  ? getterOf(ArrayBuffer.prototype, 'detached') : null;
// Whether an ArrayBuffer is resizable (throws for a SharedArrayBuffer); null on engines
// without resizable buffers, where every ArrayBuffer has a fixed size.
const arrayBufferResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')
  ? getterOf(ArrayBuffer.prototype, 'resizable') : null;
const isArray = Array.isArray;
const hasOwn = Object.hasOwn;
const NumberIsInteger = Number.isInteger;
const NumberIsFinite = Number.isFinite;
const NumberCtor = Number;
const StringCtor = String;
const Uint8 = Uint8Array;
export const Float32 = Float32Array;
export const Float64 = Float64Array;
export const Int32 = Int32Array;
export const Uint16 = Uint16Array;

/** The internal type of a typed array ('Float32Array', …), or undefined for anything else. */
export const tagOf = (v) => typedArrayTag(v);
export const lengthOf = (a) => typedArrayLength(a);
export const byteOffsetOf = (a) => typedArrayByteOffset(a);
export const bufferOf = (a) => typedArrayBuffer(a);
/** target.set(source, offset) for typed arrays, by the intrinsic (no species, no getters). */
export const copyInto = (target, source, offset) => typedArraySet(target, source, offset);

const VIEWS = freeze({ __proto__: null, Float32Array: Float32, Float64Array: Float64, Int32Array: Int32,
  Uint16Array: Uint16, BigInt64Array });

/**
 * `a` (a checked, attached typed array of internal type `tag`) pinned to the elements it
 * has now (a Float16Array of shared or resizable memory becomes a Uint16Array of its
 * bits). A view of a fixed-size ArrayBuffer is returned as is (its length changes only
 * by detaching, which every copy checks: heap.js put). A view of a SharedArrayBuffer
 * becomes a fixed-length view of the measured range: another thread may grow a growable
 * one at any moment, and a length-tracking view would then be longer when copied than
 * when measured. A view of a resizable ArrayBuffer is copied when `snapshot` (inputs:
 * user code that runs later, a getter of a later option, may shrink it), else a
 * fixed-length view too (targets, resolved after every option was read). Whatever was
 * measured is all that is ever read or written.
 */
export function pinned(a, tag, snapshot = true) {
  const kind = bufferKind(typedArrayBuffer(a));
  if (kind === 0) return a;
  // A Float16Array's bits (every caller stages 16-bit data as a Uint16Array).
  const View = tag === 'Float16Array' ? Uint16 : VIEWS[tag];
  const fixed = new View(typedArrayBuffer(a), typedArrayByteOffset(a), typedArrayLength(a));
  return kind === 1 && snapshot ? copyOf(fixed) : fixed;
}

/** 0: a fixed-size ArrayBuffer, 1: a resizable one, 2: a SharedArrayBuffer. */
export function bufferKind(buffer) {
  try {
    if (arrayBufferResizable !== null) return arrayBufferResizable(buffer) ? 1 : 0;
    arrayBufferByteLength(buffer);
    return 0;
  } catch {
    return 2; // the ArrayBuffer getters throw for a SharedArrayBuffer
  }
}

/** A new typed array of the same internal type and contents (intrinsic constructor). */
export function copyOf(a, tag = typedArrayTag(a)) {
  const out = new VIEWS[tag](typedArrayLength(a));
  typedArraySet(out, a, 0);
  return out;
}

// ---- messages --------------------------------------------------------------------------

let tensorBrand = () => false;
/** heap.js registers how a posenc tensor is recognised (for messages only). */
export function setTensorBrand(isTensor) {
  tensorBrand = isTensor;
}

// Code points a message shows escaped: C0 / C1 controls and DEL, the line and paragraph
// separators, bidirectional and zero-width format characters, BOM, lone surrogates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff'\\]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t', "'": "\\'", '\\': '\\\\' };
const QUOTE_MAX = 40;

/**
 * A caller's string as a message shows it: quoted, its first 40 characters with every
 * control, separator, bidirectional or invisible character (and quote, backslash) escaped,
 * and for a longer string "…" and its length. A message never carries a caller's newline,
 * ANSI escape or NUL, nor more than 40 of its characters.
 */
export function quote(text) {
  const head = text.length > QUOTE_MAX ? text.slice(0, QUOTE_MAX) : text;
  const shown = head.replace(UNSAFE, (c) => ESCAPES[c] ??
    `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > QUOTE_MAX ? `'${shown}…' (${text.length} characters)` : `'${shown}'`;
}

/** What v is, for a message: runs no user code (no toString, no constructor lookup). */
export function describe(v) {
  switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'number': return `${v}`;
    case 'bigint': return `the BigInt ${v}n`;
    case 'boolean': return `${v}`;
    case 'symbol': return 'a Symbol';
    case 'function': return 'a function';
    case 'string': return `the string ${quote(v)}`;
    default: break;
  }
  if (v === null) return 'null';
  if (isRevoked(v)) return 'a revoked Proxy';
  const tag = typedArrayTag(v);
  if (tag !== undefined) return `a ${tag} of length ${typedArrayLength(v)}`;
  if (tensorBrand(v)) return 'a posenc tensor';
  try {
    if (isArray(v)) return 'an Array';
    arrayBufferByteLength(v);
    return 'an ArrayBuffer (pass a typed array viewing it)';
  } catch {
    return 'an object';
  }
}

// ---- the options record ----------------------------------------------------------------

/**
 * A record class for `options` (the methods a decode loop calls once per token): the
 * class's fields, each undefined, are the allowed keys, and its prototype chain is made to
 * hold no keys. Every record of one class has the same shape whatever the user's objects
 * look like, so the caller's reads of it stay monomorphic instead of meeting one shape per
 * key order and key subset. Returns the class; its allowed keys are keysOf(Record).
 */
export function recordOf(Record) {
  delete Record.prototype.constructor;
  setPrototypeOf(Record.prototype, NO_KEYS);
  freeze(Record.prototype);
  return Record;
}

/** The allowed keys of a recordOf class, in field order. */
export const keysOf = (Record) => ownNames(new Record());

/**
 * The record of `value`'s own options (see the rule at the top), with only `allowed`
 * keys, written into `record` (a fresh recordOf instance, or by default a plain record);
 * undefined → the record with no option set. `fn` names the function in messages.
 */
export function options(value, fn, allowed, record = objectCreate(NO_KEYS)) {
  if (value === undefined) return record;
  if (value !== null && typeof value === 'object' && isRevoked(value)) {
    throw new TypeError(`posenc: the options of ${fn} are a revoked Proxy`);
  }
  if (value === null || typeof value !== 'object' || isArray(value)) {
    throw new TypeError(`posenc: the options of ${fn} must be an object, got ${describe(value)}`);
  }
  let keys;
  try {
    keys = ownNames(value);
  } catch {
    // A Proxy whose ownKeys trap throws or breaks its invariants (a key listed twice).
    throw new TypeError(`posenc: the options of ${fn} are a Proxy whose ownKeys trap fails (it throws, or ` +
      'lists a key twice or a key the target does not allow)');
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!includes(allowed, key)) {
      throw new TypeError(`posenc: unknown option ${quote(key)} of ${fn}; allowed: ${allowed.join(', ')}`);
    }
    const d = getOwnPropertyDescriptor(value, key);
    if (d === undefined) continue; // a Proxy listed a key it does not have
    record[key] = descriptorValue(d, value);
  }
  return record;
}

/** The own `key` of an object, read by the same rule (weights.wq, an array's length). */
export function field(object, key) {
  const d = getOwnPropertyDescriptor(object, key);
  if (d === undefined) return undefined;
  return descriptorValue(d, object);
}

/** The value a property descriptor stands for: its value, or its getter's result (called once). */
export function descriptorValue(d, self) {
  if (hasOwn(d, 'value')) return d.value;
  return d.get === undefined ? undefined : reflectApply(d.get, self, NO_ARGS);
}

/** Whether the plain list holds v (===; no Array.prototype method runs). */
export function includes(list, v) {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}

// ---- scalars ---------------------------------------------------------------------------

/** A finite number. */
export function number(name, v) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be a number, got ${describe(v)}`);
  if (!NumberIsFinite(v)) throw new RangeError(`posenc: ${name} must be a finite number, got ${v}`);
  return v;
}

/** An integer in [lo, hi] (the C++ parameter type's range, not the allowed range). */
export function integer(name, v, lo = INT32_MIN, hi = INT32_MAX) {
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer, got ${describe(v)}`);
  if (!NumberIsInteger(v) || v < lo || v > hi) {
    throw new RangeError(`posenc: ${name} must be an integer in [${lo}, ${hi}], got ${v}`);
  }
  return v;
}

/** The largest dim (posenc::max_dim, posenc/frequencies.hpp). */
export const MAX_DIM = 65536;

/**
 * A dim (dim, headDim, rotaryDim): an integer, passed on for the core to check evenness and
 * range against the others; a non-integer, or an integer no int parameter holds, is refused
 * here with the dim's own range (never the int32 range of the C++ type).
 */
export function dim(name, v) {
  if (typeof v !== 'number') {
    throw new TypeError(`posenc: ${name} must be an even integer in [2, ${MAX_DIM}], got ${describe(v)}`);
  }
  if (!NumberIsInteger(v) || v < INT32_MIN || v > INT32_MAX) {
    throw new RangeError(`posenc: ${name} must be an even integer in [2, ${MAX_DIM}], got ${v}`);
  }
  return v;
}

/**
 * An integer exactly representable as a double (positions, starts, deltas: int64 in C++):
 * a number, or a BigInt (int64 position ids) in the same range → a number.
 */
export function safeInteger(name, v) {
  if (typeof v === 'bigint') {
    if (v < -(2n ** 53n - 1n) || v > 2n ** 53n - 1n) {
      throw new RangeError(`posenc: ${name} must be an integer in [${Number.MIN_SAFE_INTEGER}, ${Number.MAX_SAFE_INTEGER}], got ${v}n`);
    }
    return NumberCtor(v);
  }
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
  if (!NumberIsInteger(v)) throw new RangeError(`posenc: ${name} must be an integer, got ${v}`);
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

/** One of the strings in `allowed` (layout and mode names, as in index.d.ts). */
export function oneOf(name, v, allowed) {
  string(name, v);
  if (!includes(allowed, v)) {
    throw new RangeError(`posenc: ${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${describe(v)}`);
  }
  return v;
}

/** A seed: a safe integer ≥ 0 or a BigInt in [0, 2^64) → [lo32, hi32]. */
export function seed(name, v) {
  if (typeof v === 'bigint') {
    if (v < 0n || v >= 1n << 64n) throw new RangeError(`posenc: ${name} must be in [0, 2^64), got ${v}`);
    return [NumberCtor(v & 0xffffffffn), NumberCtor(v >> 32n)];
  }
  integer(name, v, 0, Number.MAX_SAFE_INTEGER);
  return [v % 2 ** 32, Math.floor(v / 2 ** 32)];
}

// ---- typed arrays ----------------------------------------------------------------------

/**
 * True for a typed array whose buffer was transferred away, or an old view of WebAssembly
 * memory after it grew. Such a view measures 0 elements; a genuinely empty array is not
 * detached (ArrayBuffer.prototype.detached is missing before Node 22 / Chrome 114: making
 * a view of a detached buffer throws).
 */
function isDetached(a) {
  if (typedArrayLength(a) !== 0) return false;
  const buffer = typedArrayBuffer(a);
  if (arrayBufferDetached !== null) {
    try {
      return arrayBufferDetached(buffer);
    } catch {
      return false; // a SharedArrayBuffer cannot be detached
    }
  }
  try {
    new Uint8(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

function detachedError(name, tag) {
  return new TypeError(`posenc: ${name} is a detached ${tag} (its buffer was transferred, or ` +
    'it is an old view of WebAssembly memory that has since grown: re-read tensor.array)');
}

/**
 * A typed array whose internal type is `tag` and whose buffer is still attached, pinned
 * (see pinned; `snapshot` false for a target written in place).
 */
export function typedArray(name, v, tag, snapshot = true) {
  if (typedArrayTag(v) !== tag) throw new TypeError(`posenc: ${name} must be a ${tag}, got ${describe(v)}`);
  if (isDetached(v)) throw detachedError(name, tag);
  return pinned(v, tag, snapshot);
}

/**
 * Throws the TypeError naming `name` when `a`, checked earlier, has been detached since
 * (by a getter of a later option): the copying boundary (heap.js) calls this before it
 * reads or writes an argument.
 */
export function stillAttached(name, a) {
  if (typedArrayLength(a) === 0 && isDetached(a)) throw detachedError(name, typedArrayTag(a));
}

export function float32Array(name, v, snapshot = true) {
  return typedArray(name, v, 'Float32Array', snapshot);
}

/**
 * A Float32Array input that is only read (q, k, x, rows): returned as is, or copied when
 * it views WebAssembly memory (`heapBuffer`), whose growth would detach it.
 */
export function floatInput(name, v, heapBuffer) {
  const a = float32Array(name, v);
  return typedArrayBuffer(a) === heapBuffer ? copyOf(a, 'Float32Array') : a;
}

/** A Float32Array of an even number ≥ 2 of floats (dim = its length). */
export function evenRow(name, v, heapBuffer) {
  const row = floatInput(name, v, heapBuffer);
  const n = typedArrayLength(row);
  if (n < 2 || n % 2 !== 0) {
    throw new RangeError(`posenc: ${name} must hold an even number ≥ 2 of values (its length is the dim), got ${n}`);
  }
  return row;
}

// ---- lists -----------------------------------------------------------------------------

// The length of a plain array (own `length`, checked ≤ max before anything is allocated).
function listLength(name, v, max) {
  const n = field(v, 'length');
  if (typeof n !== 'number' || !NumberIsInteger(n) || n < 0) {
    throw new TypeError(`posenc: ${name} must be an array with a length, got ${describe(v)}`);
  }
  if (n > max) throw new RangeError(`posenc: ${name} holds ${n} values, more than the ${max} allowed`);
  return n;
}

// Element i of a plain array: an own element, read once; a hole is an error.
function element(name, v, i) {
  const d = getOwnPropertyDescriptor(v, StringCtor(i));
  if (d === undefined) throw new TypeError(`posenc: ${name}[${i}] is missing (a hole in the array)`);
  return descriptorValue(d, v);
}

// One position: an int32 number, or a BigInt (int64 position ids) within ±2^53 and int32.
function position(name, i, p) {
  if (typeof p === 'bigint') {
    if (p < -(2n ** 53n) || p > 2n ** 53n) {
      throw new RangeError(`posenc: ${name}[${i}] must be within ±2^53, got ${p}n`);
    }
    if (p < -(2n ** 31n) || p >= 2n ** 31n) {
      throw new RangeError(`posenc: ${name}[${i}] = ${p}n is outside [${INT32_MIN}, ${INT32_MAX}], the range of ` +
        'a position list (contiguous positions up to 2^53: use start)');
    }
    return NumberCtor(p);
  }
  if (typeof p !== 'number') {
    throw new TypeError(`posenc: ${name}[${i}] must be an integer or a BigInt, got ${describe(p)}`);
  }
  if (!NumberIsInteger(p) || p < INT32_MIN || p > INT32_MAX) {
    throw new RangeError(`posenc: ${name}[${i}] must be an integer in [${INT32_MIN}, ${INT32_MAX}] (a position ` +
      `list; contiguous positions up to 2^53: use start), got ${p}`);
  }
  return p;
}

/**
 * Positions → an Int32Array: an Int32Array as is (copied when it views WebAssembly
 * memory), a BigInt64Array (transformers.js / onnxruntime position ids) or an array of
 * numbers / BigInts converted. Values outside ±2^53 or int32 → RangeError naming `name`.
 */
export function positions(name, v, heapBuffer) {
  const tag = typedArrayTag(v);
  if (tag === 'Int32Array') {
    if (isDetached(v)) throw detachedError(name, tag);
    const a = pinned(v, tag);
    return typedArrayBuffer(a) === heapBuffer ? copyOf(a, tag) : a;
  }
  if (tag === 'BigInt64Array') {
    if (isDetached(v)) throw detachedError(name, tag);
    const n = typedArrayLength(v);
    const out = new Int32(n);
    for (let i = 0; i < n; i++) out[i] = position(name, i, v[i]);
    return out;
  }
  if (tag !== undefined || !isArrayish(v)) {
    throw new TypeError(`posenc: ${name} must be an Int32Array, a BigInt64Array or an array of integers, got ${describe(v)}`);
  }
  const n = listLength(name, v, MAX_LIST);
  const out = new Int32(n);
  for (let i = 0; i < n; i++) out[i] = position(name, i, element(name, v, i));
  return out;
}

/**
 * Calls visit(element, i, count) for each own element of a plain array of at most `max`
 * (each read once, a hole is a TypeError) and returns the count: no array is built, so no
 * inherited index setter can run.
 */
export function eachElement(name, v, max, visit) {
  if (typedArrayTag(v) !== undefined || !isArrayish(v)) {
    throw new TypeError(`posenc: ${name} must be an array, got ${describe(v)}`);
  }
  const n = listLength(name, v, max);
  for (let i = 0; i < n; i++) visit(element(name, v, i), i, n);
  return n;
}

/** Float64Array / Float32Array or an array of finite numbers, at most `max` → Float64Array. */
export function numberList(name, v, max) {
  const tag = typedArrayTag(v);
  if (tag === 'Float64Array' || tag === 'Float32Array') {
    if (isDetached(v)) throw detachedError(name, tag);
    const n = typedArrayLength(v);
    if (n > max) throw new RangeError(`posenc: ${name} holds ${n} values, more than the ${max} allowed`);
    const out = new Float64(n);
    for (let i = 0; i < n; i++) out[i] = number(`${name}[${i}]`, v[i]);
    return out;
  }
  if (tag !== undefined || !isArrayish(v)) {
    throw new TypeError(`posenc: ${name} must be an array of numbers, got ${describe(v)}`);
  }
  const n = listLength(name, v, max);
  const out = new Float64(n);
  for (let i = 0; i < n; i++) out[i] = number(`${name}[${i}]`, element(name, v, i));
  return out;
}

// True for a revoked Proxy (Array.isArray is the one intrinsic that tells, by throwing).
function isRevoked(v) {
  try {
    isArray(v);
    return false;
  } catch {
    return true;
  }
}

function isArrayish(v) {
  try {
    return isArray(v);
  } catch {
    return false; // a revoked Proxy
  }
}
