// 6. A shift is a rotation (the angle-addition formulas as a matrix): M(k) from pe.shiftMatrix,
// M(k)·PE(p) from pe.applyShift beside PE(p+k) from pe.sinusoidal, at one p and over p = 0…19.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider, presetButton } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { shiftMatrix, applyShift, shiftSweep } from '../api.js';

export default {
  num: 6,
  id: 'shift',
  params: {
    's6.d': spec.int(8, 2, 16, { even: true }),
    's6.k': spec.int(3, -1000, 1000),
    's6.p': spec.int(5, -100000, 100000),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const matrixBox = h('div');
    const compareBox = h('div');
    const errOut = h('output', { 'data-testid': 'shift-error' });
    const sweepOut = h('output', { 'data-testid': 'shift-sweep' });

    function update() {
      const dim = state.get('s6.d');
      const k = state.get('s6.k');
      const p = state.get('s6.p');
      const M = shiftMatrix(pe, { dim, k });
      const cols = [...Array(dim).keys()].map(String);
      replace(matrixBox, table({
        caption: t('s6.matrixCaption', { k, d: dim }),
        columns: ['', ...cols],
        rows: cols.map((r, i) => [r, ...cols.map((c, j) => {
          const v = M[i * dim + j];
          return v === 0 ? h('span', { class: 'zero' }, '0') : fixed(v, 4);
        })]),
        className: 'matrix', testid: 'shift-matrix',
      }));
      const { shifted, target, maxError } = applyShift(pe, { dim, k, p });
      replace(compareBox, table({
        caption: t('s6.compareCaption', { k, p, pk: p + k }),
        columns: ['j', `M(${k})·PE(${p})`, `PE(${p + k})`],
        rows: [...Array(dim).keys()].map((j) => [String(j), fixed(shifted[j], 5), fixed(target[j], 5)]),
        testid: 'shift-compare',
      }));
      errOut.textContent = sci(maxError, 2);
      sweepOut.textContent = sci(shiftSweep(pe, { dim, k, first: 0, count: 20 }), 2);
    }

    const dSlider = boundSlider(ctx, 's6.d', { label: t('s6.dim'), step: 2 }, update);
    const kSlider = boundSlider(ctx, 's6.k', { label: t('s6.k') }, update);
    const pSlider = boundSlider(ctx, 's6.p', { label: t('s6.p') }, update);
    const preset = presetButton(ctx, t('s6.preset'), [['s6.d', 8, dSlider], ['s6.k', 3, kSlider], ['s6.p', 5, pSlider]], update);
    const el = shell(ctx, this,
      tex([String.raw`\sin\theta(p+k) = \sin\theta p\,\cos\theta k + \cos\theta p\,\sin\theta k`,
        String.raw`\cos\theta(p+k) = \cos\theta p\,\cos\theta k - \sin\theta p\,\sin\theta k`]),
      tex([String.raw`\begin{pmatrix}\sin\theta(p+k)\\ \cos\theta(p+k)\end{pmatrix}`, String.raw`= \begin{pmatrix}\cos\theta k & \sin\theta k\\ -\sin\theta k & \cos\theta k\end{pmatrix}\begin{pmatrix}\sin\theta p\\ \cos\theta p\end{pmatrix}`]),
      controlRow(dSlider, kSlider, pSlider, preset),
      h('div', { class: 'grid-2 wide-left' },
        panel(t('s6.matrixTitle'), h('p', { class: 'hint' }, rich(t('s6.matrixHint'))), matrixBox),
        panel(t('s6.compareTitle'), compareBox, result(t('s6.maxErr'), errOut),
          result(t('s6.sweepLabel'), sweepOut),
          h('p', { class: 'hint' }, rich(t('s6.sweepNote'))))),
      h('p', {}, rich(t('s6.after'))));
    update();
    return { el };
  },
};
