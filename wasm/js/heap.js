// wasm/js/heap.js — moving arrays in and out of WebAssembly memory, and resident tensors.
//
// Memory may grow during any call that allocates, which detaches every typed-array view of
// the old buffer; so views are always made from the module's current HEAP* arrays, right
// before use, never kept across a call.
//
// The copying path stages arguments in one reusable scratch block: calls whose arguments
// fit in SCRATCH_KEEP bytes do no malloc at all; bigger ones get a block of their own that
// is freed when the call returns (so one huge call does not pin its size forever).

const SCRATCH_KEEP = 1 << 20;
const ALIGN = 16;

const align = (n) => Math.ceil(n / ALIGN) * ALIGN;

export class Heap {
  constructor(module) {
    this.module = module;
    this.scratchPtr = 0;
    this.scratchBytes = 0;
    // Live tensors by address, held weakly so that the FinalizationRegistry can collect
    // them; used to recognise a Float32Array that views a tensor's memory.
    this.tensors = new Map();
    this.registry = new FinalizationRegistry((ptr) => {
      this.tensors.delete(ptr);
      module._free(ptr);
    });
  }

  get buffer() {
    return this.module.HEAPU8.buffer;
  }

  /** malloc or RangeError (the module stays usable: malloc returns 0 instead of aborting). */
  malloc(bytes, what) {
    const ptr = bytes > 2 ** 31 ? 0 : this.module._malloc(Math.max(bytes, 1));
    if (!ptr) {
      throw Object.assign(
        new RangeError(`posenc: ${what} needs ${bytes} bytes, more than WebAssembly memory can provide (2 GiB)`),
        { kind: 'bad_alloc' });
    }
    return ptr;
  }

  free(ptr) {
    this.module._free(ptr);
  }

  f32(ptr, length) {
    return new Float32Array(this.module.HEAPF32.buffer, ptr, length);
  }

  i32(ptr, length) {
    return new Int32Array(this.module.HEAP32.buffer, ptr, length);
  }

  /**
   * Runs `body(ptrs)` with one heap block per entry of `sizes` (in bytes), inside the
   * scratch block when they fit, and frees any temporary block afterwards.
   */
  withScratch(sizes, what, body) {
    const offsets = [];
    let total = 0;
    for (const s of sizes) {
      offsets.push(total);
      total += align(s);
    }
    let base;
    let temporary = false;
    if (total <= SCRATCH_KEEP) {
      if (total > this.scratchBytes) {
        const grown = Math.max(total, Math.min(SCRATCH_KEEP, Math.max(4096, 2 * this.scratchBytes)));
        const ptr = this.malloc(grown, what);
        if (this.scratchPtr) this.free(this.scratchPtr);
        this.scratchPtr = ptr;
        this.scratchBytes = grown;
      }
      base = this.scratchPtr;
    } else {
      base = this.malloc(total, what);
      temporary = true;
    }
    try {
      return body(offsets.map((o) => base + o));
    } finally {
      if (temporary) this.free(base);
    }
  }

  /**
   * Copies typed arrays (Float32Array / Int32Array / Float64Array) into scratch memory
   * and runs `body(ptrs)`. Arrays that view WebAssembly memory themselves (tensor views)
   * are snapshot first, because allocating the scratch block may grow memory and detach them.
   */
  stage(arrays, what, body) {
    const sources = arrays.map((a) => (a.buffer === this.buffer ? a.slice() : a));
    return this.withScratch(sources.map((a) => a.byteLength), what, (ptrs) => {
      sources.forEach((a, i) => {
        new a.constructor(this.buffer, ptrs[i], a.length).set(a);
      });
      return body(ptrs);
    });
  }

  /** The live tensor whose memory holds all of `view` (a Float32Array on our buffer), or null. */
  tensorOf(view) {
    for (const ref of this.tensors.values()) {
      const t = ref.deref();
      if (t && view.byteOffset >= t.ptr && view.byteOffset + view.byteLength <= t.ptr + 4 * t.length) return t;
    }
    return null;
  }
}

/**
 * A Float32Array that lives in WebAssembly memory, for zero-copy calls (rope.apply on a
 * tensor rotates it where it is). `array` is a view re-made whenever memory has grown, so
 * read it anew after any posenc call instead of keeping it. Free with dispose(); a
 * FinalizationRegistry frees a forgotten handle once it is garbage-collected (keep the
 * handle, not only its view, alive while you use the view).
 */
export class Tensor {
  #heap;
  #ptr;
  #length;
  #view = null;

  constructor(heap, length) {
    this.#heap = heap;
    this.#length = length;
    this.#ptr = heap.malloc(4 * length, `tensor(${length})`);
    heap.tensors.set(this.#ptr, new WeakRef(this));
    heap.registry.register(this, this.#ptr, this);
  }

  /** Number of floats. */
  get length() {
    return this.#length;
  }

  /** Heap address of the first float (0 once disposed); for the package's own calls. */
  get ptr() {
    return this.#ptr;
  }

  get disposed() {
    return this.#ptr === 0;
  }

  /** True when this tensor lives in `heap` (not in another createPosenc() instance). */
  ownedBy(heap) {
    return this.#heap === heap;
  }

  /** The tensor's memory as a Float32Array (valid until the next call that may grow memory). */
  get array() {
    this.assertLive('tensor');
    if (this.#view === null || this.#view.buffer !== this.#heap.buffer) {
      this.#view = this.#heap.f32(this.#ptr, this.#length);
    }
    return this.#view;
  }

  assertLive(name) {
    if (this.#ptr === 0) throw new TypeError(`posenc: ${name} is a disposed tensor`);
  }

  dispose() {
    if (this.#ptr === 0) return;
    this.#heap.registry.unregister(this);
    this.#heap.tensors.delete(this.#ptr);
    this.#heap.free(this.#ptr);
    this.#ptr = 0;
    this.#view = null;
  }
}
