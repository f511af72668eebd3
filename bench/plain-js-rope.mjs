// The benchmark reference: RoPE in plain JavaScript, written the way a user would write it
// (typed arrays, cos/sin precomputed once per position, the `half` layout of GPT-NeoX /
// HF `rotate_half`). Angles are formed in float32 like HF's `outer(t, inv_freq)` in float32.
// Used by the page's speed section (web/src/sections/15-speed.js) and the Node benchmarks.
// It is deliberately NOT posenc's maths (no range reduction, no double angles): it is the
// thing posenc is compared against.

/** cos/sin tables [positions][rotaryDim/2] for positions 0 … positions−1. */
export function plainCosSinCache({ rotaryDim, base = 10000, positions }) {
  const half = rotaryDim / 2;
  const invFreq = new Float32Array(half);
  for (let i = 0; i < half; i++) invFreq[i] = 1 / base ** ((2 * i) / rotaryDim);
  const cos = new Float32Array(positions * half);
  const sin = new Float32Array(positions * half);
  for (let p = 0; p < positions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(p * invFreq[i]);
      cos[p * half + i] = Math.cos(angle);
      sin[p * half + i] = Math.sin(angle);
    }
  }
  return { cos, sin, half };
}

/**
 * Rotates x [tokens][heads][headDim] in place, token t at position start + t, pairs
 * (x[i], x[i + rotaryDim/2]) for i < rotaryDim/2; dims past rotaryDim pass through.
 */
export function plainRopeApply(x, cache, { tokens, heads, headDim, start = 0 }) {
  const { cos, sin, half } = cache;
  for (let t = 0; t < tokens; t++) {
    const c0 = (start + t) * half;
    for (let h = 0; h < heads; h++) {
      const row = (t * heads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const c = cos[c0 + i];
        const s = sin[c0 + i];
        const a = x[row + i];
        const b = x[row + i + half];
        x[row + i] = a * c - b * s;
        x[row + i + half] = b * c + a * s;
      }
    }
  }
  return x;
}

/**
 * RoPE attention logits as a user computes them: rotate copies of q [tq][dim] and k
 * [tk][dim] (row r at position r) with plainRopeApply, then every dot product.
 * out[m·tk + n] = ⟨R(m)q_m, R(n)k_n⟩.
 */
export function plainRotaryScores(q, k, cache, { dim, tq, tk }, out = new Float32Array(tq * tk)) {
  const qr = plainRopeApply(q.slice(), cache, { tokens: tq, heads: 1, headDim: dim });
  const kr = plainRopeApply(k.slice(), cache, { tokens: tk, heads: 1, headDim: dim });
  for (let m = 0; m < tq; m++) {
    for (let n = 0; n < tk; n++) {
      let sum = 0;
      for (let j = 0; j < dim; j++) sum += qr[m * dim + j] * kr[n * dim + j];
      out[m * tk + n] = sum;
    }
  }
  return out;
}
