// Section 14's live parts: the four families of the methods table side by side on the same
// content with a trained length L (what each does past L; RoPE with and without scaling), and
// article 003's lineage of relative encodings as score decompositions: Shaw 2018, the 2019
// four terms with W_qᵀW_k and Transformer-XL's substitution, the 2020 variants. Every matrix
// is a package result (pe.scores, pe.alibiBias, pe.t5Buckets, pe.clippedDistances,
// pe.learnedTable); the page only picks entries (b[bucket], p_{m−n}) and draws them.
import { h, replace } from '../ui/dom.js';
import { panel, tex, result } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed, sci } from '../ui/format.js';
import { controlRow } from '../ui/controls.js';
import { packageError } from '../ui/errors.js';
import { boundSlider, boundChoice } from '../ui/bind.js';
import { randomVectors, repeatRows } from '../api.js';
import { dots } from '../api-proof.js';

const D = 8;  // model width of the lineage demo (small enough to read)

/** out[m][n] = src[at(m, n)]: a lookup (p_{m−n}, b[bucket]), no arithmetic. */
function pick(src, T, at) {
  const out = new Float32Array(T * T);
  for (let m = 0; m < T; m++) for (let n = 0; n < T; n++) out[m * T + n] = src[at(m, n)];
  return out;
}

/** Largest difference between (m, n) and (m+1, n+1): 0 when a matrix depends on n − m only. */
function diagonalGap(a, T) {
  let g = 0;
  for (let m = 0; m + 1 < T; m++) for (let n = 0; n + 1 < T; n++) g = Math.max(g, Math.abs(a[(m + 1) * T + n + 1] - a[m * T + n]));
  return g;
}

function heat(ctx, { title, label, testid, data, T, L, fmt = (v) => fixed(v, 2), note }) {
  const { t } = ctx;
  const hm = heatmap({ label, rowLabel: t('common.axisM'), colLabel: t('common.axisN'), format: fmt,
    readout: (m, n, v) => t('fam.readout', { m, n, v: Number.isNaN(v) ? t('fam.noVector') : fmt(v) }) });
  hm.el.dataset.testid = testid;
  // Every map marks where the trained length L lies.
  hm.draw(data, T, T, { rowRange: `0 … ${T - 1}`, colRange: `0 … ${T - 1}`, guide: L !== undefined ? { at: L, label: `L = ${L}` } : undefined });
  return h('div', { class: 'family' }, h('h4', {}, title), hm.el,
    L !== undefined ? h('p', { class: 'hint' }, t('fam.pastL', { L })) : null,
    note ? h('p', { class: 'hint', 'data-testid': `${testid}-note` }, note) : null);
}

