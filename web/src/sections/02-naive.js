// 2. Three naive ideas and why they fail. Raw p and p/L are the ideas themselves (shown as
// numbers); the one-hot and sinusoidal similarity matrices are dot products from pe.scores.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed, int } from '../ui/format.js';
import { oneHotSimilarity, peSimilarity } from '../api.js';

const SIM_N = 32;

export default {
  num: 2,
  id: 'naive',
  params: {
    's2.L': spec.int(10, 2, 100000),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const rawBox = h('div');
    const fracBox = h('div');
    const oneHot = heatmap({ label: t('s2.oneHotLabel'), rowLabel: 'p', colLabel: 'p′', format: (v) => fixed(v, 1),
      readout: (r, c, v) => t('s2.simReadout', { a: r, b: c, v: fixed(v, 3) }) });
    const sinus = heatmap({ className: 'heat-small', label: t('s2.sinLabel'), rowLabel: 'p', colLabel: 'p′', format: (v) => fixed(v, 1),
      readout: (r, c, v) => t('s2.simReadout', { a: r, b: c, v: fixed(v, 3) }) });

    function update() {
      const L = state.get('s2.L');
      const picks = [0, 1, 2, Math.floor(L / 2), L - 1].filter((v, i, a) => a.indexOf(v) === i && v < L);
      // The naive encodings are the ideas under discussion, shown as the numbers they are.
      replace(rawBox, table({
        caption: t('s2.rawCaption', { L: int(L) }),
        columns: ['p', t('s2.rawCol')],
        rows: picks.map((p) => [int(p), int(p)]),
        testid: 'naive-raw',
      }));
      replace(fracBox, table({
        caption: t('s2.fracCaption'),
        columns: ['L', 'p = 5', t('s2.fracStep')],
        rows: [10, 100, L].filter((v, i, a) => a.indexOf(v) === i && v > 5).map((len) => [t('s2.lenRow', { L: int(len) }),
          fixed(5 / len, 4), fixed(1 / len, 4)]),
        className: 'compact',
        testid: 'naive-frac',
      }));
    }

    const oh = oneHotSimilarity(pe, { n: SIM_N });
    oneHot.draw(oh, SIM_N, SIM_N, { min: 0, max: 1 });
    const ps = peSimilarity(pe, { n: SIM_N, dim: 16 });
    sinus.draw(ps.values, SIM_N, SIM_N);

    const el = shell(ctx, this,
      controlRow(boundSlider(ctx, 's2.L', { label: t('s2.L'), log: true }, update)),
      h('div', { class: 'grid-3' },
        panel(t('s2.rawTitle'), h('p', {}, rich(t('s2.rawText'))), rawBox),
        panel(t('s2.fracTitle'), h('p', {}, rich(t('s2.fracText'))), fracBox),
        panel(t('s2.oneHotTitle'), h('p', {}, rich(t('s2.oneHotText'))), oneHot.el)),
      panel(t('s2.fixTitle'), h('div', { class: 'text-figure-row' }, h('div', {}, h('p', {}, rich(t('s2.fixText')))), sinus.el)));
    update();
    return { el };
  },
};
