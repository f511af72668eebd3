// Part of section 8: every pair of q and k at once, each as a dial whose two hands turn at
// that pair's speed θᵢ as the positions move, with the pair's share of q·k beside it
// (api.js allPairs: pe.rope for the hands, pe.scores for the shares and the total).
import { h, replace } from '../ui/dom.js';
import { panel, result } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { fixed, sig } from '../ui/format.js';
import { LINES } from '../ui/palette.js';
import { allPairs, randomVectors } from '../api.js';

const NS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** One dial: the unit circle, q's hand and k's hand (scaled to the larger pair norm). */
function dial(qx, qy, kx, ky, scale) {
  const svg = svgEl('svg', { viewBox: '-1.15 -1.15 2.3 2.3', class: 'dial', 'aria-hidden': 'true' });
  svg.append(svgEl('circle', { r: 1, class: 'dial-rim' }),
    svgEl('line', { x1: 0, y1: 0, x2: qx / scale, y2: -qy / scale, stroke: LINES[0], class: 'dial-hand' }),
    svgEl('line', { x1: 0, y1: 0, x2: kx / scale, y2: -ky / scale, stroke: LINES[1], class: 'dial-hand' }));
  return svg;
}

/** Mounts the phasor panel; `update()` redraws from s8.m, s8.n, s8.d. Returns { el, update, dispose }. */
export function phasors(ctx, onPositions) {
  const { pe, t, state } = ctx;
  const grid = h('div', { class: 'dials', 'data-testid': 'phasor-dials' });
  const sumOut = h('output', { 'data-testid': 'phasor-sum' });
  const scoreOut = h('output', { 'data-testid': 'phasor-score' });
  let timer = 0;

  function update() {
    const dim = state.get('s8.d');
    const m = state.get('s8.m');
    const n = state.get('s8.n');
    const [q, k] = randomVectors(pe, { seed: 8, count: 2, dim });
    const r = allPairs(pe, { q, k, dim, m, n });
    let peak = 0;
    for (let i = 0; i < dim / 2; i++) peak = Math.max(peak, Math.hypot(q[2 * i], q[2 * i + 1]) * Math.hypot(k[2 * i], k[2 * i + 1]));
    let sum = 0;
    replace(grid, Array.from(r.contrib, (c, i) => {
      sum += c;
      const scale = Math.max(Math.hypot(r.rq[2 * i], r.rq[2 * i + 1]), Math.hypot(r.rk[2 * i], r.rk[2 * i + 1]), 1e-9);
      const bar = h('span', { class: ['dial-bar', c < 0 ? 'neg' : 'pos'] });
      bar.style.setProperty('--w', String(Math.min(1, Math.abs(c) / (peak || 1))));
      return h('figure', { class: 'dial-box', 'data-pair': i },
        dial(r.rq[2 * i], r.rq[2 * i + 1], r.rk[2 * i], r.rk[2 * i + 1], scale),
        h('figcaption', {}, h('span', { class: 'dial-name' }, `i = ${i}`), ' ', `θ = ${sig(r.theta[i], 3)}`,
          h('span', { class: 'dial-track' }, bar),
          h('output', { class: 'dial-value' }, fixed(c, 4))));
    }));
    sumOut.textContent = fixed(sum, 5);
    scoreOut.textContent = fixed(r.score, 5);
  }

  // Play: both positions advance one step per tick (or n alone): the hands turn, and with
  // both moving every pair's share stays where it was.
  const step = (both) => {
    const m = state.get('s8.m');
    const n = state.get('s8.n');
    const next = (v) => (v >= 200 ? -200 : v + 1);
    if (both) state.set('s8.m', next(m));
    state.set('s8.n', next(n));
    onPositions();
  };
  const playBtn = (label, both, id) => button(label, () => {
    const stop = () => { clearInterval(timer); timer = 0; for (const b of [bothBtn, nBtn]) b.setAttribute('aria-pressed', 'false'); };
    const was = timer && playBtn.current === id;
    stop();
    if (was) return;
    playBtn.current = id;
    (both ? bothBtn : nBtn).setAttribute('aria-pressed', 'true');
    timer = setInterval(() => step(both), 450);
  }, { 'aria-pressed': 'false', 'data-testid': `phasor-play-${id}`, class: 'btn small' });
  const bothBtn = playBtn(t('phasor.playBoth'), true, 'both');
  const nBtn = playBtn(t('phasor.playN'), false, 'n');
  const dSlider = boundSlider(ctx, 's8.d', { label: t('phasor.d'), step: 2 }, update);

  const el = panel(t('phasor.title'),
    h('p', {}, rich(t('phasor.text'))),
    controlRow(dSlider, bothBtn, nBtn),
    h('p', { class: 'hint' }, rich(t('phasor.legend'))),
    grid,
    result(t('phasor.sum'), sumOut),
    result(t('phasor.score'), scoreOut),
    h('p', { class: 'hint' }, rich(t('phasor.after'))));
  return { el, update, dispose: () => clearInterval(timer) };
}
