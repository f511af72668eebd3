// The package calls behind section 15 (RoPE over more than one axis): image patches with a
// 2-D rotator (pe.rope({ vision2d })) and a short video with M-RoPE (pe.rope({ mrope })).
// A score is always pe.scores without positions (mode 'none') on rows the rotator turned;
// the page only lays out positions ([axes][tokens], HF's position_ids order), picks entries
// of returned arrays and measures how far two package results are apart.
import { maxGap, repeatRows } from './api.js';

export const VISION_BASE = 10000;   // Qwen2-VL and Pixtral vision towers (rope_theta 10000)
export const MROPE_BASE = 1000000;  // Qwen2-VL / Qwen2.5-VL / Qwen3-VL text models (rope_theta 1e6)

/** Runs fn(rope) with a fresh rotator and disposes it. */
function withRope(pe, options, fn) {
  const rope = pe.rope(options);
  try {
    return fn(rope);
  } finally {
    rope.dispose();
  }
}

/**
 * ⟨R(query)q, R(key_j)k⟩ for every key: q rotated at `queryAt` (one value per axis), k at
 * each column of `keysAt` ([axes][n] flat), by the package; then pe.scores without positions.
 */
function scoresAt(pe, rope, { q, k, queryAt, keysAt }) {
  const n = keysAt.length / rope.axes;
  const rq = rope.apply(Float32Array.from(q), { tokens: 1, heads: 1, positions: queryAt });
  const rk = rope.apply(repeatRows(k, n), { tokens: n, heads: 1, positions: keysAt });
  return pe.scores({ q: rq, k: rk, dim: q.length, mode: 'none' }).scores;
}

/** (row0 + r, col0 + c) of every patch of a rows × cols window, as [2][rows·cols]. */
export function gridPositions(rows, cols, row0, col0) {
  const n = rows * cols;
  const pos = new Int32Array(2 * n);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) { pos[r * cols + c] = row0 + r; pos[n + r * cols + c] = col0 + c; }
  }
  return pos;
}

/** Which rungs take the row and which the column, read from the rotator's own rows. */
function rungAxes(rope) {
  const row = rope.row([1, 0]).sin;
  const rows = []; const cols = [];
  row.forEach((s, i) => (s !== 0 ? rows : cols).push(i));
  return { rows, cols, invFreq: rope.invFreq };
}

/**
 * One query patch against every patch of a size × size window whose top-left patch sits at
 * `offset` in the image; the same window at the image's corner; and the map over
 * (Δrow, Δcol) ∈ [−(size−1), size−1]² (query at the middle of a (2·size−1)² grid).
 * windowGap: max |S(window at offset) − S(window at corner)|; relativeGap: max over the
 * window of |S(key) − R(key − query)|.
 */
export function patchScores(pe, { vision2d, headDim, q, k, size, query, offset }) {
  return withRope(pe, { headDim, base: VISION_BASE, vision2d }, (rope) => {
    const [qr, qc] = query;
    const [or, oc] = offset;
    const scores = scoresAt(pe, rope, { q, k, queryAt: [or + qr, oc + qc], keysAt: gridPositions(size, size, or, oc) });
    const corner = scoresAt(pe, rope, { q, k, queryAt: [qr, qc], keysAt: gridPositions(size, size, 0, 0) });
    const span = 2 * size - 1;
    const relative = scoresAt(pe, rope, { q, k, queryAt: [size - 1, size - 1], keysAt: gridPositions(span, span, 0, 0) });
    let relativeGap = 0;
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const rel = relative[(r - qr + size - 1) * span + (c - qc + size - 1)];
        relativeGap = Math.max(relativeGap, Math.abs(scores[r * size + c] - rel));
      }
    }
    return { scores, relative, span, windowGap: maxGap(scores, corner), relativeGap, rungs: rungAxes(rope) };
  });
}