/** The four families on one q, k with trained length L, shown over T > L positions. */
export function familiesPanel(ctx) {
  const { pe, t, state } = ctx;
  const grid = h('div', { class: 'family-grid' });
  const paramsOut = h('output', { 'data-testid': 'family-params' });

  function update() {
    const L = state.get('s14.L');
    const T = state.get('s14.T');
    const dim = state.get('s14.d');
    const head = state.get('s14.head');
    const [q, k] = randomVectors(pe, { seed: 14, count: 2, dim });
    const qs = repeatRows(q, T);
    const ks = repeatRows(k, T);
    const pos = Int32Array.from({ length: T }, (_, i) => i);
    const sinus = pe.scores({ q: qs, k: ks, dim, qPositions: pos, kPositions: pos, mode: 'additive' }).scores;
    const rope = pe.scores({ q: qs, k: ks, dim, qPositions: pos, kPositions: pos, mode: 'rotary' }).scores;
    // RoPE with the context stretched from L to T (factor T/L, HF rope_scaling keys).
    const factor = Math.max(1, T / L);
    const type = state.get('s14.scale');
    const scaling = type === 'yarn' ? { type, factor, originalMaxPositionEmbeddings: L } : { type, factor };
    const scaled = pe.scores({ q: qs, k: ks, dim, qPositions: pos, kPositions: pos, mode: 'rotary', scaling }).scores;
    // Learned: P[m]·P[n] for m, n < L; past L there is no vector (NaN = drawn black).
    const table = pe.learnedTable({ positions: L, dim, seed: 14 });
    const rows = table.lookup([...Array(Math.min(T, L)).keys()]);
    const inside = dots(pe, rows, rows, dim);
    const learned = new Float32Array(T * T).fill(NaN);
    for (let m = 0; m < Math.min(T, L); m++) for (let n = 0; n < Math.min(T, L); n++) learned[m * T + n] = inside[m * Math.min(T, L) + n];
    let refusal = '';
    try { table.lookup([L]); } catch (err) { refusal = err instanceof RangeError ? t('fam.refused', { L }) : packageError(t, err); }
    const heads = 8;
    const alibi = pe.alibiBias({ heads, keys: T }).subarray(head * T * T, (head + 1) * T * T);
    const slope = pe.alibiSlopes({ heads })[head];
    // T5: the bucket of n − m, then one learned scalar per bucket (a seeded stand-in for b).
    const numBuckets = 16;
    const buckets = pe.t5Buckets({ queries: T, keys: T, bidirectional: true, numBuckets, maxDistance: L });
    const b = pe.learnedTable({ positions: numBuckets, dim: 1, seed: 15 }).lookup(buckets);
    paramsOut.textContent = t('fam.params', { L, d: dim, learned: table.parameters, t5: numBuckets * heads, heads });
    replace(grid,
      heat(ctx, { title: t('fam.sin'), label: t('fam.sinLabel'), testid: 'fam-sin', data: sinus, T, L,
        note: t('fam.sinNote', { gap: fixed(diagonalGap(sinus, T), 2) }) }),
      heat(ctx, { title: t('fam.learned'), label: t('fam.learnedLabel'), testid: 'fam-learned', data: learned, T, L, note: refusal }),
      heat(ctx, { title: t('fam.alibi', { slope: fixed(slope, 5) }), label: t('fam.alibiLabel'), testid: 'fam-alibi', data: alibi, T, L, note: t('fam.alibiNote') }),
      heat(ctx, { title: t('fam.t5'), label: t('fam.t5Label'), testid: 'fam-t5', data: b, T, L,
        note: t('fam.t5Note', { far: buckets[T - 1], last: numBuckets - 1 }) }),
      heat(ctx, { title: t('fam.rope'), label: t('fam.ropeLabel'), testid: 'fam-rope', data: rope, T, L,
        note: t('fam.ropeNote', { gap: sci(diagonalGap(rope, T), 1) }) }),
      heat(ctx, { title: t('fam.ropeScaled', { type, f: fixed(factor, 2) }), label: t('fam.ropeScaledLabel'), testid: 'fam-rope-scaled',
        data: scaled, T, L, note: t('fam.ropeScaledNote', { gap: sci(diagonalGap(scaled, T), 1), f: fixed(factor, 2) }) }));
  }

  const el = panel(t('fam.title'),
    h('p', {}, rich(t('fam.text'))),
    controlRow(
      boundSlider(ctx, 's14.L', { label: t('fam.L') }, update),
      boundSlider(ctx, 's14.T', { label: t('fam.T') }, update),
      boundSlider(ctx, 's14.d', { label: t('s9.dim'), step: 2 }, update),
      boundSlider(ctx, 's14.head', { label: t('fam.head') }, update),
      boundChoice(ctx, 's14.scale', { label: t('fam.scale'), options: [['linear', 'linear'], ['yarn', 'YaRN']] }, update)),
    result(t('fam.paramsLabel'), paramsOut),
    grid);
  update();
  return { el };
}

