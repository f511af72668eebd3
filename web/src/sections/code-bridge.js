// Section 10's bridge from the matrix to code: x·cos + rotate_half(x)·sin element by element,
// the m·θᵢ angle table (torch.outer), the duplicated cos/sin rows [θ₁, θ₁, θ₂, θ₂, …], 003's
// check 1 (one pair by hand vs the whole function), and the two functions both called
// rotate_half. cos/sin, angles and rotations are package results; rotate_half itself is a
// re-ordering with a sign, shown as the article's code builds it.
import { h, replace } from '../ui/dom.js';
import { panel, tex, result } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { button, controlRow } from '../ui/controls.js';
import { boundSlider } from '../ui/bind.js';
import { rotateVector, maxGap } from '../api.js';
import { cosSinRow, outer, rotateBoth } from '../api-proof.js';
import { vectorInput } from './vector-input.js';
import { codeBlock } from './code.js';
import draws from '../data/draws.json';

const ARTICLE_X = draws.article_003.x;
const neg = (v) => (v === 0 ? 0 : -v);  // a sign flip, as rotate_half writes it

/** The article's rotate_half (interleaved pairs): [−x1, x0, −x3, x2, …]. */
function rotateHalfInterleaved(x) {
  return x.map((_, j) => (j % 2 === 0 ? neg(x[j + 1]) : x[j - 1]));
}

/** Hugging Face's rotate_half (front/back halves): [−x_{d/2} … −x_{d−1}, x_0 … x_{d/2−1}]. */
function rotateHalfHalves(x) {
  const d2 = x.length / 2;
  return x.map((_, j) => (j < d2 ? neg(x[j + d2]) : x[j - d2]));
}

export function codePanels(ctx) {
  const { pe, t, state } = ctx;
  let x = ARTICLE_X.slice();
  const formBox = h('div');
  const angleBox = h('div');
  const checkOut = h('div', { 'data-testid': 'check1' });
  const warnBox = h('div');
  const xIn = vectorInput({ label: t('code.x'), value: x, length: () => 8, testid: 'code-x',
    invalidText: () => t('proof.badVector', { d: 8 }), onChange: (v) => { x = v; update(); } });
  const mSlider = boundSlider(ctx, 's10.m', { label: t('code.m'), min: 0, max: 100 }, () => update());

  function update() {
    const m = state.get('s10.m');
    const dim = x.length;
    const { cos, sin, invFreq } = cosSinRow(pe, { dim, position: m });
    // [θ₁, θ₂, …] → [θ₁, θ₁, θ₂, θ₂, …]: each pair's cos/sin serves both of its elements.
    const cosPos = x.map((_, j) => cos[j >> 1]);
    const sinPos = x.map((_, j) => sin[j >> 1]);
    const rh = rotateHalfInterleaved(x);
    const { interleaved, half } = rotateBoth(pe, { x, position: m });
    replace(formBox, table({
      caption: t('code.formCaption', { m }),
      columns: ['j', 'x_j', 'cos_pos_j', 'sin_pos_j', 'rotate_half(x)_j', t('code.colOut')],
      rows: x.map((v, j) => [String(j), fixed(v, 5), fixed(cos[j >> 1], 5), fixed(sinPos[j], 5), fixed(rh[j], 5), fixed(interleaved[j], 5)]),
      testid: 'code-form', reflow: true,
    }), h('p', { class: 'hint' }, t('code.dup', {
      cos: `[${cosPos.map((v) => fixed(v, 4)).join(', ')}]`,
    })));

    const T = 6;
    const positions = [...Array(T).keys()];
    const angles = outer(pe, positions, invFreq);
    replace(angleBox, table({
      caption: t('code.angleCaption', { last: T - 1, d: dim }),
      columns: ['m', ...[...invFreq].map((th, i) => `θ${i + 1} = ${fixed(th, 4)}`)],
      rows: positions.map((p) => [String(p), ...[...invFreq].map((_, i) => fixed(angles[p * invFreq.length + i], 4))]),
      testid: 'angle-table',
    }));

    // 003's check 1: the first pair alone as a 2-vector, rotated by m·θ₁ (θ₁ = 1 for every
    // base) — "by hand" — against the whole vector through the layout-aware function.
    const byHand = rotateVector(pe, { v: [x[0], x[1]], position: m, layout: 'interleaved' });
    replace(checkOut,
      result(t('code.byHand'), h('output', { 'data-testid': 'check1-hand' },
        `x0′ = ${fixed(byHand[0], 5)}, x1′ = ${fixed(byHand[1], 5)}  (c = cos ${m}·θ₁ = ${fixed(cos[0], 5)}, s = ${fixed(sin[0], 5)})`)),
      result(t('code.byFunction'), h('output', { 'data-testid': 'check1-function' },
        `x0′ = ${fixed(interleaved[0], 5)}, x1′ = ${fixed(interleaved[1], 5)}`)));

    const rhHalf = rotateHalfHalves(x);
    const gap = maxGap(interleaved, half);
    replace(warnBox, table({
      caption: t('code.warnCaption', { m }),
      columns: ['j', 'x_j', t('code.colArticleRh'), t('code.colHfRh'), t('code.colInter'), t('code.colHalf')],
      rows: x.map((v, j) => [String(j), fixed(v, 5), fixed(rh[j], 5), fixed(rhHalf[j], 5), fixed(interleaved[j], 5), fixed(half[j], 5)]),
      testid: 'rotate-half-table', reflow: true,
    }), result(t('code.warnGap'), h('output', { 'data-testid': 'rotate-half-gap' }, m === 0 ? '0' : sci(gap, 2))));
  }

  const preset = () => {
    x = ARTICLE_X.slice(); xIn.set(x);
    state.set('s10.m', 3); mSlider.set(3);
    update();
  };

  const el = h('div', { class: 'code-bridge' },
    panel(t('code.formTitle'),
      tex(String.raw`R\begin{pmatrix} a \\ b \end{pmatrix} = \begin{pmatrix} a\cos\theta - b\sin\theta \\ a\sin\theta + b\cos\theta \end{pmatrix} = \begin{pmatrix} a \\ b \end{pmatrix}\cos\theta + \begin{pmatrix} -b \\ a \end{pmatrix}\sin\theta`),
      h('p', {}, rich(t('code.formText'))),
      controlRow(xIn, mSlider,
        button(t('code.preset'), preset, { 'data-preset': 'article', 'data-testid': 'code-preset' })),
      formBox, codeBlock(t('code.applyTitle'), t('code.applyCode'))),
    panel(t('code.checkTitle'), h('p', {}, rich(t('code.checkText'))), checkOut),
    panel(t('code.angleTitle'), h('p', {}, rich(t('code.angleText'))),
      angleBox, codeBlock(t('code.tableTitle'), t('code.tableCode'))),
    panel(t('code.warnTitle'), h('p', { class: 'note warn-soft', 'data-testid': 'rotate-half-warning' }, rich(t('code.warnText'))), warnBox),
    panel(t('code.attnTitle'), h('p', {}, rich(t('code.attnText'))),
      h('div', { class: 'grid-2' }, codeBlock(t('code.attnCodeTitle'), t('code.attnCode')), codeBlock(t('code.rope001Title'), t('code.rope001Code')))));
  update();
  return { el };
}
