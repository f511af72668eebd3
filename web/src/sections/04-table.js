// 4. The encoding table: PE rows from pe.sinusoidal as numbers, as a heatmap, and as text.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider, boundChoice, boundList } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed, fixed32, sig } from '../ui/format.js';

const RAMP = ' .:-=+*#%@';  // text view: ten characters from blank (−1) to dense (+1)

/** Column header for element j of a row: which function and which pair it belongs to. */
function columnName(j, dim, layout) {
  const half = dim / 2;
  if (layout === 'concat') return j < half ? `sin θ${sub(j)}` : `cos θ${sub(j - half)}`;
  return j % 2 === 0 ? `sin θ${sub(j / 2)}` : `cos θ${sub((j - 1) / 2)}`;
}
function sub(n) { return String(n).split('').map((c) => '₀₁₂₃₄₅₆₇₈₉'[c]).join(''); }

export default {
  num: 4,
  id: 'table',
  params: {
    's4.d': spec.int(8, 2, 32, { even: true }),
    's4.rows': spec.intList([0, 1, 2, 3], -1000000, 1000000, 12),
    's4.layout': spec.enumOf('interleaved', ['interleaved', 'concat']),
    's4.hd': spec.int(64, 2, 512, { even: true }),
    's4.hp': spec.int(100, 2, 512),
    's4.view': spec.enumOf('color', ['color', 'text']),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const numbers = h('div');
    const small = h('div');
    const heatBox = h('div');
    const heat = heatmap({
      label: t('s4.heatLabel'), rowLabel: t('s4.axisP'), colLabel: t('s4.axisJ'),
      format: (v) => fixed(v, 2),
      readout: (r, c, v) => t('s4.readout', { p: r, j: c, name: columnName(c, state.get('s4.hd'), state.get('s4.layout')), v: fixed(v, 4) }),
    });
    const textView = h('pre', { class: 'text-heat', role: 'img', tabindex: '0' });

    function updateNumbers() {
      const dim = state.get('s4.d');
      const layout = state.get('s4.layout');
      const positions = state.get('s4.rows');
      const data = pe.sinusoidal({ dim, positions, layout });
      const cols = [...Array(dim).keys()].map((j) => columnName(j, dim, layout));
      replace(numbers, table({
        caption: t('s4.tableCaption', { d: dim, layout: t(`common.${layout}`) }),
        columns: ['p', ...cols],
        rows: positions.map((p, r) => [String(p), ...Array.from(data.subarray(r * dim, (r + 1) * dim), (v) => fixed32(v, 4))]),
        testid: 'pe-table',
      }));
      // The d = 4 example of DESIGN §3: cos 0.01 = 0.99995 needs five digits to be seen.
      const row = pe.sinusoidal({ dim: 4, positions: [1], layout });
      replace(small, table({
        caption: t('s4.smallCaption'),
        columns: ['p', ...[0, 1, 2, 3].map((j) => columnName(j, 4, layout))],
        rows: [['1', ...Array.from(row, (v) => sig(v, 5))]],
        testid: 'pe-small',
      }));
    }

    function updateHeat() {
      const dim = state.get('s4.hd');
      const n = state.get('s4.hp');
      const layout = state.get('s4.layout');
      const data = pe.sinusoidal({ dim, positions: n, layout });
      if (state.get('s4.view') === 'color') {
        heat.draw(data, n, dim, { min: -1, max: 1, rowRange: `0 … ${n - 1}`, colRange: `0 … ${dim - 1}` });
        replace(heatBox, heat.el);
      } else {
        const lines = [];
        for (let p = 0; p < n; p++) {
          let line = '';
          for (let j = 0; j < dim; j++) {
            line += RAMP[Math.min(RAMP.length - 1, Math.floor(((data[p * dim + j] + 1) / 2) * RAMP.length))];
          }
          lines.push(line);
        }
        textView.textContent = lines.join('\n');
        textView.setAttribute('aria-label', t('s4.textLabel', { n, d: dim }));
        replace(heatBox, h('figure', { class: 'text-figure' }, textView,
          h('figcaption', {}, t('s4.textCaption', { ramp: RAMP.replace(' ', '␠') }))));
      }
    }

    const update = () => { updateNumbers(); updateHeat(); };
    const el = shell(ctx, this,
      tex([String.raw`\mathrm{PE}(p)_{2i} = \sin(p\,\theta_i)`, String.raw`\mathrm{PE}(p)_{2i+1} = \cos(p\,\theta_i)`]),
      panel(t('s4.numbersTitle'),
        controlRow(
          boundSlider(ctx, 's4.d', { label: t('s4.dim'), step: 2 }, updateNumbers),
          boundList(ctx, 's4.rows', { label: t('s4.rows') }, updateNumbers),
          boundChoice(ctx, 's4.layout', { label: t('common.layout'),
            options: [['interleaved', t('common.interleaved')], ['concat', t('common.concat')]] }, update)),
        numbers,
        h('p', {}, rich(t('s4.smallText'))),
        small),
      panel(t('s4.heatTitle'),
        h('p', {}, rich(t('s4.heatText'))),
        controlRow(
          boundSlider(ctx, 's4.hd', { label: t('s4.heatDim'), step: 2 }, updateHeat),
          boundSlider(ctx, 's4.hp', { label: t('s4.heatPositions') }, updateHeat),
          boundChoice(ctx, 's4.view', { label: t('s4.view'),
            options: [['color', t('s4.viewColor')], ['text', t('s4.viewText')]] }, updateHeat)),
        heatBox));
    update();
    return { el };
  },
};
