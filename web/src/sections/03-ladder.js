// 3. The frequency ladder: θ_i = b^(−2i/d) (angular velocity, 각속도) and λ_i = 2π/θ_i from
// pe.inverseFrequencies and pe.wavelengths; clock hands whose angles come from a pe.sinusoidal
// row (the fastest and the slowest pairs); the odometer as two PE rows side by side.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider, presetButton } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { plot } from '../ui/plot.js';
import { compact, fixed, fixed32, int, piMultiple } from '../ui/format.js';
import { codeBlock } from '../ui/vectors.js';
import { LINES } from '../ui/palette.js';
import { binaryCounter } from './binary-counter.js';

const HANDS = 4;      // clock faces drawn: the two fastest and the two slowest pairs
const MAX_ROWS = 10;  // ladder rows shown before eliding the middle

export default {
  num: 3,
  id: 'ladder',
  params: {
    's3.d': spec.int(8, 2, 1024, { even: true }),
    's3.b': spec.num(10000, 2, 1e7),
    's3.p': spec.int(10, 0, 10000),
    's3.oa': spec.int(12, 0, 100000),
    's3.ob': spec.int(56, 0, 100000),
    's3.bp': spec.int(37, 0, 127),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const tableBox = h('div', { class: 'ladder-table' });
    const lambdaPlot = plot({
      label: t('s3.plotLabel'), xLabel: t('s3.axisI'), yLabel: t('s3.axisLambda'), yLog: true, height: 240, xInt: true,
      series: [{ label: 'λᵢ', points: { show: true, size: 5 } }],
    });
    const clocks = h('div', { class: 'clocks' });
    const posOut = h('output', { class: 'big-number', 'data-testid': 'clock-p' });
    const hintOut = h('p', { class: 'hint' });
    const rangeOut = h('p', { 'data-testid': 'ladder-range' });
    const odoBox = h('div');

    // Two positions the fastest pair barely tells apart, read pair by pair (the odometer).
    function updateOdometer() {
      const dim = state.get('s3.d');
      const base = state.get('s3.b');
      const a = state.get('s3.oa');
      const b = state.get('s3.ob');
      const rows = pe.sinusoidal({ dim, base, positions: [a, b] });
      const half = dim / 2;
      const pairs = half <= MAX_ROWS ? [...Array(half).keys()] : [...Array(MAX_ROWS).keys()];
      replace(odoBox, table({
        caption: t('s3.odoCaption', { a, b, d: dim }),
        columns: [t('s3.axisI'), `PE(${a}): sin, cos`, `PE(${b}): sin, cos`],
        rows: pairs.map((i) => [String(i),
          `${fixed32(rows[2 * i], 4)}, ${fixed32(rows[2 * i + 1], 4)}`,
          `${fixed32(rows[dim + 2 * i], 4)}, ${fixed32(rows[dim + 2 * i + 1], 4)}`]),
        testid: 'odometer',
      }));
    }
    let playing = false;
    let raf = 0;

    function update() {
      const dim = state.get('s3.d');
      const base = state.get('s3.b');
      const { invFreq } = pe.inverseFrequencies({ dim, base });
      const lambda = pe.wavelengths({ dim, base });
      const n = invFreq.length;
      const idx = n <= MAX_ROWS ? [...Array(n).keys()]
        : [...Array(MAX_ROWS - 2).keys(), -1, n - 2, n - 1];
      const rows = idx.map((i) => (i < 0 ? ['…', '…', '…', '…'] : [String(i), compact(invFreq[i], 4), piMultiple(lambda[i]), compact(lambda[i], 5)]));
      replace(tableBox, table({
        caption: t('s3.tableCaption', { d: dim, b: int(base) }),
        columns: ['i', t('s3.colTheta'), t('s3.colPi'), t('s3.colLambda')], rows, testid: 'ladder-table',
      }));
      rangeOut.replaceChildren(...rich(t('s3.range', { first: compact(lambda[0], 4), last: compact(lambda[n - 1], 4),
        lastPi: piMultiple(lambda[n - 1]), i: n - 1 })));
      updateOdometer();
      lambdaPlot.update([...Array(n).keys()], lambda);
      drawClocks();
    }

    function drawClocks() {
      const dim = state.get('s3.d');
      const base = state.get('s3.b');
      const p = state.get('s3.p');
      // One row of the sinusoidal table: pair i is (sin pθ_i, cos pθ_i), i.e. the hand's position.
      const row = pe.sinusoidal({ dim, base, positions: [p] });
      const lambda = pe.wavelengths({ dim, base });
      posOut.textContent = `p = ${int(p)}`;
      const half = dim / 2;
      const pairs = half <= HANDS ? [...Array(half).keys()] : [0, 1, half - 2, half - 1];
      const faces = pairs.map((i, k) => clockFace(row[2 * i], row[2 * i + 1], i, lambda[i],
        LINES[k % LINES.length], t, t(handName(i, half))));
      replace(clocks, faces);
      const { invFreq } = pe.inverseFrequencies({ dim, base });
      hintOut.replaceChildren(...rich(t('s3.clockHint', { last: half - 1, theta: compact(invFreq[half - 1], 3),
        turn: compact(lambda[half - 1], 4) })));
    }

    const pSlider = boundSlider(ctx, 's3.p', { label: t('s3.position') }, drawClocks);
    function tick() {
      if (!playing) return;
      const next = (state.get('s3.p') + 1) % 10001;
      state.set('s3.p', next);
      pSlider.set(next);
      drawClocks();
      raf = setTimeout(() => requestAnimationFrame(tick), 120);
    }
    const play = button(t('s3.play'), () => {
      playing = !playing;
      play.textContent = playing ? t('s3.pause') : t('s3.play');
      play.setAttribute('aria-pressed', String(playing));
      if (playing) tick();
    }, { 'aria-pressed': 'false', 'data-testid': 'clock-play' });

    const dSlider = boundSlider(ctx, 's3.d', { label: t('s3.dim'), step: 2 }, update);
    const bSlider = boundSlider(ctx, 's3.b', { label: t('s3.base'), log: true, integer: false }, update);
    const presetTo = (label, dim, which) => presetButton(ctx, label, [['s3.d', dim, dSlider], ['s3.b', 10000, bSlider]], update, which);
    const counter = binaryCounter(ctx);
    const el = shell(ctx, this,
      tex([String.raw`\theta_i = b^{-2i/d},\quad i = 0,\dots,\tfrac d2 - 1`, String.raw`\lambda_i = \dfrac{2\pi}{\theta_i} = 2\pi\, b^{2i/d}`]),
      controlRow(dSlider, bSlider,
        presetTo(t('s3.preset000'), 8, 'article'),
        presetTo(t('s3.preset001'), 4, 'article-001')),
      h('div', { class: 'grid-2' },
        panel(t('s3.tableTitle'), tableBox, rangeOut),
        panel(t('s3.plotTitle'), lambdaPlot.el)),
      panel(t('s3.clockTitle'),
        hintOut,
        controlRow(pSlider, play, posOut),
        clocks),
      counter.el,
      panel(t('s3.odoTitle'),
        h('p', {}, rich(t('s3.odoText'))),
        controlRow(boundSlider(ctx, 's3.oa', { label: t('s3.odoA') }, updateOdometer),
          boundSlider(ctx, 's3.ob', { label: t('s3.odoB') }, updateOdometer)),
        odoBox),
      panel(t('s3.codeTitle'), h('p', {}, rich(t('s3.codeText'))), codeBlock(t('s3.codeSrc'), { label: t('s3.codeLabel') })),
      h('p', {}, rich(t('s3.after'))));
    update();
    return { el, dispose() { playing = false; clearTimeout(raf); lambdaPlot.dispose(); counter.dispose(); } };
  },
};

