// bench/wasm/run.mjs — the WASM side, through the package exactly as a user
// loads it (`createPosenc` from the bundle `import 'posenc'` resolves to in Node,
// wasm/dist/inline.js, not the unbundled sources). One Node process loads BOTH binaries, so
// every ratio pairs medians measured side by side:
//   simd   — posenc, SIMD128 binary          scalar — posenc, scalar binary
//   js     — plain JavaScript as a user writes it (bench/plain-js-rope.mjs, bench/plain-js-sinusoidal.mjs)
//   copy   — the same bytes copied inside WebAssembly memory: the ceiling. The package has
//            no copy primitive, so this times `Uint8Array.prototype.copyWithin` on the
//            memory's buffer, which V8 lowers to a memmove of the backing store (the same
//            work as a WASM `memory.copy`).
// Paths: zero_copy (tensors resident in WASM memory, `pe.tensor`) and copying (a JS
// Float32Array, staged in and out by the package on every call).
//   node bench/wasm/run.mjs <out.json> [--quick]
import { writeFileSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createPosenc } from '../../wasm/dist/inline.js';
import { createTrainer } from '../../wasm/dist/train-inline.js';
import { plainCosSinCache, plainRopeApply, plainRotaryScores } from '../plain-js-rope.mjs';
import { plainSinusoidal } from '../plain-js-sinusoidal.mjs';
import { plainTrainer } from '../plain-js-train.mjs';
import { bareHalfPass, barePass } from './bare-pass.mjs';
import { pairedRunner, randomFill } from './paired.mjs';

const out = process.argv[2] ?? 'build/bench/wasm.json';
const quick = process.argv.includes('--quick');
const RUNS = quick ? 3 : 15;
const TOKENS = 2048, HEADS = 32, HEAD_DIM = 128, N = TOKENS * HEADS * HEAD_DIM;
const DECODE_POS = 4000, DECODE_CALLS = quick ? 5000 : 20000;
const paired = pairedRunner({ runs: RUNS, warmNs: (quick ? 0.1 : 0.25) * 1e9 });

const groups = {};
// groups[name] = the paired medians of `members`, with a note for the report.
const record = (name, note, members, inner) => { groups[name] = { ...paired(members, inner), note }; };

const simd = await createPosenc({ simd: true });
const scalar = await createPosenc({ simd: false });
if (!simd.simd) throw new Error('the SIMD binary did not load');

// The ceiling: the floats of tensor `src` copied to tensor `dst` of the same module.
function copyMember(src, dst) {
  return () => {
    new Uint8Array(src.array.buffer).copyWithin(dst.array.byteOffset, src.array.byteOffset,
      src.array.byteOffset + src.array.byteLength);
  };
}

// The members of an in-place half-layout apply on `tokens` × 32 × 128: posenc's two
// binaries on zero-copy tensors, plain JS on its own array, a copy of the SIMD tensor's
// bytes (the ceiling), and `bare`, an in-place v128 load-×1-store pass over
// a tensor of the same size (bare-pass.mjs): moving the bytes alone, no RoPE arithmetic.
// `ropes` serve the other paths on the same shape; dispose() frees them.
function inPlaceApply(tokens) {
  const n = tokens * HEADS * HEAD_DIM, opts = { tokens, heads: HEADS, start: 0 };
  const plainCache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: tokens });
  const jsX = randomFill(new Float32Array(n), 1);
  const ropes = { simd: simd.rope({ headDim: HEAD_DIM, cacheLength: tokens }), scalar: scalar.rope({ headDim: HEAD_DIM, cacheLength: tokens }) };
  const tensors = { simd: simd.tensor(randomFill(new Float32Array(n), 1)), scalar: scalar.tensor(randomFill(new Float32Array(n), 1)) };
  const copyTo = simd.tensor(n);
  const members = {
    simd: () => ropes.simd.apply(tensors.simd, opts),
    scalar: () => ropes.scalar.apply(tensors.scalar, opts),
    js: () => plainRopeApply(jsX, plainCache, { tokens, heads: HEADS, headDim: HEAD_DIM }),
    copy: copyMember(tensors.simd, copyTo),
    bare: barePass(n, (a) => randomFill(a, 1)).run,
  };
  const dispose = () => {
    for (const f of ['simd', 'scalar']) { tensors[f].dispose(); ropes[f].dispose(); }
    copyTo.dispose();
  };
  return { opts, ropes, members, dispose };
}

