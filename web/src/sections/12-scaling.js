// 12. Stretching the context: wavelengths before and after HF's rope_scaling variants, all from
// pe.wavelengths / pe.inverseFrequencies with the scaling object a model config would carry.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { packageError } from '../ui/errors.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider, boundChoice } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { plot } from '../ui/plot.js';
import { table } from '../ui/table.js';
import { compact, fixed } from '../ui/format.js';

export default {
  num: 12,
  id: 'scaling',
  params: {
    's12.type': spec.enumOf('yarn', ['linear', 'dynamic', 'yarn', 'llama3']),
    's12.d': spec.int(128, 4, 512, { even: true }),
    's12.b': spec.num(10000, 2, 1e7),
    's12.f': spec.num(4, 1, 64),
    's12.orig': spec.int(4096, 16, 1048576),
    's12.len': spec.int(16384, 16, 4194304),
    's12.bf': spec.num(32, 1, 256),
    's12.bs': spec.num(1, 0.01, 64),
    's12.lo': spec.num(1, 0.01, 64),
    's12.hi': spec.num(4, 0.01, 64),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const chart = plot({ label: t('s12.plotLabel'), xLabel: t('s12.axisI'), yLabel: t('s12.axisLambda'), yLog: true, height: 300, xInt: true,
      series: [{ label: t('s12.before'), width: 2 }, { label: t('s12.after'), width: 3, dash: [6, 3] }] });
    const factorOut = h('output', { 'data-testid': 'attention-factor' });
    const params = h('div', { class: 'controls' });
    const tableBox = h('div');
    const errorBox = h('div', { role: 'status' });

    function scalingObject() {
      const type = state.get('s12.type');
      const s = { type, factor: state.get('s12.f') };
      if (type === 'dynamic') { s.maxPositionEmbeddings = state.get('s12.orig'); s.seqLen = state.get('s12.len'); }
      if (type === 'yarn') { s.originalMaxPositionEmbeddings = state.get('s12.orig'); s.betaFast = state.get('s12.bf'); s.betaSlow = state.get('s12.bs'); }
      if (type === 'llama3') { s.originalMaxPositionEmbeddings = state.get('s12.orig'); s.lowFreqFactor = state.get('s12.lo'); s.highFreqFactor = state.get('s12.hi'); }
      return s;
    }

    function controlsFor() {
      const type = state.get('s12.type');
      const list = [boundSlider(ctx, 's12.f', { label: t('s12.factor'), step: 0.5, min: 1, max: 64 }, update)];
      if (type !== 'linear') list.push(boundSlider(ctx, 's12.orig', { label: t(type === 'dynamic' ? 's12.maxPos' : 's12.orig'), log: true }, update));
      if (type === 'dynamic') list.push(boundSlider(ctx, 's12.len', { label: t('s12.len'), log: true }, update));
      if (type === 'yarn') list.push(boundSlider(ctx, 's12.bf', { label: 'betaFast', step: 1 }, update),
        boundSlider(ctx, 's12.bs', { label: 'betaSlow', step: 0.1 }, update));
      if (type === 'llama3') list.push(boundSlider(ctx, 's12.lo', { label: 'lowFreqFactor', step: 0.5 }, update),
        boundSlider(ctx, 's12.hi', { label: 'highFreqFactor', step: 0.5 }, update));
      replace(params, list.map((c) => c.el));
    }

    function update() {
      const dim = state.get('s12.d');
      const base = state.get('s12.b');
      const scaling = scalingObject();
      let after;
      let factor;
      try {
        after = pe.wavelengths({ dim, base, scaling });
        factor = pe.inverseFrequencies({ dim, base, scaling }).attentionFactor;
        replace(errorBox);
      } catch (err) {
        // A parameter combination the package refuses: show its message, keep the last plot.
        replace(errorBox, h('p', { class: 'note warn' }, packageError(t, err)));
        return;
      }
      const before = pe.wavelengths({ dim, base });
      const idx = [...Array(before.length).keys()];
      chart.update(idx, before, after);
      factorOut.textContent = fixed(factor, 4);
      const pick = [0, 1, Math.floor(before.length / 4), Math.floor(before.length / 2), Math.floor((3 * before.length) / 4), before.length - 1]
        .filter((v, i, a) => a.indexOf(v) === i);
      replace(tableBox, table({
        caption: t('s12.tableCaption', { type: scaling.type }),
        columns: ['i', t('s12.before'), t('s12.after')],
        rows: pick.map((i) => [String(i), compact(before[i], 4), compact(after[i], 4)]),
        testid: 'scaling-table',
      }));
    }

    const el = shell(ctx, this,
      tex([String.raw`\text{linear: }\theta_i' = \theta_i / s`, String.raw`\text{NTK: } b' = b\left(\tfrac{s\,L}{L_0} - (s-1)\right)^{d/(d-2)}`, String.raw`\text{YaRN, llama3: ${t('s12.blend')}}`]),
      controlRow(
        boundChoice(ctx, 's12.type', { label: t('s12.type'),
          options: [['linear', 'linear'], ['dynamic', 'dynamic (NTK)'], ['yarn', 'YaRN'], ['llama3', 'llama3']] }, () => { controlsFor(); update(); }),
        boundSlider(ctx, 's12.d', { label: t('s12.dim'), step: 2 }, update),
        boundSlider(ctx, 's12.b', { label: t('s12.base'), log: true, integer: false }, update)),
      params,
      errorBox,
      h('div', { class: 'grid-2' },
        panel(t('s12.plotTitle'), chart.el),
        panel(t('s12.tableTitle'), tableBox, result(t('s12.attn'), factorOut))),
      h('p', {}, rich(t('s12.explain'))));
    controlsFor();
    update();
    return { el, dispose: () => chart.dispose() };
  },
};
