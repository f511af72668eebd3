// 2. Three naive ideas and why they fail (article 000's table). Raw p and p/L are the ideas
// themselves, shown as the numbers they are; the one-hot and sinusoidal similarity matrices are
// dot products from pe.scores.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed, int, sig } from '../ui/format.js';
import { oneHotSimilarity, peSimilarity } from '../api.js';

const SIM_N = 32;
const TRAINED = 512;                  // article 000: trained on length 512 …
const RAW_PICKS = [0, 1, 2, 511, 4000];  // … so p = 4000 is a size never seen

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
    const oneHotDims = h('p', { 'data-testid': 'onehot-dims' });
    const oneHot = heatmap({ label: t('s2.oneHotLabel'), rowLabel: 'p', colLabel: 'p′', format: (v) => fixed(v, 1),
      readout: (r, c, v) => t('s2.simReadout', { a: r, b: c, v: fixed(v, 3) }) });
    const sinus = heatmap({ className: 'heat-small', label: t('s2.sinLabel'), rowLabel: 'p', colLabel: 'p′', format: (v) => fixed(v, 1),
      readout: (r, c, v) => t('s2.simReadout', { a: r, b: c, v: fixed(v, 3) }) });

    function update() {
      const L = state.get('s2.L');
      // The naive encodings are the ideas under discussion: p itself and p / L, the inputs
      // written as numbers (no package call can be simpler than the number it is given).
      replace(rawBox, table({
        caption: t('s2.rawCaption', { L: int(TRAINED) }),
        columns: [t('s2.rawCol'), t('s2.rawSeen')],
        rows: RAW_PICKS.map((p) => [int(p), t(p < TRAINED ? 's2.yes' : 's2.no')]),
        numeric: false,
        testid: 'naive-raw',
      }));
      replace(fracBox, table({
        caption: t('s2.fracCaption'),
        columns: ['L', 'p = 5', t('s2.fracStep')],
        rows: [10, 1000, L].filter((v, i, a) => a.indexOf(v) === i && v > 5).map((len) => [t('s2.lenRow', { L: int(len) }),
          sig(5 / len, 4), sig(1 / len, 4)]),
        className: 'compact',
        testid: 'naive-frac',
      }));
      oneHotDims.textContent = t('s2.oneHotDims', { L: int(L) });
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
        panel(t('s2.oneHotTitle'), h('p', {}, rich(t('s2.oneHotText'))), oneHotDims, oneHot.el)),
      panel(t('s2.fixTitle'), h('div', { class: 'text-figure-row' }, h('div', {}, h('p', {}, rich(t('s2.fixText'))), h('p', {}, rich(t('s2.angleText')))), sinus.el)));
    update();
    return { el };
  },
};