// ── RoPE apply, 2048 × 32 × 128 (32 MiB), half layout, in place ─────────────────────────
{
  const { opts, ropes, members, dispose } = inPlaceApply(TOKENS);
  record('apply/half/in_place/zero_copy', 'copy = copyWithin on WASM memory (memmove)', members);
  const arrays = { simd: randomFill(new Float32Array(N), 1), scalar: randomFill(new Float32Array(N), 1) };
  record('apply/half/in_place/copying', 'a JS Float32Array: the package copies it in and out on every call', {
    simd: () => ropes.simd.apply(arrays.simd, opts),
    scalar: () => ropes.scalar.apply(arrays.scalar, opts),
    js: members.js,
    copy: members.copy,
  });
  dispose();
}

// ── the same apply on 64 tokens (1 MiB, resident in L2): the kernels' compute speed ──────
// The 32 MiB tensor above streams through memory, where the SIMD kernel runs at the speed
// of a memory.copy of it; here every member's data stays in cache between calls (each
// sample times 32 back-to-back calls), so the ratios show what the arithmetic alone gains.
{
  const { members, dispose } = inPlaceApply(64);
  record('apply/half/in_place/zero_copy/1MiB_in_cache', '64 tokens: the data stays in cache, so the ratios are the kernels\' compute speed', members, 32);
  dispose();
}

// ── the other apply shapes, zero-copy: out of place (half), interleaved in place, GQA ────
{
  const kvHeads = 8;
  const plainCache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: TOKENS });
  const jsQ = randomFill(new Float32Array(N), 1), jsK = randomFill(new Float32Array(TOKENS * kvHeads * HEAD_DIM), 3);
  const jsShape = { tokens: TOKENS, heads: HEADS, headDim: HEAD_DIM };
  const flavours = { simd, scalar };
  const make = (f) => {
    const pe = flavours[f];
    return {
      half: pe.rope({ headDim: HEAD_DIM, cacheLength: TOKENS }),
      interleaved: pe.rope({ headDim: HEAD_DIM, cacheLength: TOKENS, layout: 'interleaved' }),
      x: pe.tensor(randomFill(new Float32Array(N), 1)),
      y: pe.tensor(N),
      k: pe.tensor(randomFill(new Float32Array(TOKENS * kvHeads * HEAD_DIM), 3)),
    };
  };
  const r = { simd: make('simd'), scalar: make('scalar') };
  const opts = { tokens: TOKENS, heads: HEADS, start: 0 };
  // The plain-JS loop has no out-of-place form: it copies x into y, then rotates y.
  const jsY = new Float32Array(N);
  record('apply/half/out_of_place/zero_copy', 'out: a second tensor; plain JS copies then rotates', {
    simd: () => r.simd.half.apply(r.simd.x, { ...opts, out: r.simd.y }),
    scalar: () => r.scalar.half.apply(r.scalar.x, { ...opts, out: r.scalar.y }),
    js: () => { jsY.set(jsQ); plainRopeApply(jsY, plainCache, jsShape); },
    copy: copyMember(r.simd.x, r.simd.y),
  });
  // Plain JS in the half layout (the interleaved loop costs the same), for scale.
  record('apply/interleaved/in_place/zero_copy', 'plain JS: the half-layout loop (same work)', {
    simd: () => r.simd.interleaved.apply(r.simd.x, opts),
    scalar: () => r.scalar.interleaved.apply(r.scalar.x, opts),
    js: () => plainRopeApply(jsQ, plainCache, jsShape),
    copy: copyMember(r.simd.x, r.simd.y),
  });
  const gqa = { tokens: TOKENS, qHeads: HEADS, kHeads: kvHeads, start: 0 };
  // The copy member moves the bytes of q and k: one tensor of both, into a second.
  const qk = [0, 1].map(() => simd.tensor(N + TOKENS * kvHeads * HEAD_DIM));
  record('gqa/half/in_place/zero_copy', 'q 32 heads + k 8 heads, one cos/sin row per token', {
    simd: () => r.simd.half.applyQK(r.simd.x, r.simd.k, gqa),
    scalar: () => r.scalar.half.applyQK(r.scalar.x, r.scalar.k, gqa),
    js: () => {
      plainRopeApply(jsQ, plainCache, jsShape);
      plainRopeApply(jsK, plainCache, { tokens: TOKENS, heads: kvHeads, headDim: HEAD_DIM });
    },
    copy: copyMember(qk[0], qk[1]),
  });
  for (const t of qk) t.dispose();
  for (const f of ['simd', 'scalar']) for (const v of Object.values(r[f])) v.dispose();
}

