// tests/js/half-reference.mjs — float16 / bfloat16 written from their definitions, for the
// 16-bit tests (not a test file itself): decoding from the fields, and round-to-nearest-even
// of a double onto each format's grid, as bits; the ulp distance to the exact rotation.
import assert from 'node:assert/strict';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// IEEE binary16 from its fields.
export function f16Value(h) {
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const mag = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1024 + m) * 2 ** (e - 25);
  return h & 0x8000 ? -mag : mag;
}
export function bf16Value(h) {
  u32[0] = h << 16;
  return f32[0];
}

// Round-half-even of a finite double v onto the grid of a format with `mant` fraction
// bits and minimum normal exponent `emin`, as bits (overflow → Inf).
function roundTo(v, mant, emin, maxFinite, encode) {
  const sign = v < 0 || Object.is(v, -0) ? 1 : 0;
  const a = Math.abs(v);
  let e = Math.max(emin, Math.floor(Math.log2(a || 2 ** emin)));
  if (2 ** e > a && e > emin) e--;
  if (2 ** (e + 1) <= a) e++;
  const ulp = 2 ** (e - mant);
  const q = a / ulp;
  let r = Math.floor(q);
  if (q - r > 0.5 || (q - r === 0.5 && r % 2 === 1)) r++;
  const value = r * ulp;
  return encode(sign, value > maxFinite ? Infinity : value);
}
export function f16Round(v) {
  return roundTo(v, 10, -14, 65504, (sign, value) => {
    if (value === Infinity) return (sign << 15) | 0x7c00;
    if (value < 2 ** -14) return (sign << 15) | Math.round(value / 2 ** -24);
    const e = Math.floor(Math.log2(value));
    return (sign << 15) | ((e + 15) << 10) | Math.round((value / 2 ** e - 1) * 1024);
  });
}
export function bf16Round(v) {
  return roundTo(v, 7, -126, 3.3895313892515355e38, (sign, value) => {
    f32[0] = value; // exact: value is on the bfloat16 grid (or Inf)
    return (sign << 15) | (u32[0] >>> 16);
  });
}

export const FORMATS = {
  float16: { value: f16Value, round: f16Round },
  bfloat16: { value: bf16Value, round: bf16Round },
};
export const ordered = (h) => (h & 0x8000 ? -(h & 0x7fff) : h);


/**
 * The largest distance, in units of the last place of `dtype`, between y (16-bit bits)
 * and the exact float64 rotation of x's decoded values by `rope` ([tokens][heads][headDim],
 * token t at positions[t], times attentionFactor) rounded to the format; pass-through
 * dims must have kept their bits (asserted).
 */
export function worstUlp(rope, x, y, heads, positions, dtype) {
  const { value, round } = FORMATS[dtype];
  const { headDim, rotaryDim, layout, attentionFactor: f, invFreq } = rope;
  let worst = 0;
  for (let t = 0; t < positions.length; t++) {
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * headDim;
      for (let i = 0; i < rotaryDim / 2; i++) {
        const [ja, jb] = layout === 'half' ? [i, i + rotaryDim / 2] : [2 * i, 2 * i + 1];
        const ang = positions[t] * invFreq[i];
        const a = value(x[o + ja]);
        const b = value(x[o + jb]);
        const ra = round(f * (a * Math.cos(ang) - b * Math.sin(ang)));
        const rb = round(f * (b * Math.cos(ang) + a * Math.sin(ang)));
        worst = Math.max(worst, Math.abs(ordered(y[o + ja]) - ordered(ra)), Math.abs(ordered(y[o + jb]) - ordered(rb)));
      }
      for (let j = rotaryDim; j < headDim; j++) assert.equal(y[o + j], x[o + j], `pass-through dim ${j}`);
    }
  }
  return worst;
}
