// Exhaustion and leaks beyond memory.test.mjs: every failing call of the bad-input
// matrix (hardening-cases.mjs) replayed, mixed with valid calls, 100 000 times — a refusal
// that allocates before it checks, or forgets to free on its error path, shows up as
// allocator bytes in use or memory growth; then the size limits of scores, permutation,
// decayBound, attentionWeights and shiftMatrix, and all of them with WebAssembly memory full.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPosenc } from '../../wasm/index.js';
import { CASES, makeEnv, numbers, sameNumbers, setPath, valuesFor } from './hardening-cases.mjs';
import { Random } from './reference.mjs';

const CALLS = 100_000;

/** Every refused call of the matrix as a thunk, and every entry's valid call with its numbers. */
function replayList(pe, env) {
  const bad = [];
  for (const entry of CASES) {
    for (const arg of entry.args) {
      for (const [label, make] of valuesFor(entry, arg, env)) {
        if (arg.ok?.[label]) continue;
        bad.push({
          what: `${entry.name} ${arg.path} = ${label}`,
          run() {
            const slots = entry.make(env);
            setPath(slots, arg.path, make(env));
            entry.call(pe, slots, env);
          },
        });
      }
    }
  }
  const valid = CASES.map((entry) => ({
    what: entry.name,
    run: () => numbers(entry.call(pe, entry.make(env), env)),
  }));
  for (const v of valid) v.known = v.run();
  return { bad, valid };
}

/** Runs one call; returns a problem string or null. */
function runOne(call, isBad) {
  if (!isBad) return sameNumbers(call.run(), call.known) ? null : `${call.what}: valid call returned other numbers`;
  try {
    call.run();
  } catch (e) {
    return e instanceof TypeError || e instanceof RangeError ? null : `${call.what}: threw ${e?.constructor?.name}: ${e?.message}`;
  }
  return `${call.what}: accepted`;
}

for (const simd of [true, false]) {
  test(`${simd ? 'simd' : 'scalar'}: ${CALLS} calls (2 of 3 refused, from the matrix) leave memory and in-use bytes unchanged`, async () => {
    const pe = await createPosenc({ simd });
    const env = makeEnv(pe);
    const { bad, valid } = replayList(pe, env);
    const problems = new Set();
    // Warm-up: every call once, so scratch buffers reach their final size.
    for (const c of bad) runOne(c, true);
    for (const c of valid) runOne(c, false);
    const before = pe.memoryStats();
    const rng = new Random(6);
    let refused = 0;
    for (let i = 0; i < CALLS; i++) {
      const isBad = i % 3 !== 2;
      const list = isBad ? bad : valid;
      const p = runOne(list[rng.below(list.length)], isBad);
      if (p) problems.add(p);
      refused += isBad;
    }
    const after = pe.memoryStats();
    assert.deepEqual([...problems], []);
    assert.deepEqual(after, before, 'WebAssembly memory size and allocator bytes in use after the replay');
    assert.deepEqual(Array.from(env.sentinel.array), Array.from(env.sentinelValues), 'sentinel tensor intact');
    console.log(`replay (${simd ? 'simd' : 'scalar'}): ${CALLS} calls, ${refused} of them refused, drawn from ` +
      `${bad.length} bad inputs and ${valid.length} valid calls; memory ${after.memoryBytes} B, in use ${after.heapInUse} B`);
  });
}

// ---- size limits: refused before memory grows ---------------------------------------------

const pe = await createPosenc();
const ref = await createPosenc(); // a second instance that never sees a failure: the truth

/** Asserts fn throws RangeError matching `pattern`, without growing memory or leaking. */
function assertRefusedCleanly(fn, pattern, what) {
  const before = pe.memoryStats();
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RangeError, `${what}: ${e?.constructor?.name}: ${e?.message}`);
    assert.match(e.message, pattern, what);
    return true;
  });
  assert.equal(pe.memoryStats().memoryBytes, before.memoryBytes, `${what}: memory grew on a refused request`);
}

