// SharedArrayBuffer arguments, both binaries (README "How every function reads its
// arguments"): a worker grows a growable SharedArrayBuffer in a loop while this thread calls
// every entry point that copies an array through length-tracking views of it — whatever a
// view measured is all that is read or written, so canary tensors stay byte-identical and
// each call returns or refuses by name; and two SharedArrayBuffer objects over one memory
// (structuredClone) give what the documented order says: every input is read whole before
// anything is written, results are written back in argument order.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { loadBoth, Random, randomFloats } from './support.mjs';

const KIB = 1024;
const STEP = 16 * KIB; // each grow: a whole number of [tokens][64] float rows
const FIRST = 16 * KIB;
const MAX = 512 * KIB;
const SABS = 1000;
const CALLS = 3000;
const DEADLINE_MS = 60000; // a guard against a hang: the loop ends at CALLS, sooner on a quiet machine

// The worker: grows the SharedArrayBuffer the main thread is on (ctrl[0]), STEP at a time,
// every ~0.15 ms, until ctrl[1] is set.
const GROWER = `
const { workerData } = require('node:worker_threads');
const { sabs, ctrl } = workerData;
const control = new Int32Array(ctrl);
let grows = 0;
while (Atomics.load(control, 1) === 0) {
  const i = Atomics.load(control, 0);
  const sab = sabs[i];
  if (sab !== null && sab.byteLength + ${STEP} <= ${MAX}) {
    sab.grow(sab.byteLength + ${STEP});
    grows++;
  }
  if (i > 0) sabs[i - 1] = null;
  Atomics.wait(control, 2, 0, 0.15);
}
Atomics.store(control, 3, grows);
`;

// Every entry point that copies a caller's array, on length-tracking views of `sab` (and of
// `other`, a second growable buffer for outputs that must not overlap inputs).
function entryPoints(pe, rope, rope3) {
  const f32 = (sab) => new Float32Array(sab);
  const i32 = (sab) => new Int32Array(sab, 0, 8); // positions: a few, fixed (int32 ids)
  const u16 = (sab) => new Uint16Array(sab);
  // Four length-tracking matrices (equal lengths; the core refuses all but modelDim² after
  // they were staged) and a fixed x of 8 tokens × 8.
  const weightsOf = (sab) => ({ wq: f32(sab), wk: f32(sab), wv: f32(sab), wo: f32(sab) });
  const x8 = (sab) => new Float32Array(sab, 0, 64);
  return [
    ['rope.apply', (s) => rope.apply(f32(s), { tokens: 4 })],
    ['rope.apply out', (s, o) => rope.apply(f32(s), { tokens: 4, out: f32(o) })],
    ['rope.apply positions', (s) => rope.apply(f32(s), { positions: i32(s) })],
    ['rope.apply float16', (s) => rope.apply(u16(s), { tokens: 4, dtype: 'float16' })],
    ['rope.invert', (s) => rope.invert(f32(s), { tokens: 4 })],
    ['rope.applyQK', (s, o) => rope.applyQK(f32(s), f32(o), { tokens: 4 })],
    ['rope.shift', (s) => rope.shift(f32(s), { tokens: 4, delta: 3 })],
    ['rope.cosSin', (s) => rope.cosSin({ positions: i32(s) })],
    ['rope.row axes', (s) => rope3.row(new Int32Array(s, 0, 3))],
    ['scores', (s, o) => pe.scores({ q: f32(s), k: new Float32Array(o, 0, 256), dim: 64 })],
    ['scores positions', (s) => pe.scores({ q: new Float32Array(s, 0, 512), k: new Float32Array(s, 0, 512), dim: 64,
      qPositions: i32(s), kPositions: i32(s) })],
    ['shiftInvariance', (s) => pe.shiftInvariance({ q: new Float32Array(s, 0, 512), k: f32(s), dim: 64, shift: 5 })],
    ['relativeKernel', (s) => pe.relativeKernel({ q: f32(s), k: f32(s), delta: 2 })],
    ['selfAttention', (s, o) => pe.selfAttention({ x: x8(o), weights: weightsOf(s), modelDim: 8 })],
    ['selfAttention positions', (s, o) => pe.selfAttention({ x: x8(o), weights: weightsOf(s), modelDim: 8,
      positions: i32(s), mode: 'rotary' })],
    ['permutationTest', (s, o) => pe.permutationTest({ x: x8(o), weights: weightsOf(s), modelDim: 8, seed: 1 })],
    ['addSinusoidal', (s) => pe.addSinusoidal({ e: new Float32Array(s, 0, 8 * 64), dim: 64, positions: i32(s) })],
    ['addSinusoidal e', (s) => pe.addSinusoidal({ e: f32(s), dim: 64, positions: i32(s) })],
    ['positionAngles', (s) => pe.positionAngles({ dim: 64, positions: i32(s) })],
    ['sinusoidal positions', (s) => pe.sinusoidal({ dim: 64, positions: i32(s) })],
    ['sinusoidal out', (s) => pe.sinusoidal({ dim: 64, positions: new Float32Array(s).length / 64, out: f32(s) })],
    ['applyShift', (s) => pe.applyShift(f32(s), { k: 3 })],
    ['tensor', (s) => pe.tensor(f32(s)).dispose()],
    ['tensor float16', (s) => pe.tensor(u16(s), { dtype: 'bfloat16' }).dispose()],
    ['fillUniform', (s) => pe.fillUniform(f32(s), { seed: 4 })],
    ['mropePositions', (s) => pe.mropePositions({ model: 'qwen2-vl', items: [{ text: 2 }, { image: new Int32Array(s, 0, 3) }] })],
    ['learnedTable.lookup', (s) => pe.learnedTable({ positions: 16, dim: 4 }).lookup(new Int32Array(s, 0, 8))],
  ];
}

