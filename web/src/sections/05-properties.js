// 5. Properties of the table: bounded values, equal norms √(d/2), the smallest distance between
// two positions, and PE(p)·PE(p+k) against k with its closed form Σ cos(kθ_i) overlaid.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider, presetButton } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { plot } from '../ui/plot.js';
import { fixed, int, sig } from '../ui/format.js';
import { peNorms, peMinDistance, peDotByDistance, peDotClosedForm, tableRange } from '../api.js';

const NORM_POSITIONS = [0, 1, 10, 100, 1000, 1000000];
const TABLE_K = [0, 1, 2, 3, 5, 8, 10, 15, 20];  // article 001's distances at pos = 25

export default {
  num: 5,
  id: 'properties',
  params: {
    's5.d': spec.int(32, 2, 1024, { even: true }),
    's5.b': spec.num(10000, 2, 1e7),
    's5.k': spec.int(200, 10, 5000),
    's5.p': spec.int(0, 0, 100000),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const boundsOut = h('output', { 'data-testid': 'pe-bounds' });
    const normsBox = h('div');
    const minOut = h('output', { 'data-testid': 'pe-min-distance' });
    const minNote = h('p', { class: 'hint', 'data-testid': 'pe-min-note' });
    const dotTable = h('div');
    const dotPlot = plot({
      label: t('s5.plotLabel'), xLabel: 'k', yLabel: 'PE(p)·PE(p+k)', height: 260, xInt: true,
      series: [
        { label: t('s5.measured'), width: 3 },
        { label: t('s5.closed'), dash: [6, 4], width: 1.5 },
      ],
    });

    function update() {
      const dim = state.get('s5.d');
      const base = state.get('s5.b');
      const kMax = state.get('s5.k');
      const p = state.get('s5.p');
      const span = tableRange(pe, { dim, base, positions: 2048 });
      boundsOut.textContent = t('s5.boundsValue', { min: fixed(span.min, 6), max: fixed(span.max, 6) });
      const norms = peNorms(pe, { dim, base, positions: NORM_POSITIONS });
      replace(normsBox, table({
        caption: t('s5.normsCaption', { d: dim }),
        columns: ['p', '‖PE(p)‖'],
        rows: NORM_POSITIONS.map((q, i) => [int(q), fixed(norms[i], 4)]),
        testid: 'pe-norms',
      }));
      const md = peMinDistance(pe, { dim, base, positions: 1024 });
      minOut.textContent = t('s5.minValue', { v: sig(md.distance, 5), a: md.a ?? '?', b: md.b ?? '?' });
      // Whether "clearly apart" holds depends on d: say which case the reader is looking at.
      minNote.replaceChildren(...rich(t(md.distance >= 0.1 ? 's5.minClear' : 's5.minClose', { d: dim })));
      const measured = peDotByDistance(pe, { dim, base, p, kMax });
      const at = peDotByDistance(pe, { dim, base, p, kMax: TABLE_K[TABLE_K.length - 1] });
      replace(dotTable, table({
        caption: t('s5.dotCaption', { p, d: dim, max: fixed(dim / 2, 2) }),
        columns: [t('s5.colK'), ...TABLE_K.map(String)],
        rows: [[t('s5.colDot'), ...TABLE_K.map((k) => fixed(at[k], 2))]],
        testid: 'pe-dot-table',
      }));
      const closed = peDotClosedForm(pe, { dim, base, kMax });
      dotPlot.update([...Array(kMax + 1).keys()], measured, closed);
    }

    const dSlider = boundSlider(ctx, 's5.d', { label: t('s5.dim'), step: 2 }, update);
    const bSlider = boundSlider(ctx, 's5.b', { label: t('s5.base'), log: true, integer: false }, update);
    const kSlider = boundSlider(ctx, 's5.k', { label: t('s5.kMax') }, update);
    const pSlider = boundSlider(ctx, 's5.p', { label: t('s5.p') }, update);
    const el = shell(ctx, this,
      tex([String.raw`\lVert \mathrm{PE}(p)\rVert^2 = \displaystyle\sum_{i} \bigl(\sin^2 p\theta_i + \cos^2 p\theta_i\bigr) = \tfrac d2`, String.raw`\mathrm{PE}(p)\cdot\mathrm{PE}(p+k) = \displaystyle\sum_{i=0}^{d/2-1} \cos(k\,\theta_i)`]),
      controlRow(dSlider, bSlider),
      h('div', { class: 'grid-2' },
        panel(t('s5.boundsTitle'),
          h('p', {}, rich(t('s5.boundsText'))),
          result(t('s5.boundsLabel'), boundsOut),
          h('p', {}, rich(t('s5.minText'))),
          result(t('s5.minLabel'), minOut), minNote),
        panel(t('s5.normsTitle'), h('p', {}, rich(t('s5.normsText'))), normsBox)),
      panel(t('s5.dotTitle'),
        h('p', {}, rich(t('s5.dotText'))),
        controlRow(
          kSlider,
          pSlider,
          presetButton(ctx, t('s5.preset'), [['s5.d', 32, dSlider], ['s5.b', 10000, bSlider], ['s5.p', 25, pSlider]], update)),
        dotTable,
        h('p', {}, rich(t('s5.wiggle'))),
        dotPlot.el));
    update();
    return { el, dispose: () => dotPlot.dispose() };
  },
};
