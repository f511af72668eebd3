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
  const I32 = 0x7f, V128 = 0x7b;
  const SIMD = 0xfd, V128_LOAD = 0x00, V128_STORE = 0x0b, F32X4_SPLAT = 0x13;
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
  const module = new WebAssembly.Module(passModule(Math.ceil(bytes / PAGE), factor));
  const { exports } = new WebAssembly.Instance(module);
  const array = new Float32Array(exports.memory.buffer, 0, floats);
  fill(array);
  return { array, run: () => exports.pass(0, bytes) };
}
