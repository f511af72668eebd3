// wasm/js/heap.js — moving arrays in and out of WebAssembly memory, and resident tensors.
//
// Memory may grow during any call that allocates, which detaches every typed-array view of
// the old buffer; so a view is used only on the module's current buffer, checked right
// before use (a view kept across calls is re-made once the buffer changed). Copies go
// through the intrinsic %TypedArray% set (check.js copyInto): nothing a caller can
// override runs while memory is written.
//
// The copying path stages arguments in one reusable scratch block: calls whose arguments
// fit in SCRATCH_KEEP bytes do no malloc at all; bigger ones get a block of their own that
// is freed when the call returns (so one huge call does not pin its size forever). The
// block is taken only after every argument was read (check.js), so no user code can run
// while it is in use; `busy` still refuses a nested taker, should one ever appear.
import { Float32, Float64, Int32, Uint16, bufferOf, copyInto, lengthOf, setTensorBrand, stillAttached } from './check.js';
import { withKind } from './errors.js';

const SCRATCH_KEEP = 1 << 20;
const ALIGN = 16;

export const align = (n) => Math.ceil(n / ALIGN) * ALIGN;

/** Debug: a module's WebAssembly memory size and allocator bytes in use (for leak tests). */
export const memoryStats = (module) => ({ memoryBytes: module.HEAPU8.byteLength, heapInUse: module.heapInUse() });

export class Heap {
  // Fields, not assignments: a setter on Object.prototype cannot intercept them.
  module;
  scratchPtr = 0;
  scratchBytes = 0;
  busy = false;
  // Live tensors: address → { bytes, dtype } (never the handles themselves, which stay
  // collectable); used to recognise a typed array that views a tensor's memory.
  tensors = new Map();
  registry;

  constructor(module) {
    this.module = module;
    this.registry = new FinalizationRegistry((ptr) => {
      this.tensors.delete(ptr);
      module._free(ptr);
    });
  }

  // The memory's buffer, read (by the engine's slow intrinsic getter) only when the module
  // replaced HEAPU8, which it does whenever memory grows.
  #u8 = null;
  #buffer = null;
  // The view the last copy-out read (#outOf): a decode loop copies out of the same scratch
  // elements on every call.
  #out = null;
  #outView = null;
  #outBuffer = null;
  #outPtr = 0;
  #outLength = 0;

  /** The module's current memory (intrinsic getter: a patched prototype cannot change it). */
  get buffer() {
    const u8 = this.module.HEAPU8;
    if (u8 !== this.#u8) {
      this.#buffer = bufferOf(u8);
      this.#u8 = u8;
    }
    return this.#buffer;
  }

  /**
   * `bytes` at a 64-byte-aligned address, or RangeError (the module stays usable: the
   * allocator returns 0 instead of aborting).
   */
  malloc(bytes, what) {
    const ptr = bytes > 2 ** 31 ? 0 : this.module._posenc_alloc(Math.max(bytes, 1));
    if (!ptr) {
      throw withKind(new RangeError(`posenc: ${what} needs ${bytes} bytes, more than WebAssembly memory can provide (2 GiB)`),
        'bad_alloc');
    }
    return ptr;
  }

  free(ptr) {
    this.module._free(ptr);
  }

  /**
   * The address of `bytes` bytes of scratch memory for one call; release(ptr) afterwards
   * (in a finally). Resident up to SCRATCH_KEEP, a temporary block beyond.
   */
  acquire(bytes, what) {
    if (this.busy) throw new TypeError(`posenc: ${what} was called from inside another posenc call that is using its memory`);
    let ptr;
    if (bytes <= SCRATCH_KEEP) {
      if (bytes > this.scratchBytes) {
        const grown = Math.max(bytes, Math.min(SCRATCH_KEEP, Math.max(4096, 2 * this.scratchBytes)));
        ptr = this.malloc(grown, what);
        if (this.scratchPtr) this.free(this.scratchPtr);
        this.scratchPtr = ptr;
        this.scratchBytes = grown;
      }
      ptr = this.scratchPtr;
    } else {
      ptr = this.malloc(bytes, what);
    }
    this.busy = true;
    return ptr;
  }

  release(ptr) {
    this.busy = false;
    if (ptr !== this.scratchPtr) this.free(ptr);
  }

  f32(ptr, length) {
    return new Float32(this.buffer, ptr, length);
  }

  u16(ptr, length) {
    return new Uint16(this.buffer, ptr, length);
  }

  /**
   * Copies a Float32Array / Int32Array / Uint16Array / Float64Array (by `tag`) to `ptr`:
   * the elements `a` holds, which check.js pinned when it measured them (a view of shared
   * memory cannot grow under the copy). `name`, for a caller's array: the argument, named
   * by the TypeError if a getter detached the array after it was checked.
   */
  put(ptr, a, tag, name) {
    if (name !== undefined) stillAttached(name, a);
    const m = this.module;
    if (tag === 'Float32Array') copyInto(m.HEAPF32, a, ptr >>> 2);
    else if (tag === 'Int32Array') copyInto(m.HEAP32, a, ptr >>> 2);
    else if (tag === 'Uint16Array') copyInto(m.HEAPU16, a, ptr >>> 1);
    else copyInto(m.HEAPF64, a, ptr >>> 3);
  }