// Fills the first bytes a call reads with values every entry point accepts: small floats,
// positions 1…8, an image grid (1, 2, 2).
function seed(sab) {
  const f = new Float32Array(sab);
  for (let i = 0; i < f.length; i++) f[i] = ((i * 7919) % 997) / 997 - 0.5;
  new Int32Array(sab, 0, 8).set([1, 2, 2, 4, 5, 6, 7, 8]);
}

for (const flavour of ['simd', 'scalar']) {
  test(`${flavour}: a worker grows a SharedArrayBuffer while every copying entry point reads it: canaries intact`, async () => {
    const pe = (await loadBoth())[flavour];
    const rope = pe.rope({ headDim: 64 });
    const rope3 = pe.rope({ headDim: 64, mrope: { section: [8, 12, 12] } });
    const calls = entryPoints(pe, rope, rope3);
    // Warm-up on fixed buffers (scratch reaches its size), then the canaries around it.
    const warm = new SharedArrayBuffer(MAX, { maxByteLength: MAX });
    const warmOther = new SharedArrayBuffer(MAX, { maxByteLength: MAX });
    seed(warm);
    seed(warmOther);
    for (const [, call] of calls) {
      try { call(warm, warmOther); } catch { /* refusals are fine here */ }
    }
    const rng = new Random(36);
    const canaries = [];
    for (let i = 0; i < 48; i++) {
      const values = randomFloats(rng, 256 + 512 * (i % 5));
      canaries.push([pe.tensor(values), values]);
    }

    const sabs = Array.from({ length: SABS }, () => new SharedArrayBuffer(FIRST, { maxByteLength: MAX }));
    const others = new Array(SABS).fill(null);
    const ctrl = new SharedArrayBuffer(16);
    const control = new Int32Array(ctrl);
    const worker = new Worker(GROWER, { eval: true, workerData: { sabs, ctrl } });
    const problems = new Set();
    let made = 0;
    let refused = 0;
    const start = Date.now();
    try {
      await new Promise((ok) => setTimeout(ok, 50)); // the worker is running
      for (let i = 0; i < SABS && made < CALLS && Date.now() - start < DEADLINE_MS; i++) {
        Atomics.store(control, 0, i);
        const sab = sabs[i];
        others[i] = new SharedArrayBuffer(64 * KIB, { maxByteLength: MAX });
        seed(others[i]);
        new Int32Array(sab, 0, 8).set([1, 2, 2, 4, 5, 6, 7, 8]);
        for (let k = 0; sab.byteLength + STEP <= MAX && k < 400; k++) {
          const [what, call] = calls[(i + k) % calls.length];
          try {
            call(sab, others[i]);
          } catch (e) {
            if (!(e instanceof RangeError || e instanceof TypeError)) problems.add(`${what}: ${e?.constructor?.name}: ${e?.message}`);
            refused++;
          }
          made++;
        }
        sabs[i] = null;
        others[i] = null;
      }
    } finally {
      Atomics.store(control, 1, 1);
      await new Promise((ok) => worker.once('exit', ok));
    }
    assert.deepEqual([...problems], []);
    assert.ok(made >= 1500, `only ${made} calls were made`);
    assert.ok(Atomics.load(control, 3) > 100, `the worker grew only ${Atomics.load(control, 3)} times`);
    for (const [i, [t, values]] of canaries.entries()) {
      assert.deepEqual(new Uint8Array(t.array.buffer, t.array.byteOffset, 4 * t.length),
        new Uint8Array(values.buffer), `canary tensor ${i} changed`);
      t.dispose();
    }
    // The module still computes what a plain array gives.
    const x = randomFloats(rng, 4 * 64);
    const want = rope.apply(x.slice(), { tokens: 4 });
    const sab = new SharedArrayBuffer(4 * x.length, { maxByteLength: MAX });
    new Float32Array(sab).set(x);
    assert.deepEqual(rope.apply(new Float32Array(sab), { tokens: 4 }), want);
    rope.dispose();
    rope3.dispose();
    console.log(`${flavour}: ${made} calls (${refused} refused by name) while the worker grew ${Atomics.load(control, 3)} times`);
  });

  test(`${flavour}: views of one memory through two SharedArrayBuffer objects give the documented order`, async () => {
    const pe = (await loadBoth())[flavour];
    const rope = pe.rope({ headDim: 64 });
    const rng = new Random(2);
    const x0 = randomFloats(rng, 8 * 2 * 64);
    const rotate = (x, opts) => rope.apply(x.slice(), opts);
    const shared = (values) => {
      const sab = new SharedArrayBuffer(4 * values.length);
      new Float32Array(sab).set(values);
      return sab;
    };
    for (const fn of ['apply', 'invert']) {
      // out over x's memory, exactly: x is read whole, then out written (so x holds it too).
      let sab = shared(x0);
      let x = new Float32Array(sab);
      let out = new Float32Array(structuredClone(sab));
      const want = rope[fn === 'apply' ? 'apply' : 'invert'](x0.slice(), { tokens: 8, heads: 2 });
      rope[fn](x, { tokens: 8, heads: 2, out });
      assert.deepEqual(out, want, `${fn}: out`);
      assert.deepEqual(x, want, `${fn}: x shares out's memory`);
      // out over part of x's memory (64 floats further on): x read whole before out is written.
      sab = shared(new Float32Array([...x0, ...new Float32Array(64)]));
      x = new Float32Array(sab, 0, x0.length);
      out = new Float32Array(structuredClone(sab), 4 * 64, x0.length);
      rope[fn](x, { tokens: 8, heads: 2, out });
      const memory = new Float32Array([...x0, ...new Float32Array(64)]);
      memory.set(want, 64);
      assert.deepEqual(new Float32Array(sab), memory, `${fn}: partial overlap`);
    }
    // applyQK: k over the first half of q's memory through a clone. q is written back
    // first, then k: the shared floats hold k's rotation.
    const sab = shared(x0);
    const q = new Float32Array(sab);
    const k = new Float32Array(structuredClone(sab), 0, x0.length / 2);
    const qWant = rotate(x0, { tokens: 8, heads: 2 });
    const kWant = rotate(x0.subarray(0, x0.length / 2), { tokens: 8, heads: 1 });
    rope.applyQK(q, k, { tokens: 8, qHeads: 2, kHeads: 1 });
    const memory = qWant.slice();
    memory.set(kWant, 0);
    assert.deepEqual(new Float32Array(sab), memory, 'applyQK: q written, then k');
    rope.dispose();
  });
}
