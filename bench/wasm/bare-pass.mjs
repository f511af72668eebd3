// A bare in-place pass of WebAssembly over a tensor, the yardstick of the WASM apply:
// it loads every 16 bytes of a float32 tensor in WASM memory with v128.load, multiplies them
// by a constant (f32x4.mul; 1 in the benchmark) and stores them back in place. It has no RoPE
// arithmetic and reads no cos/sin: measured beside posenc's apply, it shows how much of the
// apply's time is moving the bytes through v128 loads and stores, and so how far above plain
// JS a kernel of loads, arithmetic and stores can get. (posenc's large in-place applies can
// still beat it: they let the engine's native memmove, through memory.copy, do the reading.)
//
// The module is assembled here byte by byte (146 bytes; no toolchain needed):
//   (module
//     (memory (export "memory") <pages>)
//     (func (export "pass") (param $p i32) (param $end i32)   ;; $end − $p: a multiple of 64, > 0
//       (local $k v128)
//       (local.set $k (f32x4.splat (f32.const <factor>)))
//       (loop $next
//         ;; four times, at offset = 0, 16, 32, 48:
//         (v128.store offset (local.get $p)
//           (f32x4.mul (v128.load offset (local.get $p)) (local.get $k)))
//         (br_if $next (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 64)))
//                                (local.get $end))))))

const PAGE = 65536;
const I32 = 0x7f, V128 = 0x7b, SIMD = 0xfd;

/** Unsigned LEB128, the integer encoding of the binary format. */
function leb(n) {
  const bytes = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    bytes.push(b);
  } while (n);
  return bytes;
}

const section = (id, body) => [id, ...leb(body.length), ...body];
const name = (s) => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

function passModule(pages, factor) {
  const V128_LOAD = 0x00, V128_STORE = 0x0b, F32X4_SPLAT = 0x13;
  const F32X4_MUL = [0xe6, 0x01];
  const body = [
    1, 1, V128,                                   // locals: $k (v128)
    0x43, ...new Uint8Array(new Float32Array([factor]).buffer),  // f32.const factor
    SIMD, F32X4_SPLAT, 0x21, 2,                   // local.set $k
    0x03, 0x40,                                   // loop $next
  ];
  for (const offset of [0, 16, 32, 48]) {
    body.push(0x20, 0,                            //   local.get $p            (store address)
      0x20, 0, SIMD, V128_LOAD, 4, offset,        //   v128.load align=16 offset
      0x20, 2, SIMD, ...F32X4_MUL,                //   f32x4.mul by $k
      SIMD, V128_STORE, 4, offset);               //   v128.store align=16 offset
  }
  body.push(0x20, 0, 0x41, 0xc0, 0x00, 0x6a, 0x22, 0,  //   $p += 64 (local.tee)
    0x20, 1, 0x49, 0x0d, 0,                       //   br_if $next ($p < $end)
    0x0b, 0x0b);                                  // end loop, end func
  return moduleOf(pages, body);
}

// The module around one function body: memory of `pages` pages, exported with pass(p, end).
function moduleOf(pages, body) {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,          // \0asm, version 1
    ...section(1, [1, 0x60, 2, I32, I32, 0]),                // type 0: (i32, i32) → ()
    ...section(3, [1, 0]),                                   // func 0: type 0
    ...section(5, [1, 0x00, ...leb(pages)]),                 // memory 0: min pages
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('pass'), 0x00, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

/**
 * A float32 tensor of `floats` values in a WebAssembly memory of its own, filled by
 * `fill(array)`, and `run()`, which passes over it in place once: every value times `factor`
 * (1, the benchmark's: the values stay the same; tests pass another to see every value touched).
 */
export function barePass(floats, fill, factor = 1) {
  const bytes = 4 * floats;
  if (bytes % 64 !== 0 || bytes === 0) {
    throw new RangeError(`floats must be a positive multiple of 16, got ${floats}`);
  }
  return instantiate(passModule(Math.ceil(bytes / PAGE), factor), Float32Array, floats, fill);
}

// A pass module instantiated, its first `count` elements viewed as `View` and filled by
// `fill(array)`; run() passes over all of them once.
function instantiate(bytes, View, count, fill) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  const array = new View(exports.memory.buffer, 0, count);
  fill(array);
  return { array, run: () => exports.pass(0, count * View.BYTES_PER_ELEMENT) };
}

