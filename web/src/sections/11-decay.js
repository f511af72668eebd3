// 11. Long-term decay: the RoFormer §3.4.3 bound (1/(d/2))·Σ_j |S_j| against relative distance,
// from pe.decayBound.
import { rich } from '../ui/math.js';
import { h } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { plot } from '../ui/plot.js';
import { decayBound } from '../api.js';

export default {
  num: 11,
  id: 'decay',
  params: {
    's11.d': spec.int(128, 2, 1024, { even: true }),
    's11.b': spec.num(10000, 2, 1e7),
    's11.max': spec.int(1000, 10, 20000),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const p = plot({ label: t('s11.plotLabel'), xLabel: t('s11.axisDelta'), yLabel: t('s11.axisBound'), height: 280, xInt: true,
      series: [{ label: t('s11.series'), width: 2 }] });
    function update() {
      const dim = state.get('s11.d');
      const base = state.get('s11.b');
      const maxDistance = state.get('s11.max');
      const { distances, values } = decayBound(pe, { dim, base, maxDistance });
      p.update(distances, values);
    }
    const el = shell(ctx, this,
      tex([String.raw`\bigl|\,q^{\top}R(\delta\theta)k\,\bigr| \le \Bigl(\max_j |h_{j+1}-h_j|\Bigr)\displaystyle\sum_{j=1}^{d/2} |S_j|,`, String.raw`S_j = \displaystyle\sum_{l<j} e^{\,i\,\delta\,\theta_l}`]),
      controlRow(
        boundSlider(ctx, 's11.d', { label: t('s11.dim'), step: 2 }, update),
        boundSlider(ctx, 's11.b', { label: t('s11.base'), log: true, integer: false }, update),
        boundSlider(ctx, 's11.max', { label: t('s11.max'), log: true }, update)),
      panel(t('s11.plotTitle'), p.el),
      h('p', {}, rich(t('s11.after'))));
    update();
    return { el, dispose: () => p.dispose() };
  },
};
