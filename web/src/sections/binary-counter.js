// Part of section 3: article 001's "continuous binary counter", live. Bit j of a position p
// flips every 2^j positions; beside it rung j of the ladder with base 2^(d/2) (d = 14), whose
// θ_j = 2^(−j) halves from rung to rung as the bits' rates do. The sine values are a
// pe.sinusoidal table over p = 0 … 127; the bits are the position written in base two.
import { h } from '../ui/dom.js';
import { panel } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { fixed32, sig } from '../ui/format.js';
import { LINES } from '../ui/palette.js';

const BITS = 7;
const SPAN = 128;           // positions 0 … 127: seven bits
const DIM = 2 * BITS;       // one (sin, cos) pair per bit
const BASE = 2 ** BITS;     // θ_j = BASE^(−2j/DIM) = 2^(−j)
const W = 256;              // drawing units across the 128 positions
const ROW = 26;             // drawing units per rung

const NS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function binaryCounter(ctx) {
  const { pe, t, state } = ctx;
  const table = pe.sinusoidal({ dim: DIM, base: BASE, positions: SPAN });
  const { invFreq } = pe.inverseFrequencies({ dim: DIM, base: BASE });
  const x = (p) => (p + 0.5) * (W / SPAN);
  const svg = svgEl('svg', { viewBox: `-4 -4 ${W + 8} ${BITS * ROW + 8}`, class: 'counter-svg', role: 'img',
    'aria-label': t('counter.svgLabel') });
  for (let j = 0; j < BITS; j++) {
    const top = j * ROW;
    const mid = top + ROW / 2 - 2;
    const amp = ROW / 2 - 4;
    // The bit as a step trace (1 up, 0 down); the sine of the same rung as a curve.
    let bit = '';
    let wave = '';
    for (let p = 0; p < SPAN; p++) {
      const y = mid - ((p >> j) & 1 ? amp : -amp);
      bit += `${p ? 'L' : 'M'}${p * (W / SPAN)} ${y} L${(p + 1) * (W / SPAN)} ${y} `;
      wave += `${p ? 'L' : 'M'}${x(p)} ${mid - amp * table[p * DIM + 2 * j]} `;
    }
    svg.append(svgEl('line', { x1: 0, y1: mid, x2: W, y2: mid, class: 'counter-axis' }),
      svgEl('path', { d: bit, class: 'counter-bit', stroke: LINES[0] }),
      svgEl('path', { d: wave, class: 'counter-wave', stroke: LINES[1] }));
  }
  const cursor = svgEl('line', { y1: -4, y2: BITS * ROW + 4, class: 'counter-cursor' });
  svg.append(cursor);
  const rows = h('div', { class: 'counter-rows', 'data-testid': 'counter-rows' });
  const binOut = h('output', { class: 'big-number', 'data-testid': 'counter-binary' });
  let timer = 0;

  function draw() {
    const p = state.get('s3.bp');
    cursor.setAttribute('x1', String(x(p)));
    cursor.setAttribute('x2', String(x(p)));
    binOut.textContent = `p = ${p} = ${p.toString(2).padStart(BITS, '0')}₂`;
    rows.replaceChildren(...Array.from({ length: BITS }, (_, j) => h('p', { class: 'counter-row', 'data-bit': j },
      h('span', { class: ['counter-digit', (p >> j) & 1 ? 'on' : ''] }, String((p >> j) & 1)),
      ` j = ${j}: ${t('counter.flips', { n: 2 ** j })}; θ = ${sig(invFreq[j], 3)}, sin pθ = ${fixed32(table[p * DIM + 2 * j], 3)}`)));
  }

  const pSlider = boundSlider(ctx, 's3.bp', { label: t('counter.p') }, draw);
  const play = button(t('s3.play'), () => {
    if (timer) { clearInterval(timer); timer = 0; } else {
      timer = setInterval(() => {
        const next = (state.get('s3.bp') + 1) % SPAN;
        state.set('s3.bp', next);
        pSlider.set(next);
        draw();
      }, 300);
    }
    play.textContent = timer ? t('s3.pause') : t('s3.play');
    play.setAttribute('aria-pressed', String(!!timer));
  }, { 'aria-pressed': 'false', 'data-testid': 'counter-play' });
  draw();
  return {
    el: panel(t('counter.title'), h('p', {}, rich(t('counter.text'))), controlRow(pSlider, play, binOut),
      h('div', { class: 'counter-figure' }, svg, rows),
      h('p', { class: 'hint' }, rich(t('counter.legend'))),
      h('p', {}, rich(t('counter.after')))),
    dispose: () => clearInterval(timer),
  };
}
