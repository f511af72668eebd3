// Section 9's proof panels: R(α) written out, Rᵀ = R⁻¹ = R(−α), R(α)R(β) = R(α+β), the
// three-line proof with both sides computed, the article's complex route step by step, and
// the full-ladder checks of the articles with typed or preset q, k. Every matrix entry and
// score is a package result (api-proof.js); the page formats and compares them.
import { h, replace } from '../ui/dom.js';
import { panel, tex, result } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { button, controlRow } from '../ui/controls.js';
import { boundSlider } from '../ui/bind.js';
import { rotatePair, pairKernel, pairScores } from '../api.js';
import { rotationMatrix, transposeProduct, productMatrix, matrixGap, ladderCheck } from '../api-proof.js';
import { vectorInput } from './vector-input.js';
import draws from '../data/draws.json';

const f5 = (v) => fixed(v, 5);
const mat = (M) => String.raw`\begin{bmatrix} ${f5(M[0][0])} & ${f5(M[0][1])} \\ ${f5(M[1][0])} & ${f5(M[1][1])} \end{bmatrix}`;
const transpose = (M) => [[M[0][0], M[1][0]], [M[0][1], M[1][1]]];
const cplx = ([re, im]) => `${f5(re)} ${im < 0 ? '-' : '+'} ${f5(Math.abs(im))}\\,i`;
/** A table cell of typeset lines. */
const lines = (...parts) => h('span', { class: 'tex-lines' }, parts.map((p) => h('span', { class: 'tex-line' }, tex(p, { display: false }))));
const vec = ([a, b]) => `(${f5(a)}, ${f5(b)})`;

// The article checks the ladder panel reproduces (pairs and their source).
export const LADDER_PRESETS = {
  a000: { q: draws.article_000.q, k: draws.article_000.k, pairs: [[3, 7], [40, 44], [900, 904]] },
  a003: { q: draws.article_003.q, k: draws.article_003.k, pairs: [[0, 1], [5, 6], [0, 3]] },
  a001: { q: null, k: null, pairs: [[0, 0], [5, 5], [100, 100], [0, 3], [5, 8], [100, 103], [0, 10], [50, 60]] },
};

