// The browser half of tests/web/package-browser.test.mjs: loads the package in a plain page
// (or the same page built by Vite), runs worked-fact checks on both binaries, and publishes
// { simdSupported, results: [{ name, ok, detail }] } as JSON in #results.
import { createPosenc, simdSupported } from '../../../wasm/index.js';

const results = [];
const check = (name, ok, detail = '') => results.push({ name, ok: Boolean(ok), detail: String(detail) });
const near = (a, b, tol) => Math.abs(a - b) <= tol;

async function run(flavour) {
  const pe = await createPosenc({ simd: flavour === 'simd' });
  check(`${flavour}: loaded the requested binary`, pe.simd === (flavour === 'simd'), pe.simd);

  const theta = pe.inverseFrequencies({ dim: 8 }).invFreq;
  check(`${flavour}: θ = [1, 0.1, 0.01, 0.001]`, [1, 0.1, 0.01, 0.001].every((v, i) => near(theta[i], v, 1e-17)), Array.from(theta));

  const t = pe.sinusoidal({ dim: 8, positions: 4 });
  const p3 = [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000];
  check(`${flavour}: PE row p=3 to 4 decimals`, p3.every((v, j) => near(t[24 + j], v, 5.01e-5)), Array.from(t.subarray(24)));

  const shifted = pe.applyShift(pe.sinusoidalRow({ dim: 8, position: 5 }), { k: 3 });
  check(`${flavour}: M(3)·PE(5) = PE(8)`, [0.98936, -0.14550, 0.71736, 0.69671].every((v, j) => near(shifted[j], v, 5e-6)), Array.from(shifted));

  const norms = pe.peNorms({ dim: 32, count: 100 });
  check(`${flavour}: ‖PE(p)‖ = 4 for d = 32`, norms.every((n) => near(n, 4, 1e-6)), norms[99]);

  const q = new Float32Array(8);
  const k = new Float32Array(8);
  q[2] = 1;
  k[3] = 1;
  const hand = [[2, 5], [5, 8], [0, 3], [97, 100]].map(([m, n]) =>
    pe.scores({ q, k, dim: 8, qPositions: [m], kPositions: [n], layout: 'interleaved' }).scores[0]);
  check(`${flavour}: hand check −sin 0.3`, hand.every((s) => near(s, -0.295520, 5e-7)), hand);

  const rope = pe.rope({ headDim: 64 });
  const tensor = pe.tensor(pe.fillUniform(new Float32Array(4 * 2 * 64), { seed: 1 }));
  const before = Array.from(tensor.array);
  rope.apply(tensor, { tokens: 4, heads: 2, start: 1000000 });
  rope.invert(tensor, { tokens: 4, heads: 2, start: 1000000 });
  check(`${flavour}: zero-copy apply/invert round trip`, tensor.array.every((v, i) => near(v, before[i], 2e-6)));
  tensor.dispose();
  rope.dispose();

  const w = pe.attentionWeights({ modelDim: 16, seed: 1 });
  const x = pe.fillUniform(new Float32Array(6 * 16), { seed: 2 });
  const none = pe.permutationTest({ x, weights: w, modelDim: 16, heads: 2, seed: 3 });
  const rot = pe.permutationTest({ x, weights: w, modelDim: 16, heads: 2, mode: 'rotary', seed: 3 });
  check(`${flavour}: permutation equivariance without positions only`, none < 1e-6 && rot > 1e-3, [none, rot]);

  let error;
  try {
    pe.sinusoidal({ dim: 7, positions: 2 });
  } catch (e) {
    error = e;
  }
  check(`${flavour}: bad input → RangeError naming dim`, error instanceof RangeError && /\bdim\b/.test(error.message), error?.message);
  try {
    pe.tensor(6e8);
  } catch (e) {
    error = e;
  }
  check(`${flavour}: too-large request → RangeError`, error instanceof RangeError && /memory/.test(error.message), error?.message);
  check(`${flavour}: still works afterwards`, pe.sinusoidal({ dim: 2, positions: [0] })[1] === 1);
  return pe.sinusoidal({ dim: 64, positions: 50, start: 12345 });
}

const out = document.getElementById('results');
try {
  const simd = await run('simd');
  const scalar = await run('scalar');
  check('SIMD and scalar tables agree', simd.every((v, i) => near(v, scalar[i], 1.2e-7)));
  const auto = await createPosenc();
  check('default load picks SIMD when supported', auto.simd === simdSupported(), auto.simd);
} catch (e) {
  check('no exception', false, `${e?.name}: ${e?.message}`);
}
out.textContent = JSON.stringify({ simdSupported: simdSupported(), results });
out.dataset.done = 'true';
