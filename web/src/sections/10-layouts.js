// 10. Two layouts of the same maths: interleaved pairs (x[2i], x[2i+1]) and half pairs
// (x[i], x[i+d/2]). The page only re-orders elements (no arithmetic); the package rotates
// and scores both, and the scores agree.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider, boundChoice } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { LINES } from '../ui/palette.js';
import { randomVectors, rotateVector, scores } from '../api.js';
import { codePanels } from './code-bridge.js';

/** Where element j of an interleaved vector goes in the half layout (pair i keeps its θ_i). */
function toHalfIndex(j, dim) { return j % 2 === 0 ? j / 2 : (j - 1) / 2 + dim / 2; }

export default {
  num: 10,
  id: 'layouts',
  params: {
    's10.d': spec.int(8, 2, 16, { even: true }),
    's10.p': spec.int(7, -100000, 100000),
    's10.view': spec.enumOf('interleaved', ['interleaved', 'half']),
    's10.m': spec.int(3, 0, 100),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const pairBox = h('div');
    const mapBox = h('div');
    const rotBox = h('div');
    const eqOut = h('output', { 'data-testid': 'layout-diff' });

    function update() {
      const dim = state.get('s10.d');
      const p = state.get('s10.p');
      const view = state.get('s10.view');
      replace(pairBox, pairDiagram(dim, view, t));
      const perm = [...Array(dim).keys()].map((j) => toHalfIndex(j, dim));
      replace(mapBox, table({
        caption: t('s10.mapCaption'),
        columns: [t('s10.colInter'), t('s10.colHalf'), t('s10.colPair')],
        rows: perm.map((hj, j) => [String(j), String(hj), `i = ${Math.floor(j / 2)} (${j % 2 === 0 ? t('s10.first') : t('s10.second')})`]),
        testid: 'layout-map',
      }));
      const [x, y] = randomVectors(pe, { seed: 10, count: 2, dim });
      const xHalf = new Float32Array(dim);
      const yHalf = new Float32Array(dim);
      perm.forEach((hj, j) => { xHalf[hj] = x[j]; yHalf[hj] = y[j]; });
      const ri = rotateVector(pe, { v: x, position: p, layout: 'interleaved' });
      const rh = rotateVector(pe, { v: xHalf, position: p, layout: 'half' });
      replace(rotBox, table({
        caption: t('s10.rotCaption', { p }),
        columns: ['j', 'x', `${t('common.interleaved')}: R·x`, t('s10.colHalfIdx'), `${t('common.half')}: R·x`],
        rows: perm.map((hj, j) => [String(j), fixed(x[j], 4), fixed(ri[j], 5), String(hj), fixed(rh[hj], 5)]),
        testid: 'layout-rot', reflow: true,
      }));
      const positions = [p];
      const si = scores(pe, { q: x, k: y, dim, qPositions: positions, kPositions: [p + 3], mode: 'rotary', layout: 'interleaved' });
      const sh = scores(pe, { q: xHalf, k: yHalf, dim, qPositions: positions, kPositions: [p + 3], mode: 'rotary', layout: 'half' });
      const [a, b] = [fixed(si.scores[0], 6), fixed(sh.scores[0], 6)];
      eqOut.textContent = si.scores[0] === sh.scores[0] ? t('s10.scoresSame', { a, b })
        : t('s10.scoresValue', { a, b, same: sci(Math.abs(si.scores[0] - sh.scores[0]), 1) });
    }

    const el = shell(ctx, this,
      tex([String.raw`\text{interleaved: } (x_{2i},\, x_{2i+1})`, String.raw`\text{half: } (x_i,\, x_{i+d/2})`, String.raw`i = 0,\dots,\tfrac d2-1`]),
      controlRow(
        boundSlider(ctx, 's10.d', { label: t('s10.dim'), step: 2 }, update),
        boundSlider(ctx, 's10.p', { label: t('s10.p'), min: 0, max: 1000 }, update),
        boundChoice(ctx, 's10.view', { label: t('s10.show'),
          options: [['interleaved', t('common.interleaved')], ['half', t('common.half')]] }, update)),
      panel(t('s10.pairTitle'), pairBox),
      h('div', { class: 'grid-2' },
        panel(t('s10.mapTitle'), mapBox),
        panel(t('s10.rotTitle'), rotBox, result(t('s10.scores'), eqOut))),
      h('p', {}, rich(t('s10.after'))),
      codePanels(ctx).el);
    update();
    return { el };
  },
};

/** Boxes for the d elements, with arcs joining the two members of each rotated pair. */
function pairDiagram(dim, view, t) {
  const NS = 'http://www.w3.org/2000/svg';
  const w = 44; const gap = 6; const W = dim * (w + gap); const H = 110;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'pair-diagram');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t(view === 'half' ? 's10.diagHalf' : 's10.diagInter', { d: dim }));
  const pairOf = (j) => (view === 'half' ? j % (dim / 2) : Math.floor(j / 2));
  for (let j = 0; j < dim; j++) {
    const x = j * (w + gap);
    const rect = document.createElementNS(NS, 'rect');
    Object.entries({ x, y: 60, width: w, height: 36, rx: 6, fill: LINES[pairOf(j) % LINES.length], class: 'cell' })
      .forEach(([k, v]) => rect.setAttribute(k, String(v)));
    const label = document.createElementNS(NS, 'text');
    Object.entries({ x: x + w / 2, y: 84, class: 'cell-label' }).forEach(([k, v]) => label.setAttribute(k, String(v)));
    label.textContent = `x${j}`;
    svg.append(rect, label);
  }
  for (let i = 0; i < dim / 2; i++) {
    const [a, b] = view === 'half' ? [i, i + dim / 2] : [2 * i, 2 * i + 1];
    const xa = a * (w + gap) + w / 2; const xb = b * (w + gap) + w / 2;
    const lift = Math.min(55, 14 + (xb - xa) / 6);
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', `M ${xa} 58 C ${xa} ${58 - lift}, ${xb} ${58 - lift}, ${xb} 58`);
    path.setAttribute('stroke', LINES[i % LINES.length]);
    path.setAttribute('class', 'arc');
    svg.append(path);
  }
  return h('figure', { class: 'diagram' }, svg,
    h('figcaption', {}, t(view === 'half' ? 's10.diagHalf' : 's10.diagInter', { d: dim })));
}
