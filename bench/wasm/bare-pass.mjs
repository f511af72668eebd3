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

// The module around one function body: memory of `pages` pages, exported with pass(p, end)
// (or `params` i32 parameters).
function moduleOf(pages, body, params = 2) {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,          // \0asm, version 1
    ...section(1, [1, 0x60, params, ...Array(params).fill(I32), 0]),  // type 0: (i32 …) → ()
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

// The RoPE loop a user writes in WebAssembly text, half layout, in place: for each token,
// each head, four pairs per step, a' = a·c − b·s and b' = b·c + a·s (the order posenc's
// kernels use, so the results are bit-identical); one cos/sin row per token.
//   (func (export "pass") (param $x i32) (param $cos i32) (param $sin i32)
//                         (param $tokens i32) (param $heads i32) (param $halfBytes i32)
//     (loop $token  (local.set $h (local.get $heads))
//       (loop $head  (local.set $i (i32.const 0))
//         (loop $pair
//           (local.set $c (v128.load (i32.add (local.get $cos) (local.get $i))))
//           (local.set $s (v128.load (i32.add (local.get $sin) (local.get $i))))
//           (local.set $a (v128.load (local.tee $p (i32.add (local.get $x) (local.get $i)))))
//           (local.set $b (v128.load (local.tee $q (i32.add (local.get $p) (local.get $halfBytes)))))
//           (v128.store (local.get $p) (f32x4.sub (f32x4.mul a c) (f32x4.mul b s)))
//           (v128.store (local.get $q) (f32x4.add (f32x4.mul b c) (f32x4.mul a s)))
//           (br_if $pair (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 16)))
//                                  (local.get $halfBytes))))
//         (local.set $x (i32.add (local.get $x) (2 · $halfBytes)))
//         (br_if $head (local.tee $h (i32.sub (local.get $h) (i32.const 1)))))
//       (local.set $cos (i32.add …)) (local.set $sin (i32.add …))
//       (br_if $token (local.tee $tokens (i32.sub (local.get $tokens) (i32.const 1))))))
function ropeLoopModule(pages) {
  const V128_LOAD = 0x00, V128_STORE = 0x0b;
  const MUL = [0xe6, 0x01], ADD = [0xe4, 0x01], SUB = [0xe5, 0x01];
  const [X, COS, SIN, TOKENS, HEADS, HALF] = [0, 1, 2, 3, 4, 5];
  const [H, I, P, Q, A, B, C, S] = [6, 7, 8, 9, 10, 11, 12, 13];
  const get = (i) => [0x20, i], set = (i) => [0x21, i], tee = (i) => [0x22, i];
  const add = 0x6a, sub = 0x6b;
  const load = [SIMD, V128_LOAD, 4, 0], store = [SIMD, V128_STORE, 4, 0];
  const op = (code) => [SIMD, ...code];
  const advance = (local, by) => [...get(local), ...by, add, ...set(local)];
  const body = [
    2, 4, I32, 4, V128,                           // locals: $h $i $p $q (i32), $a $b $c $s (v128)
    0x03, 0x40, ...get(HEADS), ...set(H),         // loop $token
    0x03, 0x40, 0x41, 0, ...set(I),               //   loop $head
    0x03, 0x40,                                   //     loop $pair
    ...get(COS), ...get(I), add, ...load, ...set(C),
    ...get(SIN), ...get(I), add, ...load, ...set(S),
    ...get(X), ...get(I), add, ...tee(P), ...load, ...set(A),
    ...get(P), ...get(HALF), add, ...tee(Q), ...load, ...set(B),
    ...get(P), ...get(A), ...get(C), ...op(MUL), ...get(B), ...get(S), ...op(MUL), ...op(SUB), ...store,
    ...get(Q), ...get(B), ...get(C), ...op(MUL), ...get(A), ...get(S), ...op(MUL), ...op(ADD), ...store,
    ...get(I), 0x41, 16, add, ...tee(I), ...get(HALF), 0x49, 0x0d, 0,
    0x0b,                                         //     end $pair
    ...advance(X, [...get(HALF), ...get(HALF), add]),
    ...get(H), 0x41, 1, sub, ...tee(H), 0x0d, 0,
    0x0b,                                         //   end $head
    ...advance(COS, get(HALF)), ...advance(SIN, get(HALF)),
    ...get(TOKENS), 0x41, 1, sub, ...tee(TOKENS), 0x0d, 0,
    0x0b, 0x0b,                                   // end $token, end func
  ];
  return moduleOf(pages, body, 6);
}

/**
 * A float32 tensor [tokens][heads][dim] in a WebAssembly memory of its own, with one cos and
 * one sin row per token ([tokens][dim/2] each, from `rows(cos, sin)`), and `run()`, which
 * rotates the tensor in place once by the plain v128 loop above. dim: a multiple of 8.
 */
export function ropeLoop(tokens, heads, dim, fill, rows) {
  if (dim % 8 !== 0 || dim <= 0 || tokens <= 0 || heads <= 0) {
    throw new RangeError(`dim must be a positive multiple of 8 and tokens, heads positive, got ${tokens}, ${heads}, ${dim}`);
  }
  const xBytes = 4 * tokens * heads * dim, rowBytes = 2 * tokens * dim;
  const bytes = ropeLoopModule(Math.ceil((xBytes + 2 * rowBytes) / PAGE));
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  const array = new Float32Array(exports.memory.buffer, 0, tokens * heads * dim);
  fill(array);
  rows(new Float32Array(exports.memory.buffer, xBytes, tokens * dim / 2),
    new Float32Array(exports.memory.buffer, xBytes + rowBytes, tokens * dim / 2));
  return { array, run: () => exports.pass(0, xBytes, xBytes + rowBytes, tokens, heads, 2 * dim) };
}
