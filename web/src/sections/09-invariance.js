// 9. Shift invariance, proved on screen. The same content q, k sit at every position; RoPE
// scores (pe.scores, mode 'rotary') are constant along each diagonal, additive ones are not.
// Moving both positions by s, pe.shiftInvariance measures max|S(m+s, n+s) − S(m, n)| with
// posenc's double-precision angles and with float32 angles as common implementations form them.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, paragraphs, panel, tex, result } from '../ui/section.js';
import { boundSlider, boundSelect } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { heatmap } from '../ui/heatmap.js';
import { table } from '../ui/table.js';
import { plot } from '../ui/plot.js';
import { fixed, sci, int } from '../ui/format.js';
import { randomVectors, scores, repeatRows, shiftInvariance, supportsFloat32Angles, maxAbsOf } from '../api.js';
import { proofPanels, ladderPanel } from './proof-panels.js';

const SWEEP = [0, 10, 100, 1000, 10000, 100000, 1000000];

export default {
  num: 9,
  id: 'invariance',
  params: {
    's9.s': spec.int(0, 0, 1000000),
    's9.T': spec.int(64, 8, 256),
    's9.d': spec.int(64, 2, 256, { even: true }),
    's9.seed': spec.int(9, 0, 99999),
    's9.pm': spec.int(2, -1000, 1000),
    's9.pn': spec.int(5, -1000, 1000),
    's9.theta': spec.num(0.1, 0.001, 0.99),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const fmt = (v) => fixed(v, 2);
    const readout = (m, n, v) => t('common.scoreReadout', { m: m + state.get('s9.s'), n: n + state.get('s9.s'), delta: n - m, v: fixed(v, 4) });
    const rot = heatmap({ label: t('s9.rotLabel'), rowLabel: t('common.axisM'), colLabel: t('common.axisN'), format: fmt, readout });
    const add = heatmap({ label: t('s9.addLabel'), rowLabel: t('common.axisM'), colLabel: t('common.axisN'), format: fmt, readout });
    rot.el.dataset.testid = 'heat-rotary';
    add.el.dataset.testid = 'heat-additive';
    const devOut = h('output', { 'data-testid': 'dev-posenc' });
    const dev32Out = h('output', { 'data-testid': 'dev-float32' });
    const note = h('div');
    const sweepTable = h('div');
    const sweepPlot = plot({
      label: t('s9.plotLabel'), xLabel: t('s9.axisS'), yLabel: t('s9.axisDev'), xLog: true, yLog: true, height: 250, yRange: [1e-9, 1],
      series: [{ label: 'posenc', width: 3, points: { show: true, size: 6 } },
        { label: t('s9.float32'), width: 2, dash: [6, 4], points: { show: true, size: 6 } }],
    });
    let content = null;

    function vectors() {
      const dim = state.get('s9.d');
      const seed = state.get('s9.seed');
      content = randomVectors(pe, { seed, count: 2, dim });
      return content;
    }

    // The slider path: the RoPE matrix is recomputed and redrawn at once (this is the redraw
    // that must fit in one frame: bench/web-heatmap.mjs); the additive matrix (whose four-term
    // split costs ~10× more) and the deviation read-outs follow in the next task.
    let followTimer = 0;
    let followFrame = 0;
    function redraw() {
      const dim = state.get('s9.d');
      const T = state.get('s9.T');
      const s = state.get('s9.s');
      const [q, k] = content ?? vectors();
      const positions = Int32Array.from({ length: T }, (_, i) => i + s);
      const qs = repeatRows(q, T);
      const ks = repeatRows(k, T);
      const r = scores(pe, { q: qs, k: ks, dim, qPositions: positions, kPositions: positions, mode: 'rotary' });
      const range = `${s} … ${s + T - 1}`;
      rot.draw(r.scores, T, T, { rowRange: range, colRange: range });
      // Wait for the frame that shows the RoPE heatmap, then do the rest in a task after it.
      clearTimeout(followTimer);
      cancelAnimationFrame(followFrame);
      followFrame = requestAnimationFrame(() => { followTimer = setTimeout(follow, 0); });
      function follow() {
        const a = scores(pe, { q: qs, k: ks, dim, qPositions: positions, kPositions: positions, mode: 'additive' });
        add.draw(a.scores, T, T, { rowRange: range, colRange: range });
        measure(qs, ks, dim, s, maxAbsOf(r.scores));
      }
    }

    function measure(qs, ks, dim, s, peak) {
      const d = shiftInvariance(pe, { q: qs, k: ks, dim, shift: s, peak });
      devOut.textContent = t('s9.devValue', { abs: sci(d.maxAbs, 2), rel: sci(d.maxRel, 2) });
      if (supportsFloat32Angles(pe)) {
        const d32 = shiftInvariance(pe, { q: qs, k: ks, dim, shift: s, angles: 'float32', peak });
        dev32Out.textContent = t('s9.devValue', { abs: sci(d32.maxAbs, 2), rel: sci(d32.maxRel, 2) });
      } else {
        dev32Out.textContent = t('s9.unavailable');
      }
      devOut.dataset.shift = String(s);
    }

    function sweep() {
      const dim = state.get('s9.d');
      const T = Math.min(state.get('s9.T'), 64);
      const [q, k] = content;
      const qs = repeatRows(q, T);
      const ks = repeatRows(k, T);
      const xs = SWEEP.slice(1);
      const ours = xs.map((s) => shiftInvariance(pe, { q: qs, k: ks, dim, shift: s }).maxRel);
      const theirs = supportsFloat32Angles(pe)
        ? xs.map((s) => shiftInvariance(pe, { q: qs, k: ks, dim, shift: s, angles: 'float32' }).maxRel)
        : xs.map(() => null);
      replace(sweepTable, table({
        caption: t('s9.sweepCaption', { T, d: dim }),
        columns: ['s', 'posenc', t('s9.float32')],
        rows: xs.map((sv, i) => [int(sv), sci(ours[i], 2), theirs[i] === null ? '—' : sci(theirs[i], 2)]),
        testid: 'sweep-table',
      }));
      // A log axis cannot show an exact 0: plot it at the float32 resolution floor.
      sweepPlot.update(xs, ours.map((v) => Math.max(v, 1e-9)), theirs.map((v) => (v === null ? null : Math.max(v, 1e-9))));
      replace(note, supportsFloat32Angles(pe) ? [] : h('p', { class: 'note info', 'data-testid': 'float32-missing' }, rich(t('s9.missingFloat32'))));
    }

    const full = () => { vectors(); redraw(); sweep(); };
    const sSlider = boundSlider(ctx, 's9.s', { label: t('s9.s'), log: true, min: 0 }, redraw);
    const proof = proofPanels(ctx);
    const ladder = ladderPanel(ctx);
    const el = shell(ctx, this,
      proof.el,
      ladder.el,
      h('h3', { class: 'sub' }, t('proof.scaleTitle')),
      // The matrices' own paragraphs, right above them (not in the lead, two proofs earlier).
      paragraphs(t('s9.matricesText')),
      tex([String.raw`S_{\text{rope}}(m+s,\,n+s) = q^{\top} R\bigl((n-m)\theta\bigr)\, k = S_{\text{rope}}(m,n)`, String.raw`\text{${t('s9.forEvery')}}`]),
      controlRow(
        sSlider,
        boundSelect(ctx, 's9.T', { label: t('s9.T'), options: [[8, '8'], [16, '16'], [32, '32'], [64, '64'], [128, '128'], [256, '256']].map(([v, l]) => [String(v), l]) }, full),
        boundSlider(ctx, 's9.d', { label: t('s9.dim'), step: 2 }, full),
        boundSlider(ctx, 's9.seed', { label: t('common.seed') }, full)),
      h('div', { class: 'grid-2 heat-pair' },
        panel(t('s9.rotTitle'), rot.el),
        panel(t('s9.addTitle'), add.el)),
      panel(t('s9.devTitle'),
        h('p', {}, rich(t('s9.devText'))),
        result(t('s9.devPosenc'), devOut),
        result(t('s9.devFloat32'), dev32Out),
        note,
        h('div', { class: 'grid-2 wide-left' }, sweepPlot.el, sweepTable),
        h('p', {}, rich(t('s9.after')))));
    full();
    return { el, dispose: () => { clearTimeout(followTimer); cancelAnimationFrame(followFrame); sweepPlot.dispose(); } };
  },
};