  /** Copies `length` floats at `ptr` into the Float32Array `into` (from its start). */
  getF32(into, ptr, length) {
    copyInto(into, this.#outOf(Float32, ptr, length), 0);
  }

  /** Copies `length` 16-bit values at `ptr` into the Uint16Array `into` (from its start). */
  getU16(into, ptr, length) {
    copyInto(into, this.#outOf(Uint16, ptr, length), 0);
  }

  // A View (Float32Array / Uint16Array) of `length` elements at `ptr` in the current memory:
  // the last one made when it is that one.
  #outOf(View, ptr, length) {
    const buffer = this.buffer;
    if (this.#outView !== View || this.#outBuffer !== buffer || this.#outPtr !== ptr || this.#outLength !== length) {
      this.#out = new View(buffer, ptr, length);
      this.#outView = View;
      this.#outBuffer = buffer;
      this.#outPtr = ptr;
      this.#outLength = length;
    }
    return this.#out;
  }

  /** A fresh copy (outside WebAssembly memory) of a typed-array view the binding returned. */
  take(view, tag) {
    const n = lengthOf(view);
    const out = tag === 'Float64Array' ? new Float64(n) : tag === 'Int32Array' ? new Int32(n) : new Float32(n);
    copyInto(out, view, 0);
    this.module._posenc_release_result();
    return out;
  }

  /** The dtype of the live tensor whose memory holds all of [byteOffset, +bytes), or null. */
  tensorHolding(byteOffset, bytes) {
    for (const [ptr, held] of this.tensors) {
      if (byteOffset >= ptr && byteOffset + bytes <= ptr + held.bytes) return held.dtype;
    }
    return null;
  }
}

// Private state of tensors, reached only through these functions (set by the class's static
// block). The brand check `#ptr in t` cannot be faked by an object made with
// Object.create(Tensor.prototype) or a Proxy, nor fooled by an own `ptr` / `length`.
/** The heap of a real posenc tensor (live or disposed), or null for anything else. */
export let tensorHeap;
/** A tensor's address: 0 once disposed. Only for values tensorHeap accepted. */
export let tensorPtr;
/** A tensor's element count. Only for values tensorHeap accepted. */
export let tensorLength;
/** A tensor's dtype: 'float32', 'float16' or 'bfloat16'. Only for values tensorHeap accepted. */
export let tensorDtype;

/**
 * An array that lives in WebAssembly memory, for zero-copy calls (rope.apply on a tensor
 * rotates it where it is): float32 values, or the bits of float16 / bfloat16 values.
 * `array` is a view (Float32Array, or Uint16Array for 16-bit dtypes) re-made whenever memory
 * has grown, so read it anew after any posenc call instead of keeping it. Free with
 * dispose(); a FinalizationRegistry frees a forgotten handle once it is garbage-collected
 * (keep the handle, not only its view, alive while you use the view).
 */
export class Tensor {
  #heap;
  #ptr;
  #length;
  #dtype;
  #view = null;
  #viewBuffer = null; // the memory #view was made on (re-made when the module's has changed)

  // The module's readers of the private state, installed once after the class (not a
  // static block: engines before class static blocks, Safari 15.4–16.3 among them, would
  // need it lowered, and its class's private fields with it, into WeakMap lookups).
  static installReaders() {
    tensorHeap = (t) => (typeof t === 'object' && t !== null && #ptr in t ? t.#heap : null);
    tensorPtr = (t) => t.#ptr;
    tensorLength = (t) => t.#length;
    tensorDtype = (t) => t.#dtype;
  }

  constructor(heap, length, dtype = 'float32') {
    const bytes = (dtype === 'float32' ? 4 : 2) * length;
    this.#heap = heap;
    this.#length = length;
    this.#dtype = dtype;
    this.#ptr = heap.malloc(bytes, `tensor(${length})`);
    heap.tensors.set(this.#ptr, { bytes, dtype }); // own data properties: nothing inherited is read
    heap.registry.register(this, this.#ptr, this);
  }

  /** Number of elements. */
  get length() {
    return this.#length;
  }

  /** 'float32' | 'float16' | 'bfloat16'. */
  get dtype() {
    return this.#dtype;
  }

  get disposed() {
    return this.#ptr === 0;
  }

  /**
   * The tensor's memory: a Float32Array, or a Uint16Array of 16-bit bits (valid until the
   * next call that may grow memory).
   */
  get array() {
    if (this.#ptr === 0) throw new TypeError('posenc: tensor.array of a disposed tensor');
    const buffer = this.#heap.buffer;
    if (this.#view === null || this.#viewBuffer !== buffer) {
      this.#view = this.#dtype === 'float32' ? this.#heap.f32(this.#ptr, this.#length)
        : this.#heap.u16(this.#ptr, this.#length);
      this.#viewBuffer = buffer;
    }
    return this.#view;
  }

  dispose() {
    if (this.#ptr === 0) return;
    this.#heap.registry.unregister(this);
    this.#heap.tensors.delete(this.#ptr);
    this.#heap.free(this.#ptr);
    this.#ptr = 0;
    this.#view = null;
    this.#viewBuffer = null;
  }
}
Tensor.installReaders();
delete Tensor.installReaders;

setTensorBrand((v) => tensorHeap(v) !== null);
