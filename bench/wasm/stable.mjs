// bench/wasm/stable.mjs — one process of the WebAssembly targets on stable measures
// (bench/stable.mjs runs it in several processes). Every group pairs its members side by
// side on data that stays in cache, or against the same bytes moved by a plain v128 loop,
// through the package as a user loads it (the SIMD binary). Prints one JSON object:
// { group: { member: median ns per call } }.
import { createPosenc } from '../../wasm/dist/inline.js';
import { bareHalfPass, ropeLoop } from './bare-pass.mjs';
import { pairedRunner, randomFill } from './paired.mjs';

const HEADS = 32, DIM = 128, DECODE_POS = 4000;
const paired = pairedRunner({ runs: 41, warmNs: 0.2e9 });
const pe = await createPosenc({ simd: true });
if (!pe.simd) throw new Error('the SIMD binary did not load');

const out = {};
const record = (name, members, inner) => {
  out[name] = Object.fromEntries(Object.entries(paired(members, inner)).map(([k, v]) => [k, v.ns]));
};

// The plain v128 loop on `tokens` × 32 × 128 with posenc's own rows at positions start…
function loopOf(rope, tokens, start) {
  const { cos, sin } = rope.cosSin({ start, tokens });
  return ropeLoop(tokens, HEADS, DIM, (a) => randomFill(a, 1), (c, s) => {
    for (let t = 0; t < tokens; ++t) {
      c.set(cos.subarray(t * DIM, t * DIM + DIM / 2), t * DIM / 2);
      s.set(sin.subarray(t * DIM, t * DIM + DIM / 2), t * DIM / 2);
    }
  });
}

// 16 tokens × 32 × 128 in place, zero-copy (256 KiB, in cache): posenc half and interleaved
// beside the plain v128 loop (half layout).
{
  const tokens = 16, n = tokens * HEADS * DIM, opts = { tokens, heads: HEADS, start: 0 };
  const half = pe.rope({ headDim: DIM, cacheLength: tokens });
  const inter = pe.rope({ headDim: DIM, cacheLength: tokens, layout: 'interleaved' });
  const [th, ti] = [1, 2].map(() => pe.tensor(randomFill(new Float32Array(n), 1)));
  const loop = loopOf(half, tokens, 0);
  record('apply/16x32x128', {
    half: () => half.apply(th, opts),
    interleaved: () => inter.apply(ti, opts),
    loop: loop.run,
  }, 16);
  for (const o of [half, inter, th, ti]) o.dispose();
}

// Decode, 1 × 32 × 128 at position 4000: from a plain Float32Array (copied in and out by the
// package), and on tensors in place and out of place, beside the plain v128 loop on one
// token. The out-of-place options come from pools built before timing, written as literals
// and spread from another object ({ ...base, out }): posenc must read both alike. (Creating
// a spread object with an added key is the caller's cost, and a large one in V8 11: several
// µs in Node 20, measured apart as `spreadCreate`, context only.)
{
  const n = HEADS * DIM, opts = { tokens: 1, heads: HEADS, start: DECODE_POS };
  const rope = pe.rope({ headDim: DIM, cacheLength: 8192 });
  const array = randomFill(new Float32Array(n), 2);
  const [x, y, z] = [1, 2, 3].map(() => pe.tensor(randomFill(new Float32Array(n), 2)));
  const loop = loopOf(rope, 1, DECODE_POS);
  const base = { tokens: 1, heads: HEADS, start: DECODE_POS };
  const POOL = 256;
  const literals = Array.from({ length: POOL }, () => ({ tokens: 1, heads: HEADS, start: DECODE_POS, out: z }));
  const spreads = Array.from({ length: POOL }, () => ({ ...base, out: z }));
  const created = new Array(POOL);  // spreadCreate's own: the pools read above stay as built
  let i = 0, j = 0, k = 0;
  record('decode/1x32x128', {
    plainArray: () => rope.apply(array, opts),
    tensor: () => rope.apply(x, opts),
    tensorOut: () => rope.apply(y, literals[i++ & (POOL - 1)]),
    tensorOutSpread: () => rope.apply(y, spreads[j++ & (POOL - 1)]),
    spreadCreate: () => { created[k++ & (POOL - 1)] = { ...base, out: z }; },
    loop: loop.run,
  }, 2000);
  for (const o of [rope, x, y, z]) o.dispose();
}

// float16, 16 tokens × 32 × 128 zero-copy in place, beside its exact conversion round trip
// alone (bare-pass.mjs: the widen and narrow of the same values, no rotation).
{
  const tokens = 16, n = tokens * HEADS * DIM;
  const rope = pe.rope({ headDim: DIM, cacheLength: tokens });
  const f32 = randomFill(new Float32Array(n), 8);
  const f16 = new Uint16Array(n);
  const b = new Uint32Array(f32.buffer);
  for (let i = 0; i < n; i++) f16[i] = 0x3c00 | (b[i] >>> 22);  // normal values
  const t16 = pe.tensor(f16, { dtype: 'float16' });
  const bare = bareHalfPass(n, (a) => a.set(f16));
  record('float16/16x32x128', {
    float16: () => rope.apply(t16, { tokens, heads: HEADS, start: 0 }),
    roundTrip: bare.run,
  }, 16);
  for (const o of [rope, t16]) o.dispose();
}

// Plain Float32Arrays, 2048 × 32 × 128 (32 MiB): out of place beside in place, and beside the
// same bytes moved without rotating, as the package moves them (256 KiB chunks through
// WebAssembly memory, TypedArray.prototype.set both ways): z → scratch → z, and x → scratch
// → y. Out of place a second 32 MiB array is written, so every line of y is also read for
// ownership; the bare copies show what that costs any JS path.
{
  const tokens = 2048, n = tokens * HEADS * DIM, opts = { tokens, heads: HEADS, start: 0 };
  const rope = pe.rope({ headDim: DIM, cacheLength: tokens });
  const x = randomFill(new Float32Array(n), 3), y = new Float32Array(n), z = randomFill(new Float32Array(n), 3);
  const CHUNK = 65536, scratch = pe.tensor(CHUNK), s = scratch.array;
  const chunkCopy = (from, to) => {
    for (let i = 0; i < n; i += CHUNK) {
      s.set(from.subarray(i, i + CHUNK));
      to.set(s, i);
    }
  };
  record('plain_array/2048x32x128', {
    inPlace: () => rope.apply(z, opts),
    outOfPlace: () => rope.apply(x, { tokens, heads: HEADS, start: 0, out: y }),
    copyInPlace: () => chunkCopy(z, z),
    copyOut: () => chunkCopy(x, y),
  });
  for (const o of [rope, scratch]) o.dispose();
}

process.stdout.write(JSON.stringify(out) + '\n');