// ── cos/sin cache 8192 × 128 (a rope's constructor) ──────────────────────────────────────
// The note carries each flavour's largest error against float64 (Math.cos/Math.sin of the
// double product p·θ, within ~1e−16 of truth) over every 61st cached row.
{
  const cacheError = (pe) => {
    const rope = pe.rope({ headDim: HEAD_DIM, cacheLength: 8192 });
    let worst = 0;
    for (let p = 0; p < 8192; p += 61) {
      const { cos, sin } = rope.row(p);
      for (let i = 0; i < cos.length; i++) {
        const a = p * rope.invFreq[i];
        worst = Math.max(worst, Math.abs(cos[i] - Math.cos(a)), Math.abs(sin[i] - Math.sin(a)));
      }
    }
    rope.dispose();
    return worst.toExponential(1);
  };
  record('cache/8192x128', `posenc: angles in double, reduced (max error vs float64: SIMD ${cacheError(simd)}, scalar ${cacheError(scalar)}); plain JS: float32 angles, Math.cos/sin`, {
    simd: () => simd.rope({ headDim: HEAD_DIM, cacheLength: 8192 }).dispose(),
    scalar: () => scalar.rope({ headDim: HEAD_DIM, cacheLength: 8192 }).dispose(),
    js: () => plainCosSinCache({ rotaryDim: HEAD_DIM, positions: 8192 }),
  });
}

// ── rotary attention logits 512 × 512 × 128 ─────────────────────────────────────────────
{
  const T = 512;
  const q = randomFill(new Float32Array(T * HEAD_DIM), 5), k = randomFill(new Float32Array(T * HEAD_DIM), 6);
  const plainCache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: T });
  const scoreOut = new Float32Array(T * T);
  record('scores/rotary/512x512x128', 'posenc: rotate q and k in WASM, then the dot kernel; a new Float32Array per call', {
    simd: () => simd.scores({ q, k, dim: HEAD_DIM, mode: 'rotary' }),
    scalar: () => scalar.scores({ q, k, dim: HEAD_DIM, mode: 'rotary' }),
    js: () => plainRotaryScores(q, k, plainCache, { dim: HEAD_DIM, tq: T, tk: T }, scoreOut),
  });
}

// ── decode: 1 token × 32 heads × 128 at position 4000, inside the cache, per call ────────
{
  const n = HEADS * HEAD_DIM;
  const opts = { tokens: 1, heads: HEADS, start: DECODE_POS };
  const plainCache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: DECODE_POS + 1 });
  const jsX = randomFill(new Float32Array(n), 2);
  const ropes = { simd: simd.rope({ headDim: HEAD_DIM, cacheLength: 8192 }), scalar: scalar.rope({ headDim: HEAD_DIM, cacheLength: 8192 }) };
  const tensors = { simd: simd.tensor(randomFill(new Float32Array(n), 2)), scalar: scalar.tensor(randomFill(new Float32Array(n), 2)) };
  const copyTo = simd.tensor(n);
  record('decode/in_cache/zero_copy', "per call, including the package's argument checks", {
    simd: () => ropes.simd.apply(tensors.simd, opts),
    scalar: () => ropes.scalar.apply(tensors.scalar, opts),
    js: () => plainRopeApply(jsX, plainCache, { tokens: 1, heads: HEADS, headDim: HEAD_DIM, start: DECODE_POS }),
    copy: copyMember(tensors.simd, copyTo),
  }, DECODE_CALLS);
  for (const f of ['simd', 'scalar']) { tensors[f].dispose(); ropes[f].dispose(); }
  copyTo.dispose();
}

