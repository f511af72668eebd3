// 16. Speed in your browser: RoPE apply timed on the visitor's machine with the SIMD binary,
// the scalar binary (createPosenc({ simd: false })) and the plain-JS reference loop of
// bench/plain-js-rope.mjs. Timing is measurement, not maths; every rotation is the package's
// (or the reference's, which is the thing compared against).
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, result } from '../ui/section.js';
import { boundSelect } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { rate } from '../ui/format.js';
import { packageError } from '../ui/errors.js';
import { plainCosSinCache, plainRopeApply } from '@bench/plain-js-rope.mjs';
import { loadScalar, ropeRunner } from '../api.js';

const HEAD_DIM = 128;
const HEADS = 8;

/**
 * Median time per call (ms) of fn. Browsers coarsen performance.now() (to 0.1 ms without
 * cross-origin isolation), so each sample times a batch of calls lasting at least ~5 ms.
 */
async function timeIt(fn, budget) {
  for (let i = 0; i < 3; i++) fn();
  let reps = 1;
  for (;;) {
    const a = performance.now();
    for (let i = 0; i < reps; i++) fn();
    if (performance.now() - a >= 5 || reps >= 1 << 20) break;
    reps *= 2;
  }
  const samples = [];
  const t0 = performance.now();
  while (performance.now() - t0 < budget || samples.length < 5) {
    const a = performance.now();
    for (let i = 0; i < reps; i++) fn();
    samples.push((performance.now() - a) / reps);
    await new Promise((r) => setTimeout(r, 0));  // keep the page responsive between batches
  }
  samples.sort((x, y) => x - y);
  return samples[samples.length >> 1];
}

/** Horizontal bars of throughput (longest = fastest); widths set through the CSSOM. */
function bars(items, lang) {
  const top = Math.max(...items.map(([, v]) => v));
  return h('div', { class: 'bars', 'aria-hidden': 'true' }, items.map(([name, v], i) => {
    const bar = h('span', { class: `bar bar-${i}` });
    bar.style.setProperty('width', `${(100 * v) / top}%`);
    return h('div', { class: 'bar-row' }, h('span', { class: 'bar-name' }, name), h('span', { class: 'bar-track' }, bar),
      h('span', { class: 'bar-value' }, rate(v, undefined, lang)));
  }));
}

export default {
  num: 16,
  id: 'speed',
  params: {
    's16.tokens': spec.int(512, 16, 4096),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const out = h('div', { 'data-testid': 'speed-result', 'aria-live': 'polite' },
      h('p', { class: 'hint' }, t('s16.idle')));
    let busy = false;
    let disposed = false;

    async function run() {
      if (busy) return;
      busy = true;
      runBtn.disabled = true;
      replace(out, h('p', { class: 'hint' }, rich(t('s16.running'))));
      const tokens = state.get('s16.tokens');
      const n = tokens * HEADS * HEAD_DIM;
      const budget = 400;
      const rows = [];
      try {
        const x = new Float32Array(n);
        pe.fillUniform?.(x, { seed: 15, lo: -1, hi: 1 });
        const simdRun = ropeRunner(pe, { headDim: HEAD_DIM, tokens, heads: HEADS, x });
        const tSimd = await timeIt(simdRun.step, budget);
        simdRun.dispose();
        rows.push([pe.simd ? t('s16.simd') : t('s16.scalarOnly'), tSimd]);
        const scalarPe = pe.simd ? await loadScalar() : null;
        const scalarMissing = pe.simd && !scalarPe;
        if (scalarPe) {
          const scalarRun = ropeRunner(scalarPe, { headDim: HEAD_DIM, tokens, heads: HEADS, x });
          rows.push([t('s16.scalar'), await timeIt(scalarRun.step, budget)]);
          scalarRun.dispose();
        }
        const cache = plainCosSinCache({ rotaryDim: HEAD_DIM, positions: tokens });
        const y = Float32Array.from(x);
        rows.push([t('s16.plain'), await timeIt(() => plainRopeApply(y, cache, { tokens, heads: HEADS, headDim: HEAD_DIM }), budget)]);
        if (disposed) return;
        const ref = rows[rows.length - 1][1];
        replace(out,
          table({
            caption: t('s16.caption', { tokens, heads: HEADS, dim: HEAD_DIM, mib: ((n * 4) / 2 ** 20).toFixed(1) }),
            columns: [t('s16.engine'), t('s16.time'), t('s16.throughput'), t('s16.vsPlain')],
            rows: rows.map(([name, ms]) => [name, `${ms.toFixed(3)} ms`, rate(n / (ms / 1000), undefined, t.lang), `${(ref / ms).toFixed(2)}×`]),
            testid: 'speed-table',
          }),
          bars(rows.map(([name, ms]) => [name, n / (ms / 1000)]), t.lang),
          scalarMissing ? h('p', { class: 'note info' }, t('s16.noScalar')) : null,
          result(t('s16.ratio'), h('output', {}, `${(ref / rows[0][1]).toFixed(1)}×`)));
      } catch (err) {
        replace(out, h('p', { class: 'note warn' }, packageError(t, err)));
      } finally {
        busy = false;
        runBtn.disabled = false;
      }
    }

    const runBtn = button(t('s16.run'), run, { 'data-testid': 'speed-run' });
    const el = shell(ctx, this,
      controlRow(
        boundSelect(ctx, 's16.tokens', { label: t('s16.tokens'),
          options: [16, 128, 512, 2048, 4096].map((v) => [String(v), String(v)]) }, () => {}),
        runBtn),
      panel(t('s16.resultTitle'), out),
      h('p', { class: 'hint' }, rich(t('s16.note'))));
    return { el, dispose() { disposed = true; } };
  },
};
