// tests/vectors/generate.mjs — writes the golden float64 cases of tests/vectors/*.json from
// the test reference (tests/js/reference.mjs). Run `node tests/vectors/generate.mjs` after a
// change to the reference and commit the JSON; the C++ (tests/core/test_vectors.cpp), JS and
// page tests all read these files, so all three faces are held to one set of truths.
//
// Format of every file:
//   { "about": what the cases check, "generator": "tests/vectors/generate.mjs",
//     "cases": [ { "name": unique id, "kind": what is computed (files with several kinds),
//                  "params": { camelCase options of the JS API, passable to the JS API as is },
//                  "input":  { float32 inputs (x, q, k): plain arrays of float32-exact numbers },
//                  "expected": { float64 truth: arrays or numbers } } ] }
// Arrays are row-major; x is [tokens][heads][headDim] unless params give strides. Numbers
// are written by JSON.stringify (shortest round-trip form), so a parser recovers every double
// exactly. Inputs come from the reference's seeded Random (same generator as posenc::random).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ref from '../js/reference.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// The reference must reproduce the worked facts (core/README.md) before it may write any truth.
function checkDesignFacts() {
  const near = (got, want, tol, what) => {
    if (!(Math.abs(got - want) <= tol)) throw new Error(`reference disagrees with the worked facts: ${what}: ${got} vs ${want}`);
  };
  const d8 = { dim: 8, base: 10000 };
  ref.inverseFrequencies(d8).invFreq.forEach((t, i) => near(t, 10 ** -i, 1e-16, `θ_${i}`));
  [6.28, 62.8, 628, 6283].forEach((l, i) => near(ref.wavelengths(d8)[i], l, 0.005 * l, `λ_${i}`));
  const rows = [[0, 1, 0, 1, 0, 1, 0, 1],
    [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
    [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
    [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000]];
  const table = ref.sinusoidal({ ...d8, positions: 4 });
  rows.flat().forEach((v, i) => near(table[i], v, 5e-5, `PE d=8 value ${i}`));
  [0.84147, 0.54030, 0.0099998, 0.99995].forEach((v, i) => near(ref.sinusoidalRow(1, { dim: 4 })[i], v, 5e-6, `PE d=4 row 1 [${i}]`));
  const shifted = ref.applyShift(ref.sinusoidalRow(5, d8), { ...d8, k: 3 });
  [0.98936, -0.14550, 0.71736, 0.69671].forEach((v, i) => near(shifted[i], v, 5e-6, `M(3)·PE(5) [${i}]`));
  const norm = Math.hypot(...ref.sinusoidalRow(12345, { dim: 32 }));
  near(norm, 4, 1e-12, '‖PE‖ at d=32');
  const one = { q: [0, 0, 1, 0, 0, 0, 0, 0], k: [0, 0, 0, 1, 0, 0, 0, 0], dim: 8, layout: 'interleaved' };
  for (const [m, n] of [[2, 5], [5, 8], [0, 3], [97, 100]]) {
    const { scores } = ref.scores({ ...one, qPositions: [m], kPositions: [n], mode: 'rotary' });
    near(scores[0], -0.295520, 5e-7, `hand check score(${m}, ${n})`);
  }
}
checkDesignFacts();
const list = (a) => Array.from(a);

function write(file, about, cases) {
  const names = new Set(cases.map((c) => c.name));
  if (names.size !== cases.length) throw new Error(`${file}: duplicate case names`);
  // One case per line: small files whose diffs still show which case changed.
  const head = `{"about":${JSON.stringify(about)},"generator":"tests/vectors/generate.mjs","cases":[\n`;
  const text = `${head}${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`;
  writeFileSync(join(here, file), text);
  console.log(`${file}: ${cases.length} cases, ${text.length} bytes`);
}

// ---- ladder.json ----------------------------------------------------------------------------

function ladderCase(name, params) {
  const { invFreq, attentionFactor } = ref.inverseFrequencies(params);
  return { name, params, expected: { invFreq: list(invFreq), attentionFactor, wavelengths: list(ref.wavelengths(params)) } };
}

const longropeShort8 = [1, 1.25, 1.5, 2];
const longropeLong8 = [1.5, 3, 6, 12];
const ladder = [
  ladderCase('d8-design', { dim: 8, base: 10000 }),
  ladderCase('d4-design', { dim: 4, base: 10000 }),
  ladderCase('d2', { dim: 2, base: 10000 }),
  ladderCase('d64-b10', { dim: 64, base: 10 }),
  ladderCase('d128-b500000', { dim: 128, base: 500000 }),
  ladderCase('d96-b1e6', { dim: 96, base: 1e6 }),
  ladderCase('d6-b1.5', { dim: 6, base: 1.5 }),
  ladderCase('linear-d64-f4', { dim: 64, base: 10000, scaling: { type: 'linear', factor: 4 } }),
  ladderCase('dynamic-d64-longer', { dim: 64, base: 10000, scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048, seqLen: 5000 } }),
  ladderCase('dynamic-d64-shorter', { dim: 64, base: 10000, scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048, seqLen: 100 } }),
  ladderCase('dynamic-d4-init', { dim: 4, base: 10000, scaling: { type: 'dynamic', factor: 3, maxPositionEmbeddings: 16 } }),
  ladderCase('yarn-d64-f4', { dim: 64, base: 10000, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } }),
  ladderCase('yarn-d8-f4-design', { dim: 8, base: 10000, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } }),
  ladderCase('yarn-d64-gptoss', { dim: 64, base: 150000, scaling: { type: 'yarn', factor: 32, originalMaxPositionEmbeddings: 4096, betaFast: 32, betaSlow: 1, truncate: false } }),
  ladderCase('yarn-d64-deepseek-mscale', { dim: 64, base: 10000, scaling: { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096, mscale: 1, mscaleAllDim: 0.707 } }),
  ladderCase('yarn-d32-ratio', { dim: 32, base: 10000, scaling: { type: 'yarn', maxPositionEmbeddings: 32768, originalMaxPositionEmbeddings: 4096 } }),
  ladderCase('yarn-d32-fallback', { dim: 32, base: 10000, scaling: { type: 'yarn', factor: 2, maxPositionEmbeddings: 1024 } }),
  ladderCase('yarn-d32-attention-betas', { dim: 32, base: 10000, scaling: { type: 'yarn', factor: 8, originalMaxPositionEmbeddings: 2048, attentionFactor: 0.8, betaFast: 16, betaSlow: 2 } }),
  ladderCase('llama3-d128', { dim: 128, base: 500000, scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } }),
  ladderCase('llama3-d8-design', { dim: 8, base: 10000, scaling: { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 2048 } }),
  ladderCase('longrope-d8-short', { dim: 8, base: 10000, scaling: { type: 'longrope', originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 131072, shortFactor: longropeShort8, longFactor: longropeLong8 } }),
  ladderCase('longrope-d8-long', { dim: 8, base: 10000, scaling: { type: 'longrope', originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 131072, seqLen: 8192, shortFactor: longropeShort8, longFactor: longropeLong8 } }),
  ladderCase('longrope-d8-factor', { dim: 8, base: 10000, scaling: { type: 'longrope', factor: 16, originalMaxPositionEmbeddings: 4096, shortFactor: longropeShort8, longFactor: longropeLong8 } }),
];

