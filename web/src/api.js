// The page's one door to the posenc package. Sections call these small adapters so that each
// package call has one place where its options are shaped for the page. Nothing here does the
// maths under study: the only arithmetic is bookkeeping (copying rows, picking entries of
// a returned matrix, max |a − b| for showing that two package results agree).
import { createPosenc } from 'posenc';

// ——— sinusoidal ————————————————————————————————————————————————————————————————

export function shiftMatrix(pe, { dim, k, base = 10000 }) {
  return pe.shiftMatrix({ dim, base, k });
}

/** M(k)·PE(p) (pe.applyShift on the pe.sinusoidal row) beside PE(p+k), and their max gap. */
export function applyShift(pe, { dim, k, p, base = 10000 }) {
  const row = pe.sinusoidal({ dim, base, positions: [p] });
  const shifted = pe.applyShift(row, { base, k });
  const target = pe.sinusoidal({ dim, base, positions: [p + k] });
  return { shifted, target, maxError: maxGap(shifted, target) };
}

/** max_j |a_j − b_j|: how far two package results are apart (display of agreement). */
export function maxGap(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** ‖PE(p)‖ for each listed position (the package takes a start and a count). */
export function peNorms(pe, { dim, base, positions }) {
  return positions.map((p) => pe.peNorms({ dim, base, start: p, count: 1 })[0]);
}

export function peMinDistance(pe, { dim, base, positions }) {
  const r = pe.peMinDistance({ dim, base, start: 0, count: positions });
  return { distance: r.distance, a: r.p, b: r.q };
}

export function peDotByDistance(pe, { dim, base, p, kMax }) {
  return pe.peDotByDistance({ dim, base, position: p, kFirst: 0, kCount: kMax + 1 });
}

export function peDotClosedForm(pe, { dim, base, kMax }) {
  return pe.peDotClosedForm({ dim, base, kFirst: 0, kCount: kMax + 1 });
}

/** Smallest and largest value of the table PE(0 … positions−1). */
export function tableRange(pe, { dim, base, positions }) {
  const data = pe.sinusoidal({ dim, base, positions });
  let min = Infinity; let max = -Infinity;
  for (const v of data) { if (v < min) min = v; if (v > max) max = v; }
  return { min, max };
}

// ——— data for the demos ————————————————————————————————————————————————————————

/** `count` seeded vectors of `dim` floats in [−1, 1) from the package's generator. */
export function randomVectors(pe, { seed, count, dim }) {
  const all = pe.fillUniform(new Float32Array(count * dim), { seed, lo: -1, hi: 1 });
  return Array.from({ length: count }, (_, i) => all.subarray(i * dim, (i + 1) * dim));
}

/** T copies of one row (the same content at every position). */
export function repeatRows(v, T) {
  const out = new Float32Array(T * v.length);
  for (let r = 0; r < T; r++) out.set(v, r * v.length);
  return out;
}

/** The demo sentence, one token per word, in the page's language. */
export function sentence(t, which = 'short') {
  return t(which === 'long' ? 'common.sentenceLong' : 'common.sentence').split(' ');
}

// ——— scores ————————————————————————————————————————————————————————————————————

export function scores(pe, opts) {
  return pe.scores(opts);
}

/**
 * max |S(m+s, n+s) − S(m, n)| over the matrix (pe.shiftInvariance), and the same relative to
 * the largest |S| of the unshifted matrix (a display normalization of two package results).
 */
export function shiftInvariance(pe, { q, k, dim, shift, angles, peak }) {
  const opts = { q, k, dim, shift, mode: 'rotary', layout: 'half', ...(angles === 'float32' ? { angles } : {}) };
  const maxAbs = pe.shiftInvariance(opts);
  if (peak === undefined) peak = maxAbsOf(pe.scores({ q, k, dim, mode: 'rotary', layout: 'half' }).scores);
  return { maxAbs, maxRel: peak > 0 ? maxAbs / peak : maxAbs };
}

/** Largest |v| of a result array (for scales and relative read-outs). */
export function maxAbsOf(values) {
  let peak = 0;
  for (const v of values) peak = Math.max(peak, Math.abs(v));
  return peak;
}

let float32Support;
/** Whether the package offers the float32-angle comparison (the "common implementation"). */
export function supportsFloat32Angles(pe) {
  if (float32Support !== undefined) return float32Support;
  try {
    const v = new Float32Array(4).fill(0.5);
    pe.shiftInvariance({ q: v, k: v, dim: 4, shift: 1, mode: 'rotary', angles: 'float32' });
    float32Support = true;
  } catch {
    float32Support = false;
  }
  return float32Support;
}

// ——— one RoPE pair with any θ ————————————————————————————————————————————————————
// The package's ladder always starts at θ₀ = 1. A pair turning by θ per position is the
// second pair of a 4-dim interleaved vector with base θ⁻², since θ₁ = base^(−2/4) = θ;
// the first pair is left at zero so it adds nothing to any score.
const pairBase = (theta) => theta ** -2;
const embed = ([a, b]) => Float32Array.of(0, 0, a, b);

/** The pair v rotated by position·θ (pe.rope). */
export function rotatePair(pe, { v, position, theta }) {
  const rope = pe.rope({ headDim: 4, base: pairBase(theta), layout: 'interleaved' });
  try {
    const out = rope.apply(embed(v), { tokens: 1, heads: 1, positions: [position] });
    return [out[2], out[3]];
  } finally {
    rope.dispose();
  }
}

/**
 * ⟨R(mθ)q, R(nθ)k⟩ and its split (pe.relativeKernel): dot·cos δθ + area·sin δθ, with
 * cos δθ and sin δθ read from the sinusoidal row PE(δ) of the same ladder.
 */
export function pairKernel(pe, { q, k, m, n, theta }) {
  const base = pairBase(theta);
  const kern = pe.relativeKernel({ q: embed(q), k: embed(k), delta: n - m, base, layout: 'interleaved' });
  const row = pe.sinusoidal({ dim: 4, base, positions: [n - m] });
  // relativeKernel returns the two summands already multiplied by cos/sin; report the
  // unrotated dot and area that multiply them when cos/sin are not tiny.
  return { score: kern.score, dotTerm: kern.dot, areaTerm: kern.area, sin: row[2], cos: row[3] };
}

/** Rotary scores of q at m and k at n for each (m, n) pair (pe.scores on the embedded pair). */
export function pairScores(pe, { q, k, pairs, theta }) {
  const base = pairBase(theta);
  return pairs.map(([m, n]) => pe.scores({ q: embed(q), k: embed(k), dim: 4, qPositions: [m], kPositions: [n],
    mode: 'rotary', layout: 'interleaved', base }).scores[0]);
}

/** v rotated as a token at `position` (one head), in the given layout. */
export function rotateVector(pe, { v, position, layout }) {
  const rope = pe.rope({ headDim: v.length, layout });
  try {
    return rope.apply(Float32Array.from(v), { tokens: 1, heads: 1, positions: [position] });
  } finally {
    rope.dispose();
  }
}

export function decayBound(pe, { dim, base, maxDistance }) {
  const values = pe.decayBound({ dim, base, maxDistance });
  return { distances: [...Array(values.length).keys()], values };
}

/** Similarity of one-hot position codes: pe.scores without positions on identity rows. */
export function oneHotSimilarity(pe, { n }) {
  const eye = new Float32Array(n * n);
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  const pos = [...Array(n).keys()];
  return pe.scores({ q: eye, k: eye, dim: n, qPositions: pos, kPositions: pos, mode: 'none' }).scores;
}

/** PE(p)·PE(p′) for p, p′ < n: pe.scores without positions on the table's rows. */
export function peSimilarity(pe, { n, dim }) {
  const rows = pe.sinusoidal({ dim, positions: n });
  const pos = [...Array(n).keys()];
  return { values: pe.scores({ q: rows, k: rows, dim, qPositions: pos, kPositions: pos, mode: 'none' }).scores, max: dim / 2 };
}

// ——— attention —————————————————————————————————————————————————————————————————

/** One seeded attention layer over the words' vectors (equal words, equal rows: wordVectors). */
export function attention(pe, { words, dim, heads, seed, mode, causal, spread }) {
  const x = wordVectors(pe, { lemmas: words, dim, seed, spread });
  const weights = pe.attentionWeights({ modelDim: dim, seed });
  return pe.selfAttention({ x, weights, tokens: words.length, modelDim: dim, heads, mode, causal });
}

// ——— speed ——————————————————————————————————————————————————————————————————————

let scalarPromise;
/** The scalar binary, loaded once on demand (null when it cannot be loaded). */
export function loadScalar() {
  scalarPromise ??= createPosenc({ simd: false }).catch((err) => {
    console.warn('posenc: the scalar binary could not be loaded:', err);
    return null;
  });
  return scalarPromise;
}

/** A RoPE apply that can be timed: zero-copy on a WASM-resident tensor. */
export function ropeRunner(pe, { headDim, tokens, heads, x }) {
  const rope = pe.rope({ headDim, layout: 'half' });
  const tensor = pe.tensor(x);
  return {
    step: () => rope.apply(tensor, { tokens, heads, start: 0 }),
    dispose: () => { tensor.dispose(); rope.dispose(); },
  };
}

// ——— words, sentences and the input layer (sections 1–7) ———————————————————————————

/**
 * A sentence written as "display/lemma" tokens ("사람 이/가 개 를/을 물었다"): the shown word
 * and the word whose vector it gets (allomorphs such as 이/가 share one).
 */
export function tokens(text) {
  return text.split(' ').map((tok) => {
    const [shown, lemma = shown] = tok.split('/');
    return { shown, lemma };
  });
}

/**
 * One vector per distinct word (not per position): word w gets the package's seeded floats
 * for seed·1000 + (index of w's first occurrence in `vocabulary`), so equal words are equal rows.
 */
export function wordVectors(pe, { lemmas, vocabulary = lemmas, dim, seed = 1, spread = 1 }) {
  const x = new Float32Array(lemmas.length * dim);
  lemmas.forEach((w, r) => {
    const id = vocabulary.indexOf(w);
    x.set(pe.fillUniform(new Float32Array(dim), { seed: seed * 1000 + id, lo: -spread, hi: spread }), r * dim);
  });
  return x;
}

/** perm with b[r] = a[perm[r]], matching equal words in order; null if b is no reordering of a. */
export function reorderingOf(a, b) {
  if (a.length !== b.length) return null;
  const used = new Array(a.length).fill(false);
  const perm = [];
  for (const w of b) {
    const i = a.findIndex((v, j) => !used[j] && v === w);
    if (i < 0) return null;
    used[i] = true;
    perm.push(i);
  }
  return perm;
}

/** A seeded reordering of 0 … n−1 that is not the identity (the next seed whose shuffle moves a word). */
export function shuffleOf(pe, { n, seed }) {
  for (let s = seed; s < seed + 1000; s++) {
    const perm = Array.from(pe.permutation({ n, seed: s }));
    if (perm.some((v, i) => v !== i)) return { perm, seed: s };
  }
  throw new Error(`no shuffle of ${n} words moves any word`);
}

/** Rows of x in the order perm (row r of the result is row perm[r] of x). */
export function reorderRows(x, perm, dim) {
  const y = new Float32Array(x.length);
  perm.forEach((src, r) => y.set(x.subarray(src * dim, (src + 1) * dim), r * dim));
  return y;
}

/**
 * The same words in two orders through one seeded attention layer. `pitfall`: positions are
 * attached before reordering, so each word keeps its original position (perm) instead of
 * getting the position of its new place. diff = max |out_b[r] − out_a[perm[r]]|.
 */
export function orderTest(pe, { x, perm, dim, heads, seed, mode, pitfall = false }) {
  const weights = pe.attentionWeights({ modelDim: dim, seed });
  const T = perm.length;
  const a = pe.selfAttention({ x, weights, tokens: T, modelDim: dim, heads, mode });
  const b = pe.selfAttention({ x: reorderRows(x, perm, dim), weights, tokens: T, modelDim: dim, heads, mode,
    ...(pitfall ? { positions: perm } : {}) });
  return { a, b, diff: maxGap(reorderRows(a.output, perm, dim), b.output) };
}

/** max over p = first … first+count−1 of |M(k)·PE(p) − PE(p+k)| (pe.applyShift against pe.sinusoidal). */
export function shiftSweep(pe, { dim, k, first, count, base = 10000 }) {
  let worst = 0;
  for (let p = first; p < first + count; p++) worst = Math.max(worst, applyShift(pe, { dim, k, p, base }).maxError);
  return worst;
}

/** p·θ_i for each position (pe.positionAngles), as one array per position. */
export function angles(pe, { dim, positions, base = 10000 }) {
  const a = pe.positionAngles({ dim, base, positions });
  const half = dim / 2;
  return positions.map((_, r) => a.subarray(r * half, (r + 1) * half));
}

/** scale·e + PE(p) for each row of e (pe.addSinusoidal: the input layer). */
export function addPositions(pe, { e, dim, positions, scale = 1, base = 10000 }) {
  return pe.addSinusoidal({ e, dim, positions, scale, base });
}

/** The article's float64 draws as the float32 rows the package takes. */
export function draws(set) {
  return { q: Float32Array.from(set.q), k: Float32Array.from(set.k) };
}

// ——— every pair at once (section 8's phasor view) ———————————————————————————————————

/**
 * q at m and k at n through one interleaved rotator (pe.rope), each pair's share of the score
 * — pe.scores on copies of q and k that keep only that pair (rotations act pair by pair, so
 * the diagonal of that matrix is pair i's term) — and the whole score from pe.scores.
 */
export function allPairs(pe, { q, k, dim, m, n, base = 10000 }) {
  const half = dim / 2;
  const rope = pe.rope({ headDim: dim, base, layout: 'interleaved' });
  let rq; let rk; let theta;
  try {
    rq = rope.apply(Float32Array.from(q), { tokens: 1, positions: [m] });
    rk = rope.apply(Float32Array.from(k), { tokens: 1, positions: [n] });
    theta = Float64Array.from(rope.invFreq);
  } finally {
    rope.dispose();
  }
  const only = (v) => {
    const rows = new Float32Array(half * dim);
    for (let i = 0; i < half; i++) rows.set(v.subarray(2 * i, 2 * i + 2), i * dim + 2 * i);
    return rows;
  };
  const opts = { dim, mode: 'rotary', layout: 'interleaved', base };
  const each = pe.scores({ ...opts, q: only(Float32Array.from(q)), k: only(Float32Array.from(k)),
    qPositions: new Array(half).fill(m), kPositions: new Array(half).fill(n) }).scores;
  const contrib = Float64Array.from({ length: half }, (_, i) => each[i * half + i]);
  const score = pe.scores({ ...opts, q: Float32Array.from(q), k: Float32Array.from(k), qPositions: [m], kPositions: [n] }).scores[0];
  return { rq, rk, theta, contrib, score };
}