// ── decode with the default rotator (no cacheLength): on a plain Float32Array, on a
// tensor, and a tensor call with a hand copy in and out, beside a full cache and plain JS;
// copyInOut is the hand copy alone (what any path from a plain array must pay), noTokens the
// same tensor call with tokens: 0 (the call's fixed cost: options, checks, the crossing) ──
{
  const n = HEADS * HEAD_DIM;
  const opts = { tokens: 1, heads: HEADS, start: DECODE_POS };
  const noTokens = { tokens: 0, heads: HEADS, start: DECODE_POS };
  const plainCache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: DECODE_POS + 1 });
  const jsX = randomFill(new Float32Array(n), 2);
  const arrayX = randomFill(new Float32Array(n), 2);
  const handX = randomFill(new Float32Array(n), 2);
  const auto = simd.rope({ headDim: HEAD_DIM });
  const full = simd.rope({ headDim: HEAD_DIM, cacheLength: 8192 });
  const [tAuto, tFull, tHand] = [0, 1, 2].map(() => simd.tensor(randomFill(new Float32Array(n), 2)));
  record('decode/default_rotator', 'pe.rope({ headDim: 128 }) without cacheLength; simd = on a plain Float32Array', {
    simd: () => auto.apply(arrayX, opts),
    tensorDefault: () => auto.apply(tAuto, opts),
    tensorFullCache: () => full.apply(tFull, opts),
    handCopy: () => { tHand.array.set(handX); auto.apply(tHand, opts); handX.set(tHand.array); },
    copyInOut: () => { tHand.array.set(handX); handX.set(tHand.array); },
    noTokens: () => auto.apply(tAuto, noTokens),
    js: () => plainRopeApply(jsX, plainCache, { tokens: 1, heads: HEADS, headDim: HEAD_DIM, start: DECODE_POS }),
  }, DECODE_CALLS);
  for (const t of [tAuto, tFull, tHand, auto, full]) t.dispose();
}

// ── sinusoidal table 8192 × 512 (interleaved) ─────────────────────────────────────────
// Two ways to get the table: a new Float32Array per call (16 MiB: the fresh buffer's page
// faults and the copy out of WebAssembly memory cost as much as the kernel), or written
// into a tensor, zero-copy, as the plain-JS loop writes into its reused array.
{
  const P = 8192, D = 512;
  const plain = new Float32Array(P * D);
  const js = () => plainSinusoidal(plain, { dim: D, positions: P });
  const tables = {};
  groups['sinusoidal/8192x512/new_array'] = paired({
    simd: () => { tables.simd = simd.sinusoidal({ dim: D, positions: P }); },
    scalar: () => { tables.scalar = scalar.sinusoidal({ dim: D, positions: P }); },
    js,
  });
  const out = { simd: simd.tensor(P * D), scalar: scalar.tensor(P * D) };
  groups['sinusoidal/8192x512/zero_copy'] = paired({
    simd: () => simd.sinusoidal({ dim: D, positions: P, out: out.simd }),
    scalar: () => scalar.sinusoidal({ dim: D, positions: P, out: out.scalar }),
    js,
  });
  let worst = 0;
  for (const t of [...Object.values(tables), out.simd.array, out.scalar.array]) {
    for (let j = 0; j < t.length; j += 97) worst = Math.max(worst, Math.abs(t[j] - plain[j]));
  }
  const note = `max |posenc − plain JS| = ${worst.toExponential(1)} (both within float rounding of truth)`;
  groups['sinusoidal/8192x512/new_array'].note = `a new Float32Array per call; ${note}`;
  groups['sinusoidal/8192x512/zero_copy'].note = `into a tensor (out option); ${note}`;
  for (const f of ['simd', 'scalar']) out[f].dispose();
}

