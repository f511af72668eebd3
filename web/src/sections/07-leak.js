// 7. Adding positions leaks absolute position: pe.scores in 'additive' mode returns the four
// terms; the same content q, k placed at every position gives the additive score matrix.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed } from '../ui/format.js';
import { randomVectors, scores, repeatRows } from '../api.js';

const STARTS = [0, 10, 50, 100, 500];
const T = 64;

export default {
  num: 7,
  id: 'leak',
  params: {
    's7.seed': spec.int(7, 0, 99999),
    's7.d': spec.int(16, 2, 256, { even: true }),
    's7.delta': spec.int(3, -50, 50),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const termsBox = h('div');
    const heat = heatmap({
      label: t('s7.heatLabel'), rowLabel: t('common.axisM'), colLabel: t('common.axisN'),
      format: (v) => fixed(v, 2),
      readout: (m, n, v) => t('common.scoreReadout', { m, n, delta: n - m, v: fixed(v, 4) }),
    });

    function update() {
      const dim = state.get('s7.d');
      const seed = state.get('s7.seed');
      const delta = state.get('s7.delta');
      const [q, k] = randomVectors(pe, { seed, count: 2, dim });
      const qPositions = STARTS;
      const kPositions = STARTS.map((m) => m + delta);
      // One query and one key per pair: scores is computed for every (m, n) and we read
      // the diagonal (pair r ↔ query r, key r).
      const res = scores(pe, { q: repeatRows(q, STARTS.length), k: repeatRows(k, STARTS.length), dim,
        qPositions, kPositions, mode: 'additive' });
      const n = STARTS.length;
      const at = (arr, r) => arr[r * n + r];
      replace(termsBox, table({
        caption: t('s7.termsCaption', { delta }),
        columns: ['(m, n)', 'q·k', 'q·pₙ', 'pₘ·k', 'pₘ·pₙ', t('s7.total')],
        rows: STARTS.map((m, r) => [`(${m}, ${m + delta})`,
          fixed(at(res.terms.content, r), 4), fixed(at(res.terms.queryPosition, r), 4),
          fixed(at(res.terms.positionKey, r), 4), fixed(at(res.terms.positionPosition, r), 4),
          h('strong', {}, fixed(at(res.scores, r), 4))]),
        testid: 'leak-terms',
      }));
      const positions = [...Array(T).keys()];
      const mat = scores(pe, { q: repeatRows(q, T), k: repeatRows(k, T), dim,
        qPositions: positions, kPositions: positions, mode: 'additive' });
      heat.draw(mat.scores, T, T, { rowRange: `0 … ${T - 1}`, colRange: `0 … ${T - 1}` });
    }

    const el = shell(ctx, this,
      tex(String.raw`(q + p_m)\cdot(k + p_n) = \underbrace{q\cdot k}_{\text{${t('s7.fContent')}}} + \underbrace{q\cdot p_n}_{\text{${t('s7.fN')}}} + \underbrace{p_m\cdot k}_{\text{${t('s7.fM')}}} + \underbrace{p_m\cdot p_n}_{\text{${t('s7.fNM')}}}`),
      controlRow(
        boundSlider(ctx, 's7.d', { label: t('s7.dim'), step: 2 }, update),
        boundSlider(ctx, 's7.delta', { label: t('s7.delta') }, update),
        boundSlider(ctx, 's7.seed', { label: t('common.seed') }, update)),
      panel(t('s7.termsTitle'), h('p', {}, rich(t('s7.termsText'))), termsBox),
      panel(t('s7.heatTitle'), h('div', { class: 'text-figure-row' }, h('div', {}, h('p', {}, rich(t('s7.heatText')))), heat.el)));
    update();
    return { el };
  },
};