// A check that the module still computes: the worked facts PE rows p = 0..3 for d = 8, and the
// first entries of M(3)·PE(5) = PE(8).
function assertAlive(what) {
  assert.deepEqual(Array.from(pe.sinusoidal({ dim: 8, positions: 4 })), Array.from(ref.sinusoidal({ dim: 8, positions: 4 })), what);
  const shifted = pe.applyShift(pe.sinusoidalRow({ dim: 8, position: 5 }), { k: 3 });
  [0.98936, -0.14550, 0.71736, 0.69671].forEach((v, i) => assert.ok(Math.abs(shifted[i] - v) < 5e-5, `${what}: M(3)·PE(5)[${i}] = ${shifted[i]}`));
}

test('past each maximum, scores/permutation/decayBound/attentionWeights/shiftMatrix give a RangeError without growing memory', () => {
  const rows = (n, dim = 2) => new Float32Array(n * dim);
  const cases = [
    // Tq × Tk output of 2^28 + ε floats (1 GiB), in every mode (additive needs five such).
    ['scores rotary 16385 × 16384', () => pe.scores({ q: rows(16385), k: rows(16384), dim: 2 }), /q|k|exceeds|memory/],
    ['scores additive 30000²', () => pe.scores({ q: rows(30000, 8), k: rows(30000, 8), dim: 8, mode: 'additive' }), /q|k|exceeds|memory/],
    ['scores none 1 × 2^28+1', () => pe.scores({ q: rows(1), k: rows(2 ** 28 / 64 + 1, 128), dim: 128, mode: 'none' }), /q|k|exceeds|memory/],
    ['permutation n = 2^24 + 1', () => pe.permutation({ n: 2 ** 24 + 1, seed: 1 }), /\bn\b/],
    ['permutation n = 2^31 − 1', () => pe.permutation({ n: 2 ** 31 - 1, seed: 1 }), /\bn\b/],
    ['decayBound maxDistance = 2^24 + 1', () => pe.decayBound({ dim: 8, maxDistance: 2 ** 24 + 1 }), /maxDistance|max_distance/],
    ['decayBound dim = 2^17', () => pe.decayBound({ dim: 2 ** 17, maxDistance: 4 }), /\bdim\b/],
    ['attentionWeights modelDim = 4097', () => pe.attentionWeights({ modelDim: 4097, seed: 1 }), /modelDim|model_dim/],
    ['attentionWeights modelDim = 2^20', () => pe.attentionWeights({ modelDim: 2 ** 20, seed: 1 }), /modelDim|model_dim/],
    ['shiftMatrix dim = 2050', () => pe.shiftMatrix({ dim: 2050, k: 1 }), /\bdim\b/],
    ['shiftMatrix dim = 2^30', () => pe.shiftMatrix({ dim: 2 ** 30, k: 1 }), /\bdim\b/],
  ];
  for (const [what, fn, pattern] of cases) {
    assertRefusedCleanly(fn, pattern, what);
    assertAlive(`after ${what}`);
  }
});

