// The benchmark reference: the sinusoidal table (Vaswani et al., interleaved layout) in
// plain JavaScript, written the way a user would write it — Math.sin/Math.cos of p·θ_i in
// double, rounded once into the Float32Array, which for positions < 2^24 is as accurate as
// posenc's table. It is the thing posenc is compared against, not posenc's maths.

/** Fills out[p·dim + 2i] = sin(p·θ_i), out[p·dim + 2i + 1] = cos(p·θ_i), p < positions. */
export function plainSinusoidal(out, { dim, positions, base = 10000 }) {
  const half = dim / 2;
  const inv = Float64Array.from({ length: half }, (_, i) => 1 / base ** ((2 * i) / dim));
  for (let p = 0; p < positions; p++) {
    const row = p * dim;
    for (let i = 0; i < half; i++) {
      const a = p * inv[i];
      out[row + 2 * i] = Math.sin(a);
      out[row + 2 * i + 1] = Math.cos(a);
    }
  }
  return out;
}