// ── RoPE conventions and 16-bit storage beside plain float32 RoPE (SIMD binary) ──────────
// variants: 512 tokens × 32 heads × 128 in tensors (zero-copy), each rotator caching its
// positions; M-RoPE on a video of 2 frames × 16 × 16 patches, 2-D on a 16 × 32 grid.
// half: the same element count in tensors (zero-copy): float32 beside float16 / bfloat16;
// half_copying: the same as plain typed arrays (copied in and out around the call).
{
  const T = 512, H = 32, D = 128, n = T * H * D;
  const video = Int32Array.from({ length: 3 * T }, (_, i) => {
    const t = i % T;
    return [Math.floor(t / 256), Math.floor(t / 16) % 16, t % 16][Math.floor(i / T)];
  });
  const grid = Int32Array.from({ length: 2 * T }, (_, i) => (i < T ? Math.floor(i / 32) : (i - T) % 32));
  const linear = Int32Array.from({ length: T }, (_, t) => t);
  const conventions = {
    plain: [{}, linear], mrope: [{ mrope: { section: [16, 24, 24] } }, video],
    mrope_interleaved: [{ mrope: { section: [24, 20, 20], interleaved: true } }, video],
    qwen2vl_2d: [{ vision2d: 'qwen2-vl' }, grid], pixtral_2d: [{ vision2d: 'pixtral' }, grid],
  };
  const owned = [];
  const members = {};
  for (const [name, [opts, positions]] of Object.entries(conventions)) {
    const rope = simd.rope({ headDim: D, base: 1e6, cacheLength: T, ...opts });
    const x = simd.tensor(randomFill(new Float32Array(n), 7));
    owned.push(rope, x);
    members[name] = () => rope.apply(x, { heads: H, positions });
  }
  record(`variants/${T}x${H}x${D}`, 'zero-copy tensors; time ÷ plain', members);
  // Flux.1 at 1024×1024 (64×64 packed latents + 512 text tokens, 24 heads × 128) beside plain
  // 1-D RoPE of the same bytes (interleaved, positions 0 … 4607), zero-copy tensors.
  const flux = simd.axesPositions({ model: 'flux', height: 64, width: 64, textTokens: 512 });
  const fluxRope = simd.rope({ headDim: D, axes: 'flux', cacheLength: 64 });
  const plain1d = simd.rope({ headDim: D, layout: 'interleaved', cacheLength: flux.tokens });
  const fx = simd.tensor(randomFill(new Float32Array(flux.tokens * 24 * D), 9));
  const px = simd.tensor(randomFill(new Float32Array(flux.tokens * 24 * D), 9));
  const linearFlux = Int32Array.from({ length: flux.tokens }, (_, t) => t);
  owned.push(fluxRope, plain1d, fx, px);
  record(`axes/${flux.tokens}x24x${D}`, 'zero-copy tensors; time ÷ plain', {
    plain: () => plain1d.apply(px, { heads: 24, positions: linearFlux }),
    flux: () => fluxRope.apply(fx, { heads: 24, positions: flux.positions }),
  });
  const rope = simd.rope({ headDim: D, base: 1e6, cacheLength: T });
  const f32 = randomFill(new Float32Array(n), 8);
  const bits = (dtype) => {
    const u = new Uint16Array(n);
    const b = new Uint32Array(f32.buffer);
    for (let i = 0; i < n; i++) u[i] = dtype === 'bfloat16' ? b[i] >>> 16 : 0x3c00 | (b[i] >>> 22); // finite values
    return u;
  };
  const f16 = bits('float16');
  const bf16 = bits('bfloat16');
  const tensors = { float32: simd.tensor(f32), float16: simd.tensor(f16, { dtype: 'float16' }),
    bfloat16: simd.tensor(bf16, { dtype: 'bfloat16' }) };
  record(`half/${T}x${H}x${D}`, 'zero-copy tensors (pe.tensor(n, { dtype })); time ÷ float32', {
    float32: () => rope.apply(tensors.float32, { heads: H, tokens: T, start: 0 }),
    float16: () => rope.apply(tensors.float16, { heads: H, tokens: T, start: 0 }),
    bfloat16: () => rope.apply(tensors.bfloat16, { heads: H, tokens: T, start: 0 }),
  });
  // Context, not a target: the copying path adds a copy in and out of the call.
  record(`half_copying/${T}x${H}x${D}`, 'plain typed arrays (copied around the call); time ÷ float32', {
    float32: () => rope.apply(f32, { heads: H, tokens: T, start: 0 }),
    float16: () => rope.apply(f16, { heads: H, tokens: T, start: 0, dtype: 'float16' }),
    bfloat16: () => rope.apply(bf16, { heads: H, tokens: T, start: 0, dtype: 'bfloat16' }),
  });
  for (const o of [...owned, ...Object.values(tensors), rope]) o.dispose();
}

