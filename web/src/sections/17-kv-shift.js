// 17. A KV cache shifted after eviction: keys cached after RoPE, the first N evicted, the
// rest re-rotated by −N (rope.shift) — the same scores as rotating from scratch, unlike not
// shifting; repeated shifts against a fresh rotation; M-RoPE ids recomputed (api-kv.js).
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, result } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { plot } from '../ui/plot.js';
import { sci } from '../ui/format.js';
import { textShift, repeatedShifts, mropeShift } from '../api-kv.js';

const COUNTS = [1, 10, 100, 1000];

export default {
  num: 17,
  id: 'kv-shift',
  params: {
    's17.T': spec.int(48, 4, 512),
    's17.N': spec.int(16, 1, 511),
    's17.p': spec.int(0, 0, 1000000),
    's17.mn': spec.int(8, 1, 23),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const scoresPlot = plot({ label: t('s17.plotLabel'), xLabel: t('s17.xKey'), yLabel: 'q·k', xInt: true,
      series: [{ label: t('s17.fresh'), width: 4 }, { label: t('s17.shifted'), dash: [6, 4] }, { label: t('s17.stale') }] });
    const shiftOut = h('output', { 'data-testid': 'kv-gap-shift' });
    const staleOut = h('output', { 'data-testid': 'kv-gap-stale' });
    const keysOut = h('output', { 'data-testid': 'kv-gap-keys' });
    const where = h('p', { class: 'hint', 'data-testid': 'kv-where' });
    const driftBox = h('div');
    const mropeBox = h('div');
    const mShiftOut = h('output', { 'data-testid': 'kv-mrope-shift' });
    const mTemporalOut = h('output', { 'data-testid': 'kv-mrope-temporal' });

    function update() {
      const T = state.get('s17.T');
      // At most T − 1 evicted: a larger N (from the link or before T was lowered) is brought
      // down, in the slider and the link too.
      const N = Math.min(state.get('s17.N'), T - 1);
      if (N !== state.get('s17.N')) { state.set('s17.N', N); nSlider.set(N); }
      const start = state.get('s17.p');
      const r = textShift(pe, { T, N, start });
      where.textContent = t('s17.where', { T, N, a: start, b: start + T - 1, c: start + N, q: r.qPos });
      scoresPlot.update([...Array(r.K).keys()].map((i) => start + i), r.sFresh, r.sShift, r.sStale);
      shiftOut.textContent = t('s17.rel', { v: sci(r.gapShift, 2), rel: sci(r.gapShift / r.peak, 1) });
      staleOut.textContent = t('s17.rel', { v: sci(r.gapStale, 2), rel: sci(r.gapStale / r.peak, 1) });
      keysOut.textContent = sci(r.keyGap, 2);
      const drift = repeatedShifts(pe, { K: Math.min(r.K, 64), start, counts: COUNTS });
      replace(driftBox, table({
        caption: t('s17.driftCaption', { k: Math.min(r.K, 64) }),
        columns: [t('s17.steps'), t('s17.driftGap')],
        rows: drift.map((d) => [String(d.steps), sci(d.gap, 1)]),
        testid: 'kv-drift',
      }));
    }

    function updateMrope() {
      const N = state.get('s17.mn');
      const m = mropeShift(pe, { N });
      const ids = (v) => `(${v.map((x) => String(x).replace('-', '\u2212')).join(', ')})`;
      replace(mropeBox, table({
        caption: t('s17.idsCaption', { n: N }),
        columns: [t('s17.token'), t('s17.idsBefore'), t('s17.idsAfter'), 'Δ (t, h, w)'],
        rows: m.rows.map((row) => [t(`s17.kind.${row.kind}`), ids(row.before), ids(row.after),
          ids(row.after.map((v, a) => v - row.before[a]))]),
        testid: 'kv-mrope-ids', reflow: true,
      }));
      mShiftOut.textContent = t('s17.rel', { v: sci(m.gapShift, 2), rel: sci(m.gapShift / m.peak, 1) });
      mTemporalOut.textContent = t('s17.rel', { v: sci(m.gapTemporal, 2), rel: sci(m.gapTemporal / m.peak, 1) });
    }

    const tSlider = boundSlider(ctx, 's17.T', { label: t('s17.T') }, update);
    const nSlider = boundSlider(ctx, 's17.N', { label: t('s17.N') }, update);
    const pSlider = boundSlider(ctx, 's17.p', { label: t('s17.p'), log: true }, update);
    const mSlider = boundSlider(ctx, 's17.mn', { label: t('s17.mn') }, updateMrope);
    const el = shell(ctx, this,
      panel(t('s17.liveTitle'), controlRow(tSlider, nSlider, pSlider), where, scoresPlot.el,
        result(t('s17.gapShift'), shiftOut), result(t('s17.gapStale'), staleOut), result(t('s17.gapKeys'), keysOut),
        h('p', { class: 'hint' }, rich(t('s17.liveAfter')))),
      panel(t('s17.driftTitle'), h('p', {}, rich(t('s17.driftText'))), driftBox),
        panel(t('s17.mropeTitle'), h('p', {}, rich(t('s17.mropeText'))), controlRow(mSlider), mropeBox,
          result(t('s17.mGapShift'), mShiftOut), result(t('s17.mGapTemporal'), mTemporalOut),
          h('p', { class: 'hint' }, rich(t('s17.mropeAfter')))),
      panel(t('s17.whenTitle'), h('p', {}, rich(t('s17.whenText')))));
    update();
    updateMrope();
    return { el, dispose: () => scoresPlot.dispose() };
  },
};