/** Signed LEB128 (i32.const immediates). */
function sleb(n) {
  const bytes = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...bytes, b];
    bytes.push(b | 0x80);
  }
}

// The float16 round trip: for every 16 bytes (8 float16 values), the cheapest exact
// widening and narrowing known for SIMD128, which has no float16 instructions, on the
// normal-range path only (no test for Inf, NaN, subnormals or overflow): the even and odd
// values split into the high halves of 32-bit lanes by a shift and a mask (no shuffle),
// each widened as sign | em << 13 times 2^112, narrowed back to nearest-even by the integer
// rounding (abs + 0xc8000fff + odd bit) >> 13 with the sign put back, and the two halves
// merged into one store. No RoPE arithmetic, no cos/sin: any exact float16 apply does at
// least this per value, so measured beside the float32 apply on the same element count it
// bounds how close a float16 apply can come to float32 on this engine and CPU.
function halfRoundTripModule(pages) {
  const V128_LOAD = 0x00, V128_STORE = 0x0b, I32X4_SPLAT = 0x11, F32X4_SPLAT = 0x13;
  const SHL = [0xab, 0x01], SHR_S = [0xac, 0x01], SHR_U = [0xad, 0x01], ADD = [0xae, 0x01];
  const AND = [0x4e], OR = [0x50], MUL = [0xe6, 0x01];
  const P = 0, END = 1, V = 2, T = 3, E = 4, A = 5;
  const [HIGH, SIGN_EM, ABS, ROUND, ONE, SIGN] = [6, 7, 8, 9, 10, 11];
  const K112 = 12;
  const get = (i) => [0x20, i], set = (i) => [0x21, i], tee = (i) => [0x22, i];
  const op = (code) => [SIMD, ...code];
  const shift = (code, by) => [0x41, ...sleb(by), ...op(code)];
  const splat = (v, i) => [0x41, ...sleb(v | 0), SIMD, I32X4_SPLAT, ...set(i)];
  // x (the value in the high half of each lane) on the stack → its float32 value.
  const widen = [...shift(SHR_S, 3), ...get(SIGN_EM), ...op(AND), ...get(K112), ...op(MUL)];
  // f32 in T → its float16 bits in the low half of each lane.
  const narrow = [...get(T), ...get(ABS), ...op(AND), ...tee(A), ...get(ROUND), ...op(ADD),
    ...get(A), ...shift(SHR_U, 13), ...get(ONE), ...op(AND), ...op(ADD), ...shift(SHR_U, 13),
    ...get(T), ...shift(SHR_U, 16), ...get(SIGN), ...op(AND), ...op(OR)];
  const body = [
    1, 11, V128,                                  // locals 2..12: v128
    ...splat(0xffff0000, HIGH), ...splat(0x8fffe000, SIGN_EM), ...splat(0x7fffffff, ABS),
    ...splat(0xc8000fff, ROUND), ...splat(1, ONE), ...splat(0x8000, SIGN),
    0x43, ...new Uint8Array(new Float32Array([2 ** 112]).buffer), SIMD, F32X4_SPLAT, ...set(K112),
    0x03, 0x40,                                   // loop $next
  ];
  for (const offset of [0, 16]) {
    body.push(...get(P), ...get(P), SIMD, V128_LOAD, 4, offset, ...tee(V),
      ...shift(SHL, 16), ...widen, ...set(T), ...narrow, ...set(E),          // even values
      ...get(V), ...get(HIGH), ...op(AND), ...widen, ...set(T), ...narrow,   // odd values
      ...shift(SHL, 16), ...get(E), ...op(OR),
      SIMD, V128_STORE, 4, offset);
  }
  body.push(...get(P), 0x41, 0x20, 0x6a, ...tee(P),  // $p += 32
    ...get(END), 0x49, 0x0d, 0,                   // br_if $next ($p < $end)
    0x0b, 0x0b);
  return moduleOf(pages, body);
}

/**
 * `count` float16 values (Uint16Array bits) in a WebAssembly memory of their own, filled by
 * `fill(array)`, and `run()`, which passes the float16 round trip above over them in place:
 * every normal value comes back as it was (the benchmark fills normal values only).
 */
export function bareHalfPass(count, fill) {
  const bytes = 2 * count;
  if (bytes % 32 !== 0 || bytes === 0) {
    throw new RangeError(`count must be a positive multiple of 16, got ${count}`);
  }
  return instantiate(halfRoundTripModule(Math.ceil(bytes / PAGE)), Uint16Array, count, fill);
}