// ── the float16 bound: the same element count as half/512x32x128, float32 apply beside a
// bare float16 round trip (bare-pass.mjs: the exact conversions alone, no rotation) and the
// float16 apply; the round trip ÷ float32 is the least any exact float16 apply can reach ──
{
  const T = 512, H = 32, D = 128, n = T * H * D;
  const rope = simd.rope({ headDim: D, base: 1e6, cacheLength: T });
  const f32 = randomFill(new Float32Array(n), 8);
  const f16 = new Uint16Array(n);
  const b = new Uint32Array(f32.buffer);
  for (let i = 0; i < n; i++) f16[i] = 0x3c00 | (b[i] >>> 22); // normal values, as in half/
  const tensors = { float32: simd.tensor(f32), float16: simd.tensor(f16, { dtype: 'float16' }) };
  const bare = bareHalfPass(n, (a) => a.set(f16));
  record(`half_bound/${T}x${H}x${D}`, 'float16 round trip alone (no rotation) beside the applies; time ÷ float32', {
    float32: () => rope.apply(tensors.float32, { heads: H, tokens: T, start: 0 }),
    float16: () => rope.apply(tensors.float16, { heads: H, tokens: T, start: 0 }),
    roundTrip: bare.run,
  });
  for (const o of [...Object.values(tensors), rope]) o.dispose();
}

// ── the trainer's step: the page's default model (recall, RoPE half) ──────────────────────
// One Adam step on 8 sequences of 64 (dim 16, 2 heads, 2 layers, MLP 32, 16 symbols):
// pe.train's step ('posenc/train': forward, backward, Adam in WebAssembly; it draws its own batch) beside the
// same model's step in plain JS (bench/plain-js-train.mjs) on a batch drawn once.
{
  const sizes = { dim: 16, heads: 2, layers: 2, mlp: 32 };
  const T = 64, SEQS = 8, SYMBOLS = 16, DISTANCE = 8;
  const options = { task: 'recall', encoding: 'rope-half', symbols: SYMBOLS, distance: DISTANCE, length: T, batch: SEQS,
    steps: 1e6, evalLengths: [T], ...sizes };
  const [simdTrainer, scalarTrainer] = await Promise.all([createTrainer({ simd: true }), createTrainer({ simd: false })]);
  const trainers = { simd: simdTrainer.train(options), scalar: scalarTrainer.train(options) };
  const js = plainTrainer({ vocab: SYMBOLS, length: T, ...sizes });
  const tokens = new Int32Array(SEQS * T), targets = new Int32Array(SEQS * T);
  const symbols = randomFill(new Float32Array(SEQS * T), 3);
  for (let i = 0; i < SEQS * T; i++) tokens[i] = Math.floor((symbols[i] + 1) / 2 * SYMBOLS) % SYMBOLS;
  for (let i = 0; i < SEQS * T; i++) targets[i] = i % T >= DISTANCE ? tokens[i - DISTANCE] : -1;
  // The plain-JS step is one large function V8 optimizes only after a few hundred ms of
  // steps (its unoptimized code boxes every double): a longer warm-up than the other groups.
  const trainPaired = pairedRunner({ runs: RUNS, warmNs: (quick ? 1 : 3) * 1e9 });
  groups['train/step/recall-rope-half/8x64'] = { ...trainPaired({
    simd: () => trainers.simd.step(1),
    scalar: () => trainers.scalar.step(1),
    js: () => js.step(tokens, targets, SEQS, T),
  }), note: 'one forward + backward + Adam step; plain JS = bench/plain-js-train.mjs' };
  for (const t of Object.values(trainers)) t.dispose();
}

// ── sizes of both binaries (raw and gzip) ─────────────────────────────────────────────
const dist = (f) => fileURLToPath(new URL(`../../wasm/dist/${f}`, import.meta.url));
const sizes = {};
for (const flavour of ['simd', 'scalar']) {
  const wasm = readFileSync(dist(`posenc-${flavour}.wasm`));
  const glue = readFileSync(dist(`posenc-${flavour}.js`));
  const wasmGzip = gzipSync(wasm, { level: 9 }).length;
  const glueGzip = gzipSync(glue, { level: 9 }).length;
  sizes[flavour] = { wasmRaw: wasm.length, wasmGzip, glueRaw: glue.length, glueGzip, gzipTotal: wasmGzip + glueGzip };
}

writeFileSync(out, JSON.stringify({
  node: process.version,
  runs: RUNS,
  clock: 'process CPU time (user + system)',
  copyNote: 'copy = `copyWithin` on the WebAssembly memory buffer (V8: memmove of the backing store; the package has no copy primitive).',
  groups,
  sizes,
}, null, 2) + '\n');
console.error(`wasm results → ${out}`);