// ---- sinusoidal.json ------------------------------------------------------------------------

function tableCase(name, params) {
  return { name, kind: 'table', params, expected: { values: list(ref.sinusoidal(params)) } };
}

const sinusoidal = [];
for (const layout of ['interleaved', 'concat']) {
  sinusoidal.push(
    tableCase(`d8-rows0to3-${layout}`, { dim: 8, base: 10000, positions: 4, layout }),
    tableCase(`d4-row1-${layout}`, { dim: 4, base: 10000, positions: 1, start: 1, layout }),
    tableCase(`d32-row1e6-${layout}`, { dim: 32, base: 10000, positions: 1, start: 1000000, layout }),
    tableCase(`d8-list-${layout}`, { dim: 8, base: 10000, positions: [3, 7, 900, -5], layout }),
    tableCase(`d16-b500-start2e7-${layout}`, { dim: 16, base: 500, positions: 2, start: 20000000, layout }),
    { name: `d8-shift3-${layout}`, kind: 'shift', params: { dim: 8, base: 10000, k: 3, layout },
      expected: { matrix: list(ref.shiftMatrix({ dim: 8, base: 10000, k: 3, layout })),
        // M(3)·PE(5) = PE(8)
        shiftedRow5: list(ref.applyShift(ref.sinusoidalRow(5, { dim: 8, layout }), { dim: 8, base: 10000, k: 3, layout })) } },
  );
}
sinusoidal.push({ name: 'd8-dot-by-distance', kind: 'dotByDistance', params: { dim: 8, base: 10000, ks: [0, 1, 2, 3, 5, 10, 100, 1000] },
  expected: { values: list(ref.peDotByDistance({ dim: 8, base: 10000, ks: [0, 1, 2, 3, 5, 10, 100, 1000] })) } });