/** One clock: a circle, the hand at (cos, sin) of pθ_i as read from the PE row, its label. */
function clockFace(sinV, cosV, i, lambda, color, t, name) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '-1.2 -1.2 2.4 2.4');
  svg.setAttribute('class', 'clock');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('s3.clockAria', { i, sin: fixed(sinV, 3), cos: fixed(cosV, 3) }));
  const circle = document.createElementNS(NS, 'circle');
  circle.setAttribute('r', '1');
  circle.setAttribute('class', 'clock-rim');
  const hand = document.createElementNS(NS, 'line');
  hand.setAttribute('x1', '0'); hand.setAttribute('y1', '0');
  // Screen y grows downwards; the hand points at (cos, sin) in the usual maths orientation.
  hand.setAttribute('x2', String(cosV)); hand.setAttribute('y2', String(-sinV));
  hand.setAttribute('stroke', color);
  hand.setAttribute('class', 'clock-hand');
  const hub = document.createElementNS(NS, 'circle');
  hub.setAttribute('r', '0.06'); hub.setAttribute('fill', color);
  svg.append(circle, hand, hub);
  return h('figure', { class: 'clock-face' }, svg,
    h('figcaption', {}, h('strong', {}, `i = ${i}`), ` · ${name}`, h('br'), `λ ≈ ${compact(lambda, 3)}`, h('br'),
      `sin ${fixed(sinV, 3)}`, h('br'), `cos ${fixed(cosV, 3)}`));
}

/** The name of pair i of `half` pairs: the fastest is the second hand, the slowest the hour hand. */
function handName(i, half) {
  if (i === 0) return 's3.handSecond';
  if (i === half - 1) return 's3.handHour';
  return i === 1 ? 's3.handMinute' : 's3.handSlower';
}

