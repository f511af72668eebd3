// tests/js/reference.mjs — THE TEST REFERENCE: a small, plain float64 re-statement of posenc's
// maths, for tests only. It is the one deliberate second copy of the maths in the project
//: the package computes everything in C++/WebAssembly, and the tests compare it
// against these few lines, written for clarity rather than speed, straight from the formulas
// of core/README.md and HF transformers' `modeling_rope_utils.py`. tests/vectors/generate.mjs
// uses it to write the golden JSON files that the C++, JS and page tests all read.
//
// Conventions: options objects with the camelCase names of the JS API (wasm/index.d.ts), so a golden case's
// `params` can be passed to the package and to these functions alike; every result is a
// Float64Array (or plain numbers). Arguments are checked only as far as a test needs.

// ---- seeded generator (same algorithm as posenc/random.hpp) -----------------------------

const MASK64 = (1n << 64n) - 1n;

// SplitMix64 (Vigna's splitmix64.c): one step on a BigInt counter box { x }.
function splitmix64(box) {
  box.x = (box.x + 0x9E3779B97F4A7C15n) & MASK64;
  let z = box.x;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
  return z ^ (z >> 31n);
}

const rotl = (x, k) => ((x << k) | (x >>> (32 - k))) >>> 0;

/**
 * xoshiro128** 1.1 seeded by two SplitMix64 outputs, exactly as posenc::random, so tests
 * can draw inputs here and also cross-check the package's generator bit for bit.
 * uniform(lo, hi) = fround(lo + fround(hi − lo)·u), u = (u32 >>> 8)·2⁻²⁴, kept below hi.
 */
export class Random {
  constructor(seed) {
    const box = { x: BigInt.asUintN(64, BigInt(seed)) };
    const z0 = splitmix64(box);
    const z1 = splitmix64(box);
    const lo = (z) => Number(z & 0xFFFFFFFFn);
    const hi = (z) => Number(z >> 32n);
    this.s = [lo(z0), hi(z0), lo(z1), hi(z1)];
  }

  nextU32() {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] = (s[2] ^ s[0]) >>> 0;
    s[3] = (s[3] ^ s[1]) >>> 0;
    s[1] = (s[1] ^ s[2]) >>> 0;
    s[0] = (s[0] ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    return result;
  }

  uniform(lo = -1, hi = 1) {
    const u = (this.nextU32() >>> 8) / 16777216;
    const r = Math.fround(lo + Math.fround(hi - lo) * u);
    return r < hi ? r : nextFloatDown(hi);
  }

  // Lemire's unbiased integer in [0, bound).
  below(bound) {
    let m = BigInt(this.nextU32()) * BigInt(bound);
    if (Number(m & 0xFFFFFFFFn) < bound) {
      const threshold = (2 ** 32 - bound) % bound;
      while (Number(m & 0xFFFFFFFFn) < threshold) m = BigInt(this.nextU32()) * BigInt(bound);
    }
    return Number(m >> 32n);
  }
}

function nextFloatDown(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  u[0] += x > 0 ? -1 : 1;
  return f[0];
}