// ---- rope.json ------------------------------------------------------------------------------

let seed = 1;
function ropeCase(name, params) {
  const { tokens, heads, headDim } = params;
  const size = params.tokenStride !== undefined
    ? (tokens - 1) * params.tokenStride + (heads - 1) * params.headStride + headDim : tokens * heads * headDim;
  const x = ref.fillUniform(size, seed++, -1, 1);
  const expected = params.delta !== undefined ? ref.ropeShift(x, params) : ref.ropeApply(x, params);
  const { attentionFactor } = ref.inverseFrequencies({ dim: params.rotaryDim || headDim, base: params.base, scaling: params.scaling });
  return { name, kind: params.delta !== undefined ? 'shift' : 'apply', params, input: { x: list(x) }, expected: { x: list(expected), attentionFactor } };
}

const rope = [];
for (const layout of ['half', 'interleaved']) {
  rope.push(
    ropeCase(`full-${layout}`, { headDim: 8, rotaryDim: 8, base: 10000, layout, tokens: 3, heads: 2, positions: [0, 1, 5] }),
    ropeCase(`partial-${layout}`, { headDim: 10, rotaryDim: 6, base: 10000, layout, tokens: 3, heads: 2, positions: [-3, 7, 100] }),
    ropeCase(`negative-large-${layout}`, { headDim: 16, rotaryDim: 16, base: 10000, layout, tokens: 4, heads: 1, positions: [-1000000, 1000000, 16777216, -16777215] }),
    ropeCase(`start-${layout}`, { headDim: 8, rotaryDim: 8, base: 500000, layout, tokens: 3, heads: 1, start: 4000 }),
    ropeCase(`inverse-${layout}`, { headDim: 12, rotaryDim: 8, base: 10000, layout, tokens: 2, heads: 2, positions: [42, -7], inverse: true }),
    ropeCase(`yarn-${layout}`, { headDim: 16, rotaryDim: 16, base: 10000, layout, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 }, tokens: 2, heads: 2, positions: [3, 300] }),
    ropeCase(`shift-${layout}`, { headDim: 8, rotaryDim: 6, base: 10000, layout, tokens: 2, heads: 2, delta: -128 }),
  );
}
rope.push(
  ropeCase('strided-heads-major-half', { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half', tokens: 3, heads: 2, positions: [5, 6, 9], tokenStride: 8, headStride: 24 }),
  ropeCase('longrope-long-half', { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half', scaling: { type: 'longrope', originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 131072, seqLen: 8192, shortFactor: longropeShort8, longFactor: longropeLong8 }, tokens: 2, heads: 1, positions: [5000, 8000] }),
  ropeCase('llama3-interleaved', { headDim: 8, rotaryDim: 8, base: 10000, layout: 'interleaved', scaling: { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 2048 }, tokens: 2, heads: 1, positions: [10, 3000] }),
  ropeCase('yarn-inverse-half', { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half', scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 }, tokens: 1, heads: 2, positions: [77], inverse: true }),
);

// ---- scores.json ----------------------------------------------------------------------------

function scoresCase(name, params, q, k) {
  const { scores, terms } = ref.scores({ ...params, q, k });
  const expected = { scores: list(scores) };
  if (terms) expected.terms = Object.fromEntries(Object.entries(terms).map(([key, v]) => [key, list(v)]));
  return { name, kind: 'scores', params, input: { q: list(q), k: list(k) }, expected };
}

// hand check: one live pair θ = 0.1 (pair 1 of d = 8, interleaved), q = (1, 0),
// k = (0, 1): every diagonal score (m, n) = (2,5), (5,8), (0,3), (97,100) is −sin 0.3.
const unit = (dim, j, rows) => Float32Array.from({ length: rows * dim }, (_, i) => (i % dim === j ? 1 : 0));
const scoresCases = [
  scoresCase('hand-check-rotary', { dim: 8, qPositions: [2, 5, 0, 97], kPositions: [5, 8, 3, 100], mode: 'rotary', layout: 'interleaved', base: 10000 },
    unit(8, 2, 4), unit(8, 3, 4)),
];
const q8 = ref.fillUniform(3 * 8, 101, -1, 1);
const k8 = ref.fillUniform(4 * 8, 102, -1, 1);
const qk = { dim: 8, qPositions: [0, 4, 9], kPositions: [0, 1, 5, 20], base: 10000 };
scoresCases.push(
  scoresCase('none', { ...qk, mode: 'none' }, q8, k8),
  scoresCase('none-scaled', { ...qk, mode: 'none', scale: true }, q8, k8),
  scoresCase('additive-interleaved', { ...qk, mode: 'additive', peLayout: 'interleaved' }, q8, k8),
  scoresCase('additive-concat', { ...qk, mode: 'additive', peLayout: 'concat' }, q8, k8),
  scoresCase('rotary-half', { ...qk, mode: 'rotary', layout: 'half' }, q8, k8),
  scoresCase('rotary-interleaved-partial', { ...qk, mode: 'rotary', layout: 'interleaved', rotaryDim: 4 }, q8, k8),
  scoresCase('rotary-yarn-scaled', { ...qk, mode: 'rotary', layout: 'half', scale: true, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 } }, q8, k8),
  scoresCase('rotary-far-positions', { ...qk, qPositions: [1000000, 1000004, 1000009], kPositions: [1000000, 1000001, 1000005, 1000020], mode: 'rotary', layout: 'half' }, q8, k8),
);
{
  const params = { dim: 8, base: 10000, layout: 'interleaved', delta: 3 };  // −sin 0.3 again
  const [q, k] = [unit(8, 2, 1), unit(8, 3, 1)];
  scoresCases.push({ name: 'relative-kernel-hand-check', kind: 'relativeKernel', params, input: { q: list(q), k: list(k) },
    expected: ref.relativeKernel({ ...params, q, k }) });
}
for (const layout of ['half', 'interleaved']) {
  const params = { dim: 8, base: 10000, layout, delta: 3 };
  const q = ref.fillUniform(8, 201, -1, 1);
  const k = ref.fillUniform(8, 202, -1, 1);
  scoresCases.push({ name: `relative-kernel-${layout}`, kind: 'relativeKernel', params, input: { q: list(q), k: list(k) },
    expected: ref.relativeKernel({ ...params, q, k }) });
}

// ---- decay.json -----------------------------------------------------------------------------

function decayCase(name, params) {
  return { name, params, expected: { values: list(ref.decayBound(params)) } };
}
const decay = [
  decayCase('d8', { dim: 8, base: 10000, deltas: [0, 1, 2, 3, 5, 10, 100, 1000] }),
  decayCase('d128', { dim: 128, base: 10000, deltas: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] }),
  decayCase('d64-b500000', { dim: 64, base: 500000, deltas: [0, 1, 10, 100, 1000, 10000, 100000] }),
];

write('ladder.json', 'θ_i, attention factor and wavelengths for several dims/bases and every HF scaling variant', ladder);
write('sinusoidal.json', 'sinusoidal PE rows in both layouts (the worked tables), shift matrix M(k) and PE dot by distance', sinusoidal);
write('rope.json', 'RoPE apply / inverse / shift in both layouts, partial rotary, strides, large and negative positions, scaled ladders with attention factor', rope);
write('scores.json', 'attention logits under none / additive (four terms) / rotary, the hand check, and the relative kernel split', scoresCases);
write('decay.json', 'RoFormer long-term-decay bound (1/(d/2))·Σ_j |S_j| against relative distance δ', decay);
