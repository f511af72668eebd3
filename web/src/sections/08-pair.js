// 8. RoPE, one pair at a time. q and k are draggable 2-D vectors; the package rotates them
// (a rotator with one pair, θ set through linear scaling) and splits the score with
// pe.relativeKernel into its dot and signed-area parts.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { fixed } from '../ui/format.js';
import { LINES } from '../ui/palette.js';
import { rotatePair, pairKernel, pairScores } from '../api.js';
import { outer } from '../api-proof.js';
import { button } from '../ui/controls.js';
import { codeBlock } from './code.js';
import { phasors } from './phasors.js';

const NS = 'http://www.w3.org/2000/svg';
const R = 1.6;  // half-width of the drawing in vector units

function svgEl(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export default {
  num: 8,
  id: 'pair',
  params: {
    's8.m': spec.int(2, -1000, 1000),
    's8.n': spec.int(5, -1000, 1000),
    's8.theta': spec.num(0.1, 0.001, 0.99),
    's8.q': spec.intList([100, 0], -150, 150, 2, 2),   // exactly two, in hundredths (exact in the hash)
    's8.k': spec.intList([0, 100], -150, 150, 2, 2),
    's8.d': spec.int(16, 4, 64, { even: true }),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const svg = svgEl('svg', { viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, class: 'pair-svg', role: 'group',
      'aria-label': t('s8.svgLabel') });
    const scoreOut = h('output', { 'data-testid': 'pair-score' });
    const splitOut = h('output', { 'data-testid': 'pair-split' });
    const angleOut = h('output', { 'data-testid': 'pair-angle' });
    const rotOut = h('output', { 'data-testid': 'pair-rotated' });
    const handOut = h('output', { 'data-testid': 'pair-hand' });
    const checkBox = h('div');
    const vec = (key) => state.get(key).map((v) => v / 100);

    // Static parts: grid circle and axes.
    svg.append(svgEl('circle', { r: 1, class: 'unit-circle' }),
      svgEl('line', { x1: -R, y1: 0, x2: R, y2: 0, class: 'axis' }),
      svgEl('line', { x1: 0, y1: -R, x2: 0, y2: R, class: 'axis' }));
    const layer = svgEl('g', {});
    const handles = svgEl('g', {});
    svg.append(layer, handles);

    function arrow(x, y, color, cls) {
      const g = svgEl('g', { class: cls });
      g.append(svgEl('line', { x1: 0, y1: 0, x2: x, y2: -y, stroke: color, class: 'vec-line' }));
      return g;
    }

    // The handles are made once and only moved, so focus and pointer capture survive updates.
    function handle(key, color, label) {
      const c = svgEl('circle', { r: 0.09, fill: color, class: 'handle', tabindex: 0, role: 'button',
        'aria-roledescription': t('s8.handleRole'), 'aria-label': label, 'data-handle': key });
      const move = (nx, ny) => {
        const clampv = (v) => Math.max(-150, Math.min(150, Math.round(v * 100)));  // hundredths
        state.set(key, [clampv(nx), clampv(ny)]);
        update();
      };
      c.addEventListener('pointerdown', (e) => {
        c.setPointerCapture(e.pointerId);
        const onMove = (ev) => {
          const pt = svg.createSVGPoint();
          pt.x = ev.clientX; pt.y = ev.clientY;
          const local = pt.matrixTransform(svg.getScreenCTM().inverse());
          move(local.x, -local.y);
        };
        const onUp = () => { c.removeEventListener('pointermove', onMove); c.removeEventListener('pointerup', onUp); };
        c.addEventListener('pointermove', onMove);
        c.addEventListener('pointerup', onUp);
      });
      c.addEventListener('keydown', (e) => {
        const d = { ArrowLeft: [-0.05, 0], ArrowRight: [0.05, 0], ArrowUp: [0, 0.05], ArrowDown: [0, -0.05] }[e.key];
        if (!d) return;
        e.preventDefault();
        const [x0, y0] = vec(key);
        move(x0 + d[0], y0 + d[1]);
      });
      return c;
    }

    function placeHandle(c, [x, y]) {
      c.setAttribute('cx', String(x));
      c.setAttribute('cy', String(-y));
      c.setAttribute('aria-description', `(${fixed(x, 2)}, ${fixed(y, 2)})`);
    }
    const qHandle = handle('s8.q', LINES[0], t('s8.dragQ'));
    const kHandle = handle('s8.k', LINES[1], t('s8.dragK'));
    handles.append(qHandle, kHandle);

    function update() {
      const m = state.get('s8.m');
      const n = state.get('s8.n');
      const theta = state.get('s8.theta');
      const q = vec('s8.q');
      const k = vec('s8.k');
      const qr = rotatePair(pe, { v: q, position: m, theta });
      const kr = rotatePair(pe, { v: k, position: n, theta });
      layer.replaceChildren(
        area(qr, kr), angleArc(qr, kr),
        arrow(q[0], q[1], LINES[0], 'vec faded'), arrow(k[0], k[1], LINES[1], 'vec faded'),
        arrow(qr[0], qr[1], LINES[0], 'vec'), arrow(kr[0], kr[1], LINES[1], 'vec'),
        label(qr, `R(mθ)q`, LINES[0]), label(kr, `R(nθ)k`, LINES[1]));
      placeHandle(qHandle, q);
      placeHandle(kHandle, k);
      const kern = pairKernel(pe, { q, k, m, n, theta });
      rotOut.textContent = `R(${m}θ)q = (${fixed(qr[0], 5)}, ${fixed(qr[1], 5)}),  R(${n}θ)k = (${fixed(kr[0], 5)}, ${fixed(kr[1], 5)})`;
      // The two products of the hand check, each computed by the package (pe.scores, dim 1).
      const prod = outer(pe, qr, kr);
      const paren = (v) => (v < 0 ? `(${fixed(v, 5)})` : fixed(v, 5));
      const plus = (v) => (v < 0 ? `− ${fixed(-v, 5)}` : `+ ${fixed(v, 5)}`);
      handOut.textContent = `${fixed(qr[0], 5)} × ${paren(kr[0])} + ${fixed(qr[1], 5)} × ${paren(kr[1])} = ${fixed(prod[0], 5)} ${plus(prod[3])} = ${fixed(kern.score, 5)}`;
      scoreOut.textContent = fixed(kern.score, 5);
      splitOut.textContent = t('s8.splitValue', { dot: fixed(kern.dotTerm, 5),
        area: kern.areaTerm < 0 ? `− ${fixed(-kern.areaTerm, 5)}` : `+ ${fixed(kern.areaTerm, 5)}`, score: fixed(kern.score, 5) });
      angleOut.textContent = t('s8.angleValue', { delta: n - m, cos: fixed(kern.cos, 5), sin: fixed(kern.sin, 5) });
      const shifts = [0, 3, -m, 95];
      const pairs = shifts.map((s) => [m + s, n + s]);
      const vals = pairScores(pe, { q, k, pairs, theta });
      replace(checkBox, table({
        caption: t('s8.checkCaption', { q: `(${fixed(q[0], 2)}, ${fixed(q[1], 2)})`, k: `(${fixed(k[0], 2)}, ${fixed(k[1], 2)})`, theta }),
        columns: ['(m, n)', 'n − m', t('s8.colScore')],
        rows: pairs.map(([a, b], i) => [`(${a}, ${b})`, String(b - a), fixed(vals[i], 5)]),
        testid: 'pair-check',
      }));
      all.update();
    }

    // The parallelogram spanned by R(mθ)q and R(nθ)k: its signed area is the sin δθ term's factor.
    function area(a, b) {
      const pts = [[0, 0], a, [a[0] + b[0], a[1] + b[1]], b].map(([x, y]) => `${x},${-y}`).join(' ');
      return svgEl('polygon', { points: pts, class: 'pair-area' });
    }

    // The angle from R(mθ)q to R(nθ)k (drawn on a circle of radius 0.35), labelled δθ.
    function angleArc(a, b) {
      const g = svgEl('g', { class: 'pair-arc' });
      const a0 = Math.atan2(a[1], a[0]);
      let d = Math.atan2(b[1], b[0]) - a0;
      d = Math.atan2(Math.sin(d), Math.cos(d));
      const r = 0.35;
      const end = a0 + d;
      g.append(svgEl('path', { d: `M ${r * Math.cos(a0)} ${-r * Math.sin(a0)} A ${r} ${r} 0 0 ${d > 0 ? 0 : 1} ${r * Math.cos(end)} ${-r * Math.sin(end)}` }));
      const mid = a0 + d / 2;
      const text = svgEl('text', { x: 0.5 * Math.cos(mid), y: -0.5 * Math.sin(mid) + 0.04, class: 'vec-label arc-label', 'text-anchor': 'middle' });
      text.textContent = 'δθ';
      g.append(text);
      return g;
    }

    function label([x, y], text, color) {
      // Labels sit beyond the arrow tip, on the side away from the centre.
      const el = svgEl('text', { x: x * 1.1 + (x < 0 ? -0.04 : 0.04), y: -y * 1.1 + 0.04, fill: color, class: 'vec-label',
        'text-anchor': x < 0 ? 'end' : 'start' });
      el.textContent = text;
      return el;
    }

    const sliders = [
      boundSlider(ctx, 's8.m', { label: t('s8.m'), min: -200, max: 200 }, update),
      boundSlider(ctx, 's8.n', { label: t('s8.n'), min: -200, max: 200 }, update),
      boundSlider(ctx, 's8.theta', { label: 'θ', step: 0.001 }, update)];
    const all = phasors(ctx, () => {
      sliders[0].set(state.get('s8.m'));
      sliders[1].set(state.get('s8.n'));
      update();
    });
    const preset = (m, n) => () => {
      state.set('s8.m', m); state.set('s8.n', n); state.set('s8.theta', 0.1);
      state.set('s8.q', [100, 0]); state.set('s8.k', [0, 100]);
      sliders[0].set(m); sliders[1].set(n); sliders[2].set(0.1);
      update();
    };
    const el = shell(ctx, this,
      tex([String.raw`\langle R(m\theta)q,\; R(n\theta)k\rangle`, String.raw`= (q_1k_1 + q_2k_2)\cos\delta\theta + (q_2k_1 - q_1k_2)\sin\delta\theta,`, String.raw`\delta = n - m`]),
      controlRow(...sliders),
      h('div', { class: 'controls' },
        button(t('s8.preset25'), preset(2, 5), { 'data-preset': 'article', 'data-testid': 'pair-preset-25' }),
        button(t('s8.preset58'), preset(5, 8), { 'data-preset': 'article-58', class: 'btn preset', 'data-testid': 'pair-preset-58' })),
      h('div', { class: 'grid-2' },
        h('div', { class: 'panel sticky-figure' }, h('h3', {}, t('s8.drawTitle')), h('p', { class: 'hint' }, rich(t('s8.dragHint'))),
          h('div', { class: 'pair-box' }, svg)),
        panel(t('s8.scoreTitle'),
          result(t('s8.score'), scoreOut),
          result(t('s8.angle'), angleOut),
          result(t('s8.split'), splitOut),
          result(t('s8.rotated'), rotOut),
          result(t('s8.hand'), handOut),
          h('p', {}, rich(t('s8.mix'))),
          h('p', {}, rich(t('s8.checkText'))),
          checkBox,
          codeBlock(t('s8.codeTitle'), t('s8.code')))),
      all.el);
    update();
    return { el, dispose: all.dispose };
  },
};