/** Article 003's relative-position lineage as live score decompositions. */
export function lineagePanel(ctx) {
  const { pe, t, state } = ctx;
  const box = h('div', { class: 'family-grid' });
  const shawBox = h('div', { class: 'family-grid' });
  const variantBox = h('div', { class: 'family-grid' });

  function update() {
    const T = 12;
    const view = state.get('s14.view');
    const clip = state.get('s14.clip');
    const x = pe.fillUniform(new Float32Array(T * D), { seed: 31, lo: -1, hi: 1 });
    const p = pe.sinusoidal({ dim: D, positions: T });
    const w = pe.attentionWeights({ modelDim: D, seed: 32 });
    // W·v for every row v: pe.scores of the rows against W's rows ([T][D] = (W v_t)_r).
    const proj = (rows, W) => dots(pe, rows, W, D);
    const qx = proj(x, w.wq); const kx = proj(x, w.wk);
    const qp = proj(p, w.wq); const kp = proj(p, w.wk);
    const a = dots(pe, qx, kx, D);
    const rel = pe.sinusoidal({ dim: D, positions: Array.from({ length: 2 * T - 1 }, (_, r) => r - (T - 1)) });
    const kr = proj(rel, w.wk);
    const R = 2 * T - 1;
    const col = (m, n) => m - n + T - 1;  // where p_{m−n} sits in rel
    let terms;
    if (view === 'absolute') {
      terms = [a, dots(pe, qx, kp, D), dots(pe, qp, kx, D), dots(pe, qp, kp, D)];
    } else {
      // Transformer-XL: p_n → p_{m−n} (a sinusoid of the distance), p_m → learned u, v.
      const [u, v] = randomVectors(pe, { seed: 33, count: 2, dim: D });
      const uk = dots(pe, proj(u, w.wq), kx, D);
      const vk = dots(pe, proj(v, w.wq), kr, D);
      terms = [a, pick(dots(pe, qx, kr, D), T, (m, n) => m * R + col(m, n)),
        pick(uk, T, (m, n) => n), pick(vk, T, (m, n) => col(m, n))];
    }
    const names = ['a', 'b', 'c', 'd'];
    replace(box, terms.map((m, i) => heat(ctx, { title: t(`lin.${view}.${names[i]}`), label: t(`lin.${view}.${names[i]}`),
      testid: `lin-${names[i]}`, data: m, T, note: t('lin.gap', { gap: sci(diagonalGap(m, T), 1) }) })));

    // Shaw 2018: key j gets a^K_{clip(j−i, k)}; the added score term is (W_q x_i)·a^K_{clip}.
    const dist = pe.clippedDistances({ queries: T, keys: T, maxDistance: clip });
    const aK = pe.learnedTable({ positions: 2 * clip + 1, dim: D, seed: 34 });
    const idx = Array.from(dist, (v) => v + clip);
    const aRows = aK.lookup([...Array(2 * clip + 1).keys()]);
    const qa = dots(pe, qx, aRows, D);
    const shawTerm = new Float32Array(T * T);
    for (let i = 0; i < T * T; i++) shawTerm[i] = qa[Math.floor(i / T) * (2 * clip + 1) + idx[i]];
    // (3): x_mᵀW_qᵀW_k p̃_{m−n} and p̃_{m−n}ᵀW_qᵀW_k x_n, both relative word–position terms.
    const wp = dots(pe, kx, proj(rel, w.wq), D);  // [n][r] = (W_k x_n)·(W_q p̃_r)
    const v3a = pick(dots(pe, qx, kr, D), T, (m, n) => m * R + col(m, n));
    const v3b = pick(wp, T, (m, n) => n * R + col(m, n));
    replace(shawBox,
      heat(ctx, { title: t('lin.shawIdx', { k: clip }), label: t('lin.shawIdx', { k: clip }), testid: 'lin-shaw-idx',
        data: Float32Array.from(dist), T, fmt: (v) => String(Math.round(v)) }),
      heat(ctx, { title: t('lin.shawTerm'), label: t('lin.shawTerm'), testid: 'lin-shaw-term', data: shawTerm, T }));

    // 2020: (1) content + b_ij only; (2) + p_mᵀU_qᵀU_k p_n with separate projections U.
    const buckets = pe.t5Buckets({ queries: T, keys: T, numBuckets: 8, maxDistance: 16 });
    const bias = pe.learnedTable({ positions: 8, dim: 1, seed: 35 }).lookup(buckets);
    const uw = pe.attentionWeights({ modelDim: D, seed: 36 });
    const up = dots(pe, proj(p, uw.wq), proj(p, uw.wk), D);
    replace(variantBox,
      heat(ctx, { title: t('lin.v1'), label: t('lin.v1'), testid: 'lin-v1', data: bias, T, note: t('lin.gap', { gap: sci(diagonalGap(bias, T), 1) }) }),
      heat(ctx, { title: t('lin.v2'), label: t('lin.v2'), testid: 'lin-v2', data: up, T, note: t('lin.gap', { gap: sci(diagonalGap(up, T), 1) }) }),
      heat(ctx, { title: t('lin.v3a'), label: t('lin.v3a'), testid: 'lin-v3a', data: v3a, T }),
      heat(ctx, { title: t('lin.v3b'), label: t('lin.v3b'), testid: 'lin-v3b', data: v3b, T }));
  }

  const el = h('div', {},
    panel(t('lin.shawTitle'), h('p', {}, rich(t('lin.shawText'))),
      tex(String.raw`e_{ij} = \frac{(x_iW^Q)(x_jW^K + a^K_{ij})^{\mathsf T}}{\sqrt{d_z}},\quad z_i = \sum_j \alpha_{ij}(x_jW^V + a^V_{ij}),\quad a_{ij} = w_{\mathrm{clip}(j-i,\,k)}`),
      controlRow(boundSlider(ctx, 's14.clip', { label: t('lin.clip') }, update)), shawBox),
    panel(t('lin.title'), h('p', {}, rich(t('lin.text'))),
      tex(String.raw`q_m^{\mathsf T}k_n = \underbrace{x_m^{\mathsf T}W_q^{\mathsf T}W_kx_n}_{(a)} + \underbrace{x_m^{\mathsf T}W_q^{\mathsf T}W_kp_n}_{(b)} + \underbrace{p_m^{\mathsf T}W_q^{\mathsf T}W_kx_n}_{(c)} + \underbrace{p_m^{\mathsf T}W_q^{\mathsf T}W_kp_n}_{(d)}`),
      controlRow(boundChoice(ctx, 's14.view', { label: t('lin.view'),
        options: [['absolute', t('lin.viewAbs')], ['xl', t('lin.viewXl')]] }, update)),
      box, h('p', {}, rich(t('lin.after')))),
    panel(t('lin.v2020Title'), h('p', {}, rich(t('lin.v2020Text'))),
      tex([String.raw`(1)\ x_m^{\mathsf T}W_q^{\mathsf T}W_kx_n + b_{i,j}`, String.raw`(2)\ \dots + p_m^{\mathsf T}U_q^{\mathsf T}U_kp_n + b_{i,j}`,
        String.raw`(3)\ x_m^{\mathsf T}W_q^{\mathsf T}W_kx_n + x_m^{\mathsf T}W_q^{\mathsf T}W_k\tilde p_{m-n} + \tilde p_{m-n}^{\mathsf T}W_q^{\mathsf T}W_kx_n`]),
      variantBox, h('p', {}, rich(t('lin.v3')))));
  update();
  return { el };
}