/** The step-by-step proof for the reader's m, n, θ, q, k (hash keys s9.pm, s9.pn, s9.theta). */
export function proofPanels(ctx) {
  const { pe, t, state } = ctx;
  const box = h('div', { 'data-testid': 'proof-steps' });
  const complexBox = h('div', { 'data-testid': 'complex-steps' });
  let q = [1, 0];
  let k = [0, 1];
  const qIn = vectorInput({ label: 'q = (a, b)', value: q, length: () => 2, testid: 'proof-q',
    invalidText: () => t('proof.badPair'), onChange: (v) => { q = v; update(); } });
  const kIn = vectorInput({ label: 'k = (c, d)', value: k, length: () => 2, testid: 'proof-k',
    invalidText: () => t('proof.badPair'), onChange: (v) => { k = v; update(); } });
  const sliders = [
    boundSlider(ctx, 's9.pm', { label: t('s8.m'), min: -200, max: 200 }, () => update()),
    boundSlider(ctx, 's9.pn', { label: t('s8.n'), min: -200, max: 200 }, () => update()),
    boundSlider(ctx, 's9.theta', { label: 'θ', step: 0.001 }, () => update()),
  ];

  function step(n, text, ...body) {
    return h('li', { class: 'proof-step', 'data-step': n }, h('p', {}, rich(text)), ...body);
  }

  function update() {
    const m = state.get('s9.pm');
    const n = state.get('s9.pn');
    const theta = state.get('s9.theta');
    const Rm = rotationMatrix(pe, { position: m, theta });
    const RmNeg = rotationMatrix(pe, { position: -m, theta });
    const RmTRm = transposeProduct(pe, { m, n: m, theta });
    const RmTRn = transposeProduct(pe, { m, n, theta });
    const Rnm = rotationMatrix(pe, { position: n - m, theta });
    const RmRn = productMatrix(pe, { m, n, theta });
    const Rsum = rotationMatrix(pe, { position: m + n, theta });
    const score = pairScores(pe, { q, k, pairs: [[m, n]], theta })[0];
    const kern = pairKernel(pe, { q, k, m, n, theta });
    const gap = (a, b) => h('span', { class: 'gap' }, t('proof.gap', { v: sci(matrixGap(a, b), 1) }));
    replace(box, h('ol', { class: 'proof' },
      step(1, t('proof.step1'), tex([String.raw`R(\alpha) = \begin{bmatrix} \cos\alpha & -\sin\alpha \\ \sin\alpha & \cos\alpha \end{bmatrix},`, String.raw`R(${m}\theta) = ${mat(Rm)}`])),
      step(2, t('proof.step2'),
        tex([String.raw`R(${m}\theta)^{\mathsf T} = ${mat(transpose(Rm))},`, String.raw`R(${-m}\theta) = ${mat(RmNeg)},`, String.raw`R(${m}\theta)^{\mathsf T}R(${m}\theta) = ${mat(RmTRm)}`]),
        gap(transpose(Rm), RmNeg)),
      step(3, t('proof.step3'),
        tex([String.raw`R(${m}\theta)R(${n}\theta) = ${mat(RmRn)},`, String.raw`R(${m + n}\theta) = ${mat(Rsum)}`]), gap(RmRn, Rsum)),
      step(4, t('proof.step4'),
        tex(String.raw`\langle R(m\theta)q,\ R(n\theta)k\rangle = \bigl(R(m\theta)q\bigr)^{\mathsf T}R(n\theta)k = q^{\mathsf T}\,R(m\theta)^{\mathsf T}R(n\theta)\,k`)),
      step(5, t('proof.step5'),
        h('div', { class: 'grid-2 matrices', 'data-testid': 'proof-sides' },
          h('div', {}, h('p', { class: 'hint' }, t('proof.left')), tex(String.raw`R(${m}\theta)^{\mathsf T}R(${n}\theta) = ${mat(RmTRn)}`)),
          h('div', {}, h('p', { class: 'hint' }, t('proof.right')), tex(String.raw`R(${n - m}\theta) = ${mat(Rnm)}`))),
        gap(RmTRn, Rnm)),
      step(6, t('proof.step6'),
        result(t('proof.scoreBoth'), h('output', { 'data-testid': 'proof-score' },
          t('proof.scoreValue', { left: fixed(score, 6), right: fixed(kern.score, 6), delta: n - m }))))));
    complexRoute({ m, n, theta });
  }

  // 003's complex route: f_q = (W_q x_m)e^{imθ}, ⟨f_q, f_k⟩ = Re[f_q · conj(f_k)] = Re[z_q conj(z_k) e^{i(m−n)θ}].
  function complexRoute({ m, n, theta }) {
    const eim = rotatePair(pe, { v: [1, 0], position: m, theta });
    const ein = rotatePair(pe, { v: [1, 0], position: n, theta });
    const eNeg = rotatePair(pe, { v: [1, 0], position: -n, theta });
    const fq = rotatePair(pe, { v: q, position: m, theta });
    const fk = rotatePair(pe, { v: k, position: n, theta });
    const score = pairScores(pe, { q, k, pairs: [[m, n]], theta })[0];
    // z_q·conj(z_k) = (ac + bd) + i(bc − ad): the dot at δ = 0 and the signed area at δθ = π/2.
    const dot = pairKernel(pe, { q, k, m: 0, n: 0, theta }).score;
    const area = pairKernel(pe, { q, k, m: 0, n: 2, theta: Math.PI / 4 }).areaTerm;
    const g = rotatePair(pe, { v: [dot, area], position: m - n, theta });
    const R = String.raw;
    const step = (key) => h('span', {}, rich(t(key)));
    const rows = [
      ['1', step('proof.c1'), lines(R`z_q = ${cplx(q)}`, R`z_k = ${cplx(k)}`)],
      ['2', step('proof.c2'), lines(R`e^{i\,${m}\theta} = ${cplx(eim)}`)],
      ['3', step('proof.c3'), lines(R`f_q = ${cplx(fq)}`, R`f_k = ${cplx(fk)}`)],
      ['4', step('proof.c4'), lines(R`e^{i\,${n}\theta} = ${cplx(ein)}`, R`e^{-i\,${n}\theta} = ${cplx(eNeg)}`)],
      ['5', step('proof.c5'), lines(R`\overline{f_k} = ${cplx([fk[0], -fk[1]])}`, R`\operatorname{Re}\bigl[f_q\,\overline{f_k}\bigr] = ${f5(score)}`)],
      ['6', step('proof.c6'), lines(R`z_q\,\overline{z_k} = ${cplx([dot, area])}`, R`g = ${cplx(g)}`, R`\operatorname{Re} g = ${f5(g[0])}`)],
    ];
    replace(complexBox, table({ caption: t('proof.complexCaption', { m, n, theta }), columns: ['#', t('proof.colStep'), t('proof.colValue')],
      rows, numeric: false, testid: 'complex-table' }));
  }

  const el = h('div', {},
    panel(t('proof.title'),
      h('p', {}, rich(t('proof.text'))),
      controlRow(...sliders, qIn, kIn,
        button(t('proof.preset'), () => {
          state.set('s9.pm', 2); state.set('s9.pn', 5); state.set('s9.theta', 0.1);
          sliders[0].set(2); sliders[1].set(5); sliders[2].set(0.1);
          q = [1, 0]; k = [0, 1]; qIn.set(q); kIn.set(k); update();
        }, { 'data-preset': 'article', 'data-testid': 'proof-preset' })),
      box,
      h('p', {}, rich(t('proof.orthogonal')))),
    panel(t('proof.complexTitle'), h('p', {}, rich(t('proof.complexText'))), complexBox,
      tex(String.raw`g(x_m, x_n, m-n) = (W_qx_m)\,\overline{(W_kx_n)}\;e^{i(m-n)\theta},\qquad \operatorname{Re} g = \langle f_q, f_k\rangle`)));
  update();
  return { el };
}