/** The mrope_section of the real models, scaled to headDim (HF's sum is rotaryDim/2 = 64). */
export function mropeSection(headDim, interleaved) {
  const real = interleaved ? [24, 20, 20] : [16, 24, 24];  // Qwen3-VL : Qwen2-VL / Qwen2.5-VL
  return real.map((s) => (s * headDim) / 128);
}

/**
 * Position ids of "prefix text, video (frames × size × size merged patches), suffix text"
 * from the package (pe.mropePositions: HF's Qwen2-VL get_rope_index; the grid before the
 * 2 × 2 merge is frames × 2·size × 2·size). Returns [3][tokens], the (t, h, w) of any token,
 * the token index of a patch and the token indices and positions of the text tokens.
 */
export function videoPositions(pe, { prefix, frames, size, suffix }) {
  const items = [{ text: prefix }, { video: [frames, 2 * size, 2 * size] }, { text: suffix }];
  const { positions, tokens } = pe.mropePositions({ items, model: 'qwen2-vl', spatialMerge: 2 });
  const at = (token) => [0, 1, 2].map((axis) => positions[axis * tokens + token]);
  const patch = (f, r, c) => prefix + (f * size + r) * size + c;
  const textTokens = [...Array(prefix).keys(), ...Array.from({ length: suffix }, (_, i) => patch(frames, 0, 0) + i)];
  return { positions, tokens, at, patch, textTokens, textAt: textTokens.map((i) => at(i)[0]) };
}

/**
 * Text tokens through M-RoPE at (p, p, p) and through a plain rotator at p: how many of the
 * floats are the same bit for bit (compared as their 32-bit patterns), and the largest gap.
 */
export function textTokensMatch(pe, { headDim, section, interleaved, textAt, x }) {
  const heads = x.length / (textAt.length * headDim);
  const ids = Int32Array.from([...textAt, ...textAt, ...textAt]);
  const viaMrope = withRope(pe, { headDim, base: MROPE_BASE, mrope: { section, interleaved } },
    (rope) => rope.apply(Float32Array.from(x), { tokens: textAt.length, heads, positions: ids }));
  const viaPlain = withRope(pe, { headDim, base: MROPE_BASE },
    (rope) => rope.apply(Float32Array.from(x), { tokens: textAt.length, heads, positions: textAt }));
  const a = new Uint32Array(viaMrope.buffer); const b = new Uint32Array(viaPlain.buffer);
  let same = 0;
  for (let j = 0; j < a.length; j++) if (a[j] === b[j]) same += 1;
  return { same, total: a.length, maxGap: maxGap(viaMrope, viaPlain) };
}

/**
 * A query patch at `query` = (t, h, w) against keys at (t + Δt, h + Δh, w + Δw) for Δh, Δw in
 * [−(size−1), size−1] ([span][span] row-major, Δh down), and the scores along each single
 * axis for Δ = 0 … axisSteps−1 (the other two Δ = 0).
 */
export function videoScores(pe, { headDim, section, interleaved, q, k, size, dt, query, axisSteps }) {
  return withRope(pe, { headDim, base: MROPE_BASE, mrope: { section, interleaved } }, (rope) => {
    const span = 2 * size - 1;
    const n = span * span;
    const keys = new Int32Array(3 * n);
    for (let r = 0; r < span; r++) {
      for (let c = 0; c < span; c++) {
        const j = r * span + c;
        keys[j] = query[0] + dt; keys[n + j] = query[1] + r - (size - 1); keys[2 * n + j] = query[2] + c - (size - 1);
      }
    }
    const map = scoresAt(pe, rope, { q, k, queryAt: query, keysAt: keys });
    const along = [0, 1, 2].map((axis) => {
      const ax = new Int32Array(3 * axisSteps);
      for (let d = 0; d < axisSteps; d++) for (let a = 0; a < 3; a++) ax[a * axisSteps + d] = query[a] + (a === axis ? d : 0);
      return scoresAt(pe, rope, { q, k, queryAt: query, keysAt: ax });
    });
    return { map, span, along };
  });
}
