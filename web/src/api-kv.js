// The package calls behind the KV-cache section: keys rotated at their positions
// (rope.apply), the first N evicted, the rest re-rotated by −N (rope.shift), against
// rotating the raw keys again at their new positions; ids of an M-RoPE sequence from
// pe.mropePositions. The only arithmetic here is bookkeeping (slicing rows, max |a − b|).
import { maxGap, maxAbsOf } from './api.js';

function withRope(pe, opts, fn) {
  const rope = pe.rope(opts);
  try { return fn(rope); } finally { rope.dispose(); }
}

/** q·k_j for every cached key row (pe.scores without positions on rotated rows). */
function dots(pe, q, keys, dim) {
  const tk = keys.length / dim;
  return pe.scores({ q, k: keys, dim, qPositions: [0], kPositions: [...Array(tk).keys()], mode: 'none' }).scores;
}

const seeded = (pe, n, seed) => pe.fillUniform(new Float32Array(n), { seed, lo: -1, hi: 1 });

/**
 * A text cache of T keys at start … start+T−1; the first N evicted. The next query sits at
 * start + T − N. Scores against the shifted cache, a cache rotated from scratch at the new
 * positions, and the unshifted (stale) cache.
 */
export function textShift(pe, { T, N, start, headDim = 64, base = 10000, seed = 17 }) {
  const raw = seeded(pe, T * headDim, seed);
  const q = seeded(pe, headDim, seed + 1);
  const K = T - N;
  return withRope(pe, { headDim, base }, (rope) => {
    const cached = rope.apply(raw.slice(), { tokens: T, start });
    const stale = cached.slice(N * headDim);
    const shifted = rope.shift(stale.slice(), { tokens: K, delta: -N });
    const fresh = rope.apply(raw.slice(N * headDim), { tokens: K, start });
    const qr = rope.apply(q.slice(), { tokens: 1, start: start + K });
    const sFresh = dots(pe, qr, fresh, headDim);
    const sShift = dots(pe, qr, shifted, headDim);
    const sStale = dots(pe, qr, stale, headDim);
    return { K, qPos: start + K, sFresh, sShift, sStale, keyGap: maxGap(shifted, fresh),
      gapShift: maxGap(sShift, sFresh), gapStale: maxGap(sStale, sFresh), peak: maxAbsOf(sFresh) };
  });
}

/**
 * A sliding window: `K` keys shifted by −1 once per step. After each listed step count s, the
 * largest gap to the same raw keys rotated from scratch at their positions, relative to max |k|.
 */
export function repeatedShifts(pe, { K, start, counts, headDim = 64, base = 10000, seed = 17 }) {
  const raw = seeded(pe, K * headDim, seed);
  const last = Math.max(...counts);
  return withRope(pe, { headDim, base }, (rope) => {
    const cache = rope.apply(raw.slice(), { tokens: K, start: start + last });
    const out = [];
    for (let s = 1; s <= last; s++) {
      rope.shift(cache, { tokens: K, delta: -1 });
      if (counts.includes(s)) {
        const fresh = rope.apply(raw.slice(), { tokens: K, start: start + last - s });
        out.push({ steps: s, gap: maxGap(cache, fresh) / maxAbsOf(fresh) });
      }
    }
    return out;
  });
}

/** [3][tokens] ids → the (t, h, w) of token i. */
const idsOf = (positions, tokens, i) => [0, 1, 2].map((a) => positions[a * tokens + i]);

/**
 * Qwen2-VL (HF config: head_dim 128, mrope_section [16, 24, 24], rope_theta 10⁶): text, an
 * image of grid × grid merged patches, text. Evict the first N text tokens and compare the
 * shifted cache (every axis by −N, rope.shift) and a shift of the temporal axis alone
 * (rotating the raw keys at (t − N, h, w)) with the keys rotated at the recomputed ids.
 */
export function mropeShift(pe, { N, prefix = 24, grid = 4, suffix = 8, seed = 23 }) {
  const headDim = 128;
  const items = (p) => [{ text: p }, { image: [1, 2 * grid, 2 * grid] }, { text: suffix }];
  const before = pe.mropePositions({ items: items(prefix), model: 'qwen2-vl', spatialMerge: 2 });
  const after = pe.mropePositions({ items: items(prefix - N), model: 'qwen2-vl', spatialMerge: 2 });
  const T = before.tokens;
  const K = after.tokens;
  const keptIds = [0, 1, 2].flatMap((a) => Array.from(before.positions.subarray(a * T + N, (a + 1) * T)));
  const tOnly = Int32Array.from(keptIds.map((v, j) => (j < K ? v - N : v)));
  const raw = seeded(pe, T * headDim, seed);
  const keptRaw = raw.slice(N * headDim);
  return withRope(pe, { headDim, base: 1e6, mrope: { section: [16, 24, 24] } }, (rope) => {
    const cached = rope.apply(raw.slice(), { tokens: T, positions: before.positions });
    const shifted = rope.shift(cached.slice(N * headDim), { tokens: K, delta: -N });
    const fresh = rope.apply(keptRaw.slice(), { tokens: K, positions: after.positions });
    const temporal = rope.apply(keptRaw.slice(), { tokens: K, positions: tOnly });
    const image = prefix - N; // first image token after eviction
    const rows = [['text', 0], ['image', image], ['imageLast', image + grid * grid - 1], ['text2', image + grid * grid]]
      .map(([kind, i]) => ({ kind, before: idsOf(before.positions, T, i + N), after: idsOf(after.positions, K, i) }));
    const qPos = Math.max(...after.positions) + 1;
    const q = rope.apply(seeded(pe, headDim, seed + 1), { tokens: 1, start: qPos });
    const sFresh = dots(pe, q, fresh, headDim);
    return { rows, K, gapShift: maxGap(dots(pe, q, shifted, headDim), sFresh),
      gapTemporal: maxGap(dots(pe, q, temporal, headDim), sFresh), peak: maxAbsOf(sFresh) };
  });
}