/** n float32 values uniform in [lo, hi) from Random(seed) (posenc::fill_uniform). */
export function fillUniform(n, seed, lo = -1, hi = 1) {
  const rng = new Random(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.uniform(lo, hi);
  return out;
}

/** Fisher–Yates permutation of 0 … n−1 (posenc::permutation). */
export function permutation(n, seed) {
  const rng = new Random(seed);
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i >= 1; i--) {
    const j = rng.below(i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

// ---- frequency ladder and HF scaling ----------------------------------------------------

// a·b − fl(a·b), exactly (Dekker's product with Veltkamp splitting).
function productError(a, b) {
  const split = (v) => {
    const c = 134217729 * v;  // 2^27 + 1
    const h = c - (c - v);
    return [h, v - h];
  };
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// θ_i = b^(−i/h), h = d/2, with the exponent carried in double-double so the
// rounding of i/h does not cost up to ln(b)·2⁻⁵⁴ relative: b^(−y_hi−y_lo) ≈ p·(1 − y_lo·ln b).
function ladderTerm(base, i, h) {
  const yHi = i / h;
  const p0 = yHi * h;
  const yLo = ((i - p0) - productError(yHi, h)) / h;
  const p = Math.pow(base, -yHi);
  return p - p * yLo * Math.log(base);
}

function defaultLadder(dim, base) {
  const h = dim / 2;
  return Float64Array.from({ length: h }, (_, i) => ladderTerm(base, i, h));
}

function requireKey(s, key) {
  if (s[key] === undefined) throw new RangeError(`reference: scaling.${key} is required for ${s.type}`);
  return s[key];
}

// HF standardize_rope_params: original_max_position_embeddings falls back to max_position_embeddings.
const originalLength = (s) => s.originalMaxPositionEmbeddings ?? requireKey(s, 'maxPositionEmbeddings');
// HF yarn/longrope: `if factor is None: factor = max_position_embeddings / original`.
const factorOrRatio = (s, original) => s.factor ?? requireKey(s, 'maxPositionEmbeddings') / original;

const SCALINGS = {
  // _compute_linear_scaling_rope_parameters
  linear(dim, base, s) {
    const f = requireKey(s, 'factor');
    return { invFreq: defaultLadder(dim, base).map((t) => t / f), attentionFactor: 1 };
  },
  // _compute_dynamic_ntk_parameters
  dynamic(dim, base, s) {
    const m = requireKey(s, 'maxPositionEmbeddings');
    const f = requireKey(s, 'factor');
    const len = Math.max(s.seqLen ?? m, m);
    const scaled = base * Math.pow(f * len / m - (f - 1), dim / (dim - 2));
    return { invFreq: defaultLadder(dim, scaled), attentionFactor: 1 };
  },
  // _compute_yarn_parameters
  yarn(dim, base, s) {
    const original = originalLength(s);
    const factor = factorOrRatio(s, original);
    const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
    let attentionFactor = s.attentionFactor;
    if (attentionFactor === undefined) {
      attentionFactor = s.mscale && s.mscaleAllDim
        ? mscale(factor, s.mscale) / mscale(factor, s.mscaleAllDim) : mscale(factor);
    }
    const betaFast = s.betaFast || 32;
    const betaSlow = s.betaSlow || 1;
    const correctionDim = (rot) => (dim * Math.log(original / (rot * 2 * Math.PI))) / (2 * Math.log(base));
    let low = correctionDim(betaFast);
    let high = correctionDim(betaSlow);
    if (s.truncate ?? true) { low = Math.floor(low); high = Math.ceil(high); }
    low = Math.max(low, 0);
    high = Math.min(high, dim - 1);
    if (low === high) high += 0.001;
    const invFreq = defaultLadder(dim, base).map((t, i) => {
      const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
      const extrapolation = 1 - ramp;
      return (t / factor) * (1 - extrapolation) + t * extrapolation;
    });
    return { invFreq, attentionFactor };
  },
  // _compute_llama3_parameters
  llama3(dim, base, s) {
    const original = originalLength(s);
    const factor = requireKey(s, 'factor');
    const lowF = s.lowFreqFactor ?? 1;
    const highF = s.highFreqFactor ?? 4;
    const invFreq = defaultLadder(dim, base).map((t) => {
      const wavelen = 2 * Math.PI / t;
      if (wavelen > original / lowF) return t / factor;
      if (wavelen < original / highF) return t;
      const smooth = (original / wavelen - lowF) / (highF - lowF);
      return ((1 - smooth) * t) / factor + smooth * t;
    });
    return { invFreq, attentionFactor: 1 };
  },
  // _compute_longrope_parameters
  longrope(dim, base, s) {
    const original = originalLength(s);
    const factor = factorOrRatio(s, original);
    let attentionFactor = s.attentionFactor;
    if (attentionFactor === undefined) {
      attentionFactor = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original));
    }
    const ext = s.seqLen && s.seqLen > original ? s.longFactor : s.shortFactor;
    if (!ext || ext.length !== dim / 2) throw new RangeError('reference: longrope factors need dim/2 values');
    const invFreq = defaultLadder(dim, base).map((t, i) => t / ext[i]);
    return { invFreq, attentionFactor };
  },
};

/** { invFreq: Float64Array(dim/2), attentionFactor } — the ladder, HF scaling. */
export function inverseFrequencies({ dim, base = 10000, scaling } = {}) {
  if (!Number.isInteger(dim) || dim < 2 || dim % 2) throw new RangeError(`reference: bad dim ${dim}`);
  if (!(base > 1) || !Number.isFinite(base)) throw new RangeError(`reference: bad base ${base}`);
  const type = scaling?.type ?? 'default';
  if (type === 'default') return { invFreq: defaultLadder(dim, base), attentionFactor: 1 };
  const fn = SCALINGS[type];
  if (!fn) throw new RangeError(`reference: unknown scaling.type ${type}`);
  return fn(dim, base, scaling);
}

/** λ_i = 2π/θ_i. */
export function wavelengths(opts) {
  return inverseFrequencies(opts).invFreq.map((t) => 2 * Math.PI / t);
}

// ---- sinusoidal encoding ------------------------------------------------------------------

// The position list of a table request: `positions` as a count (with `start`) or a list.
function positionList(positions, start = 0) {
  if (typeof positions === 'number') return Array.from({ length: positions }, (_, r) => start + r);
  return Array.from(positions);
}

/** PE(p): interleaved [sin, cos, …] or concat [sin… | cos…]. */
export function sinusoidalRow(p, { dim, base = 10000, layout = 'interleaved' }) {
  const theta = defaultLadder(dim, base);
  const h = dim / 2;
  const row = new Float64Array(dim);
  theta.forEach((t, i) => {
    const s = Math.sin(p * t);
    const c = Math.cos(p * t);
    if (layout === 'interleaved') { row[2 * i] = s; row[2 * i + 1] = c; } else { row[i] = s; row[h + i] = c; }
  });
  return row;
}

/** Rows × dim table, row-major, for `positions` (count from `start`, or a list). */
export function sinusoidal({ dim, base = 10000, positions, start = 0, layout = 'interleaved' }) {
  const list = positionList(positions, start);
  const out = new Float64Array(list.length * dim);
  list.forEach((p, r) => out.set(sinusoidalRow(p, { dim, base, layout }), r * dim));
  return out;
}

// Index of the (sin, cos) pair i in a row of the given layout.
const pePair = (i, dim, layout) => (layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, dim / 2 + i]);

/** M(k), dim×dim row-major: PE(p + k) = M(k)·PE(p); blocks [[cos kθ, sin kθ], [−sin kθ, cos kθ]]. */
export function shiftMatrix({ dim, base = 10000, k, layout = 'interleaved' }) {
  const m = new Float64Array(dim * dim);
  defaultLadder(dim, base).forEach((t, i) => {
    const [s, c] = pePair(i, dim, layout);
    const cs = Math.cos(k * t);
    const sn = Math.sin(k * t);
    m[s * dim + s] = cs; m[s * dim + c] = sn;
    m[c * dim + s] = -sn; m[c * dim + c] = cs;
  });
  return m;
}

/** M(k)·row for a row in `layout`. */
export function applyShift(row, opts) {
  const { dim } = opts;
  const m = shiftMatrix(opts);
  return Float64Array.from({ length: dim }, (_, r) => {
    let acc = 0;
    for (let j = 0; j < dim; j++) acc += m[r * dim + j] * row[j];
    return acc;
  });
}

/** PE(m)·PE(m + k) = Σ_i cos(kθ_i) for each k in `ks`. */
export function peDotByDistance({ dim, base = 10000, ks }) {
  const theta = defaultLadder(dim, base);
  return Float64Array.from(ks, (k) => theta.reduce((acc, t) => acc + Math.cos(k * t), 0));
}

// ---- RoPE ---------------------------------------------------------------------------------

// Element indices (a, b) of pair i in a head row: half (i, i + r/2) or interleaved (2i, 2i+1).
const ropePair = (i, rotaryDim, layout) => (layout === 'half' ? [i, i + rotaryDim / 2] : [2 * i, 2 * i + 1]);

function ropeSetup({ headDim, rotaryDim, base = 10000, layout = 'half', scaling }) {
  const r = rotaryDim || headDim;
  const { invFreq, attentionFactor } = inverseFrequencies({ dim: r, base, scaling });
  return { r, invFreq, attentionFactor, layout };
}

// Rotates the head row at `offset` of `x` in place by angle(i) for each pair, times `gain`.
function rotateRow(x, offset, setup, angle, gain) {
  const { r, invFreq, layout } = setup;
  invFreq.forEach((_, i) => {
    const [ia, ib] = ropePair(i, r, layout);
    const a = x[offset + ia];
    const b = x[offset + ib];
    const c = Math.cos(angle(i));
    const s = Math.sin(angle(i));
    x[offset + ia] = gain * (a * c - b * s);
    x[offset + ib] = gain * (a * s + b * c);
  });
}

/**
 * RoPE on x [tokens][heads][headDim] (or strided): forward f·R(p·θ_i) per pair, inverse
 * R(−p·θ_i)/f; dims ≥ rotaryDim pass through. Returns a new Float64Array (x is not changed).
 * Options as the JS API's rope() + apply(): headDim, rotaryDim, base, layout, scaling, tokens,
 * heads, positions | start, inverse, tokenStride, headStride.
 */
export function ropeApply(x, opts) {
  const { headDim, tokens, heads, positions, start = 0, inverse = false } = opts;
  const tokenStride = opts.tokenStride ?? heads * headDim;
  const headStride = opts.headStride ?? headDim;
  const setup = ropeSetup(opts);
  const out = Float64Array.from(x);
  for (let t = 0; t < tokens; t++) {
    const p = positions ? positions[t] : start + t;
    for (let h = 0; h < heads; h++) {
      const offset = t * tokenStride + h * headStride;
      const sign = inverse ? -1 : 1;
      const gain = inverse ? 1 / setup.attentionFactor : setup.attentionFactor;
      rotateRow(out, offset, setup, (i) => sign * p * setup.invFreq[i], gain);
    }
  }
  return out;
}

/** Keys rotated at p re-rotated to p + delta: R(delta·θ_i), no attention factor. */
export function ropeShift(k, opts) {
  const { headDim, tokens, heads, delta } = opts;
  const tokenStride = opts.tokenStride ?? heads * headDim;
  const headStride = opts.headStride ?? headDim;
  const setup = ropeSetup(opts);
  const out = Float64Array.from(k);
  for (let t = 0; t < tokens; t++) {
    for (let h = 0; h < heads; h++) {
      rotateRow(out, t * tokenStride + h * headStride, setup, (i) => delta * setup.invFreq[i], 1);
    }
  }
  return out;
}

// ---- attention scores -----------------------------------------------------------------------

const dotRows = (a, ai, b, bi, dim) => {
  let acc = 0;
  for (let j = 0; j < dim; j++) acc += a[ai * dim + j] * b[bi * dim + j];
  return acc;
};

function scoreMatrix(q, k, dim, tq, tk, scale) {
  const s = new Float64Array(tq * tk);
  for (let i = 0; i < tq; i++) for (let j = 0; j < tk; j++) s[i * tk + j] = scale * dotRows(q, i, k, j, dim);
  return s;
}

/**
 * Logits S[m][n] = ⟨q_m, k_n⟩ (· 1/√dim when scale) for q [Tq][dim], k [Tk][dim]:
 *   none      plain dot products;
 *   additive  ⟨q + PE(m), k + PE(n)⟩ with its four terms (content, queryPosition = q·p_n,
 *             positionKey = p_m·k, positionPosition = p_m·p_n), PE in `peLayout`;
 *   rotary    ⟨rope(q, m), rope(k, n)⟩ with headDim = dim, rotaryDim, layout, base, scaling
 *             (the attention factor multiplies both sides, as HF does).
 * Returns { scores, terms } (terms only in additive mode), Float64Arrays [Tq][Tk].
 */
export function scores(opts) {
  const { q, k, dim, qPositions, kPositions, mode = 'rotary', base = 10000, scale = false } = opts;
  const tq = q.length / dim;
  const tk = k.length / dim;
  const factor = scale ? 1 / Math.sqrt(dim) : 1;
  if (mode === 'none') return { scores: scoreMatrix(q, k, dim, tq, tk, factor) };
  if (mode === 'rotary') {
    const rope = { headDim: dim, rotaryDim: opts.rotaryDim, base, layout: opts.layout ?? 'half', scaling: opts.scaling, heads: 1 };
    const rq = ropeApply(q, { ...rope, tokens: tq, positions: qPositions });
    const rk = ropeApply(k, { ...rope, tokens: tk, positions: kPositions });
    return { scores: scoreMatrix(rq, rk, dim, tq, tk, factor) };
  }
  if (mode !== 'additive') throw new RangeError(`reference: unknown mode ${mode}`);
  const pe = { dim, base, layout: opts.peLayout ?? 'interleaved' };
  const pq = sinusoidal({ ...pe, positions: qPositions });
  const pk = sinusoidal({ ...pe, positions: kPositions });
  const terms = {
    content: scoreMatrix(q, k, dim, tq, tk, factor),
    queryPosition: scoreMatrix(q, pk, dim, tq, tk, factor),
    positionKey: scoreMatrix(pq, k, dim, tq, tk, factor),
    positionPosition: scoreMatrix(pq, pk, dim, tq, tk, factor),
  };
  const total = terms.content.map((v, i) => v + terms.queryPosition[i] + terms.positionKey[i] + terms.positionPosition[i]);
  return { scores: total, terms };
}

/**
 * The relative kernel qᵀR(δθ)k of one query and one key row over all dim dims:
 *   dot  = Σ_i (q_a k_a + q_b k_b)·cos δθ_i,   area = Σ_i (q_b k_a − q_a k_b)·sin δθ_i,
 * pairs (a, b) by `layout`; returns { score: dot + area, dot, area } (no attention factor).
 */
export function relativeKernel({ q, k, dim, delta, base = 10000, layout = 'half' }) {
  let dot = 0;
  let area = 0;
  defaultLadder(dim, base).forEach((t, i) => {
    const [a, b] = ropePair(i, dim, layout);
    dot += (q[a] * k[a] + q[b] * k[b]) * Math.cos(delta * t);
    area += (q[b] * k[a] - q[a] * k[b]) * Math.sin(delta * t);
  });
  return { score: dot + area, dot, area };
}

/** max over (m, n) of |S(m+s, n+s) − S(m, n)| for the given score options and shift s. */
export function shiftInvariance(opts, shift) {
  const a = scores(opts).scores;
  const b = scores({ ...opts, qPositions: Array.from(opts.qPositions, (p) => p + shift),
    kPositions: Array.from(opts.kPositions, (p) => p + shift) }).scores;
  return a.reduce((worst, v, i) => Math.max(worst, Math.abs(b[i] - v)), 0);
}

/**
 * RoFormer §3.4.3 long-term-decay bound: for each δ,
 * (1/(d/2))·Σ_{j=1}^{d/2} |S_j|,  S_j = Σ_{l<j} e^{i·δ·θ_l}.
 */
export function decayBound({ dim, base = 10000, deltas }) {
  const theta = defaultLadder(dim, base);
  return Float64Array.from(deltas, (delta) => {
    let re = 0;
    let im = 0;
    let total = 0;
    for (const t of theta) {
      re += Math.cos(delta * t);
      im += Math.sin(delta * t);
      total += Math.hypot(re, im);
    }
    return total / theta.length;
  });
}