test('with WebAssembly memory full, every allocating entry point gives a RangeError; freeing restores it', () => {
  const fullRope = pe.rope({ headDim: 64, cacheLength: 0 }); // made before memory is full
  // Fill memory with tensors (64 MiB, then 1 MiB, then 64 KiB pieces) until none fits.
  const fill = [];
  for (const piece of [1 << 24, 1 << 18, 1 << 14]) {
    for (;;) {
      try {
        fill.push(pe.tensor(piece));
      } catch (e) {
        assert.ok(e instanceof RangeError, `tensor(${piece}) when full: ${e?.constructor?.name}: ${e?.message}`);
        break;
      }
    }
  }
  const stats = pe.memoryStats();
  assert.ok(stats.memoryBytes >= 2 ** 31 - 2 ** 16, `memory grew to its maximum: ${stats.memoryBytes}`);

  // Each needs ≥ 1 MiB, far more than the < 64 KiB left.
  const q = ref.fillUniform(new Float32Array(600 * 8), { seed: 1 });
  const weights = ref.attentionWeights({ modelDim: 64, seed: 2 });
  const x = ref.fillUniform(new Float32Array(512 * 64), { seed: 3 });
  const calls = [
    ['scores rotary', (p) => p.scores({ q, k: q, dim: 8 }).scores],
    ['scores additive', (p) => numbers(p.scores({ q, k: q, dim: 8, mode: 'additive' }))],
    ['permutation', (p) => p.permutation({ n: 2 ** 19, seed: 4 })],
    ['decayBound', (p) => p.decayBound({ dim: 8, maxDistance: 2 ** 18 })],
    ['attentionWeights', (p) => numbers(p.attentionWeights({ modelDim: 512, seed: 5 }))],
    ['shiftMatrix', (p) => p.shiftMatrix({ dim: 512, k: 7 })],
    ['sinusoidal', (p) => p.sinusoidal({ dim: 64, positions: 1 << 14 })],
    ['selfAttention', (p) => numbers(p.selfAttention({ x, weights, modelDim: 64, heads: 2 }))],
    ['rope', (p) => { const r = p.rope({ headDim: 128, cacheLength: 1 << 14 }); r.dispose(); return [r.headDim]; }],
    ['tensor', (p) => { const t = p.tensor(1 << 20); t.dispose(); return [t.length]; }],
  ];
  // Tensors sit on 64-byte lines, so full memory ends in fragments; the first allocation a
  // call attempts there may leave the allocator counting a sliver under one 16-byte header
  // as in use. Anything a refused call really kept would show again on the second call.
  let inUse = stats.heapInUse;
  for (const [what, call] of calls) {
    for (const attempt of [1, 2]) {
      assert.throws(() => call(pe), (e) => {
        assert.ok(e instanceof RangeError, `${what} when full: ${e?.constructor?.name}: ${e?.message}`);
        assert.match(e.message, /\d+ (more )?bytes/, `${what} when full says how many bytes: ${e.message}`);
        return true;
      });
      const now = pe.memoryStats().heapInUse;
      if (attempt === 2) assert.equal(now, inUse, `${what}: a refused call kept memory`);
      else assert.ok(now - inUse >= 0 && now - inUse < 16, `${what}: a refused call kept ${now - inUse} bytes`);
      inUse = now;
    }
  }
  assert.ok(inUse - stats.heapInUse < 64, `refused calls kept ${inUse - stats.heapInUse} bytes in all`);
  // The result-sized refusals name the arguments that sized them and the bytes.
  const named = [
    [() => pe.sinusoidal({ dim: 64, positions: 1 << 14 }), /sinusoidal\(\) returns positions × dim = 16384 × 64 floats \(4194304 bytes\)/],
    [() => pe.sinusoidal({ dim: 64, positions: new Int32Array(1 << 14) }), /positions\.length × dim = 16384 × 64 floats/],
    [() => fullRope.cosSin({ start: 0, tokens: 1 << 14 }), /rope\.cosSin\(\) returns cos and sin of tokens × rotaryDim = 16384 × 64 floats each \(8388608 bytes\)/],
    [() => pe.mropePositions({ model: 'qwen2-vl', items: [{ text: 1 << 20 }] }), /mropePositions\(\) .*items.*|\d+ more bytes/],
  ];
  for (const [call, pattern] of named) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof RangeError, `${e?.constructor?.name}: ${e?.message}`);
      assert.match(e.message, pattern);
      assert.match(e.message, /\d+ (more )?bytes/);
      return true;
    });
  }
  for (const t of fill) t.dispose();
  fullRope.dispose();
  assertAlive('after memory was full');
  // Freed: the same calls now succeed and agree with the instance that never failed.
  for (const [what, call] of calls) assert.deepEqual(Array.from(call(pe)), Array.from(call(ref)), `${what} after freeing`);
});
