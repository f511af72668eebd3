// A fixed workload for one posenc instance, shared by the worker and two-instance tests in
// Node (tests/js/workers.test.mjs) and Chromium (tests/web/hardening-isolation.test.mjs).
// Plain ESM with no host APIs, so a page, a Web Worker and a Node worker_thread run the same
// code. It returns what the instance computed (compared bit for bit, by the caller, with
// another instance of the same binary) and the worked-fact checks that failed.

const near = (a, b, tol) => Math.abs(a - b) <= tol;

/** The worked facts (core/README.md) on `pe`; returns the names of those that do not hold. */
export function designFailures(pe) {
  const failed = [];
  const theta = pe.inverseFrequencies({ dim: 8 }).invFreq;
  if (![1, 0.1, 0.01, 0.001].every((v, i) => near(theta[i], v, 1e-15))) failed.push('θ = [1, 0.1, 0.01, 0.001]');
  const t = pe.sinusoidal({ dim: 8, positions: 4 });
  const p3 = [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000];
  if (!p3.every((v, j) => near(t[24 + j], v, 5.01e-5))) failed.push('PE row p=3');
  const shifted = pe.applyShift(pe.sinusoidalRow({ dim: 8, position: 5 }), { k: 3 });
  if (![0.98936, -0.14550, 0.71736, 0.69671].every((v, j) => near(shifted[j], v, 5e-6))) failed.push('M(3)·PE(5) = PE(8)');
  const q = new Float32Array(8);
  const k = new Float32Array(8);
  q[2] = 1;
  k[3] = 1;
  const s = pe.scores({ q, k, dim: 8, qPositions: [97], kPositions: [100], layout: 'interleaved' }).scores[0];
  if (!near(s, -Math.sin(0.3), 5e-7)) failed.push('hand check −sin 0.3');
  return failed;
}

/**
 * Runs the workload with `seed` on `pe`: a table, a RoPE round on a tensor, scores and
 * attention, one refused call in the middle. Returns { failed, results: {name: number[]},
 * error: { name, message } of the refused call, simd }.
 */
export function workload(pe, seed) {
  const failed = designFailures(pe);
  const results = {};
  results.table = Array.from(pe.sinusoidal({ dim: 64, positions: 50, start: seed * 1000 }));
  const x = pe.tensor(pe.fillUniform(new Float32Array(16 * 2 * 64), { seed }));
  const rope = pe.rope({ headDim: 64, layout: 'half', scaling: { type: 'linear', factor: 2 } });
  rope.apply(x, { tokens: 16, heads: 2, start: seed * 100000 });
  let error = null;
  try {
    rope.apply(x, { tokens: 16, heads: 2 ** 31, start: 0 });
  } catch (e) {
    error = { name: e.constructor.name, message: e.message };
  }
  results.rotated = Array.from(x.array);
  rope.shift(x, { tokens: 16, heads: 2, delta: -seed });
  results.shifted = Array.from(x.array);
  x.dispose();
  rope.dispose();
  const qk = pe.fillUniform(new Float32Array(12 * 32), { seed: seed + 1 });
  results.scores = Array.from(pe.scores({ q: qk, k: qk, dim: 32, mode: 'additive', qPositions: Array.from({ length: 12 }, (_, i) => i * seed) }).scores);
  const weights = pe.attentionWeights({ modelDim: 16, seed });
  results.attention = Array.from(pe.selfAttention({ x: qk, weights, modelDim: 16, heads: 2, mode: 'rotary', causal: true }).output);
  results.permutation = Array.from(pe.permutation({ n: 100, seed }));
  failed.push(...designFailures(pe).map((f) => `after the workload: ${f}`));
  return { failed, results, error, simd: pe.simd };
}
