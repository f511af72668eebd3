// 4. The encoding table: PE rows from pe.sinusoidal as numbers (article 000's d = 8 rows and
// article 001's d = 4 hand table with its angle columns from pe.positionAngles), as a heatmap,
// and as article 001's text heatmap.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider, boundChoice, boundList, presetButton } from '../ui/bind.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { compact, fixed, fixed32, sig } from '../ui/format.js';
import { controlRow as row } from '../ui/controls.js';
import { angles } from '../api.js';

const RAMP = ' .:-=+*#%@';  // text view: ten characters from blank (−1) to dense (+1)
// Both articles at once: 000's d = 8 rows p = 0…3, 001's 24 × 16 text heatmap.
const ARTICLES = { 's4.d': 8, 's4.rows': [0, 1, 2, 3], 's4.layout': 'interleaved', 's4.hd': 16, 's4.hp': 24, 's4.view': 'text' };

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
    const hands = h('div');
    const handsLambda = h('p', { 'data-testid': 'hands-lambda' });
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
        caption: t(layout === 'concat' ? 's4.tableCaptionSplit' : 's4.tableCaption', { d: dim }),
        columns: ['p', ...cols],
        rows: positions.map((p, r) => [String(p), ...Array.from(data.subarray(r * dim, (r + 1) * dim), (v) => fixed32(v, 4))]),
        testid: 'pe-table',
      }));
      // d = 4: cos 0.01 = 0.99995 needs five digits to be seen.
      const row = pe.sinusoidal({ dim: 4, positions: [1], layout });
      replace(small, table({
        caption: t('s4.smallCaption'),
        columns: ['p', ...[0, 1, 2, 3].map((j) => columnName(j, 4, layout))],
        rows: [['1', ...Array.from(row, (v) => sig(v, 5))]],
        testid: 'pe-small',
      }));
    }

    // Article 001's d = 4 table: the angle of each pair (pos/1, pos/100) beside the PE vector,
    // printed as its script prints float32 (four decimals of the stored value: 0.9999).
    function updateHands() {
      const pos = [0, 1, 2, 3];
      const a = angles(pe, { dim: 4, positions: pos });
      const data = pe.sinusoidal({ dim: 4, positions: pos });
      const lambda = pe.wavelengths({ dim: 4 });
      handsLambda.textContent = t('s4.handsLambda', { l0: compact(lambda[0], 5), l1: compact(lambda[1], 5) });
      replace(hands, table({
        caption: t('s4.handsCaption'),
        columns: ['pos', t('s4.angle0'), t('s4.angle1'), t('s4.peVector')], reflow: true,
        rows: pos.map((p, r) => [String(p), fixed(a[r][0], 4), fixed(a[r][1], 4),
          Array.from(data.subarray(r * 4, r * 4 + 4), (v) => fixed(v, 4)).join(', ')]),
        testid: 'pe-hands',
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

    const update = () => { updateNumbers(); updateHands(); updateHeat(); };
    const controls = {};
    const bind = (kind, key, opts, fn) => { controls[key] = kind(ctx, key, opts, fn); return controls[key]; };
    const preset = (label, which) => presetButton(ctx, label,
      () => Object.entries(ARTICLES).map(([key, v]) => [key, v, controls[key]]), update, which);
    const el = shell(ctx, this,
      tex([String.raw`\mathrm{PE}(p)_{2i} = \sin(p\,\theta_i)`, String.raw`\mathrm{PE}(p)_{2i+1} = \cos(p\,\theta_i)`]),
      panel(t('s4.numbersTitle'),
        row(
          bind(boundSlider, 's4.d', { label: t('s4.dim'), step: 2 }, updateNumbers),
          bind(boundList, 's4.rows', { label: t('s4.rows') }, updateNumbers),
          bind(boundChoice, 's4.layout', { label: t('common.layout'),
            options: [['interleaved', t('common.interleaved')], ['concat', t('s4.split')]] }, update),
          preset(t('s4.preset'), 'article')),
        numbers,
        h('p', {}, rich(t('s4.smallText'))),
        small),
      panel(t('s4.handsTitle'), h('p', {}, rich(t('s4.handsText'))), handsLambda, hands),
      panel(t('s4.symbolsTitle'), table({
        caption: t('s4.symbolsCaption'),
        columns: [t('s4.symbol'), t('s4.meaning')],
        rows: [['pos', t('s4.symPos')], ['i', t('s4.symI')], ['10000^(2i/d)', t('s4.symSpeed')]],
        numeric: false, className: 'prose', testid: 'pe-symbols', reflow: true,
      })),
      panel(t('s4.heatTitle'),
        h('p', {}, rich(t('s4.heatText'))),
        row(
          bind(boundSlider, 's4.hd', { label: t('s4.heatDim'), step: 2 }, updateHeat),
          bind(boundSlider, 's4.hp', { label: t('s4.heatPositions') }, updateHeat),
          bind(boundChoice, 's4.view', { label: t('s4.view'),
            options: [['color', t('s4.viewColor')], ['text', t('s4.viewText')]] }, updateHeat),
          preset(t('s4.presetText'), 'article-001')),
        heatBox));
    update();
    return { el };
  },
};