/** The full-ladder checks of articles 000, 003 and 001 with typed or preset q, k. */
export function ladderPanel(ctx) {
  const { pe, t } = ctx;
  const out = h('div');
  const note = h('p', { class: 'note info', 'data-testid': 'ladder-note' });
  let d = 8;
  let q = LADDER_PRESETS.a000.q;
  let k = LADDER_PRESETS.a000.k;
  let pairs = LADDER_PRESETS.a000.pairs;
  let which = 'a000';
  const bad = () => t('proof.badVector', { d });
  const qIn = vectorInput({ label: 'q', value: q, length: () => d, testid: 'ladder-q', invalidText: bad, onChange: (v) => { q = v; which = 'typed'; update(); } });
  const kIn = vectorInput({ label: 'k', value: k, length: () => d, testid: 'ladder-k', invalidText: bad, onChange: (v) => { k = v; which = 'typed'; update(); } });

  function load(name) {
    const p = LADDER_PRESETS[name];
    which = name;
    pairs = p.pairs;
    if (p.q) { q = p.q; k = p.k; } else {
      // 001's inputs are unknown: the page's own seeded pair (the package generator).
      const v = pe.fillUniform(new Float32Array(16), { seed: 1, lo: -1, hi: 1 });
      q = [...v.subarray(0, 8)]; k = [...v.subarray(8)];
    }
    d = q.length;
    qIn.set(q); kIn.set(k);
    update();
  }

  function update() {
    const rows = ladderCheck(pe, { q, k, pairs });
    replace(out, table({
      caption: t('proof.ladderCaption', { d }),
      columns: ['(m, n)', 'n − m', t('proof.colDouble'), t('proof.colFloat32')],
      rows: rows.map((r) => [`(${r.m}, ${r.n})`, String(r.n - r.m), fixed(r.double, 8), fixed(r.float32, 6)]),
      testid: 'ladder-check',
    }));
    note.textContent = t(`proof.note.${which}`);
  }

  const el = panel(t('proof.ladderTitle'),
    h('p', {}, rich(t('proof.ladderText'))),
    controlRow(qIn, kIn),
    h('div', { class: 'controls' },
      button(t('proof.preset000'), () => load('a000'), { 'data-preset': 'article', 'data-testid': 'ladder-preset-000' }),
      button(t('proof.preset003'), () => load('a003'), { 'data-preset': 'article-003', class: 'btn preset', 'data-testid': 'ladder-preset-003' }),
      button(t('proof.preset001'), () => load('a001'), { 'data-testid': 'ladder-preset-001' })),
    out, note);
  update();
  return { el };
}
