// 13. RoFormer self-attention: a small multi-head layer from pe.selfAttention (RoPE on Q and K,
// never V); one heatmap of attention weights per head; causal mask on or off.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider, boundChoice, boundCheck } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed } from '../ui/format.js';
import { attention, sentence } from '../api.js';

export default {
  num: 13,
  id: 'attention',
  params: {
    's13.heads': spec.int(2, 1, 4),
    's13.mode': spec.enumOf('rotary', ['none', 'additive', 'rotary']),
    's13.causal': spec.bool(true),
    's13.seed': spec.int(13, 0, 99999),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const grid = h('div', { class: 'head-grid' });
    const tokenList = h('p', { class: 'tokens' });
    const shapeOut = h('output', { 'data-testid': 'attn-shape', 'aria-live': 'polite' });

    // Article 003: bs 2, seq 10, embed 1024, 16 heads → (2, 10, 1024); one layer per batch row.
    function runShape() {
      const [bs, seq, dim, heads] = [2, 10, 1024, 16];
      const weights = pe.attentionWeights({ modelDim: dim, seed: 3 });
      const outs = [];
      for (let b = 0; b < bs; b++) {
        const x = pe.fillUniform(new Float32Array(seq * dim), { seed: 100 + b });
        outs.push(pe.selfAttention({ x, weights, tokens: seq, modelDim: dim, heads, mode: 'rotary' }).output);
      }
      shapeOut.textContent = t('s13.shapeValue', { bs, seq, dim, heads, shape: `(${outs.length}, ${outs[0].length / dim}, ${dim})` });
    }

    function update() {
      const words = sentence(t, 'long');
      const heads = state.get('s13.heads');
      const res = attention(pe, { words, dim: 48, heads, seed: state.get('s13.seed'),
        mode: state.get('s13.mode'), causal: state.get('s13.causal'), spread: 4 });
      const T = words.length;
      replace(tokenList, words.map((w, i) => h('span', { class: 'token' }, h('small', {}, String(i)), w)));
      const maps = [];
      for (let hd = 0; hd < heads; hd++) {
        const hm = heatmap({
          label: t('s13.heatLabel', { h: hd + 1 }), rowLabel: t('s13.axisQ'), colLabel: t('s13.axisK'),
          format: (v) => fixed(v, 2),
          readout: (r, c, v) => t('s13.readout', { q: words[r], k: words[c], v: fixed(v, 3) }),
        });
        hm.el.dataset.testid = `attn-head-${hd}`;
        hm.draw(res.weights.subarray(hd * T * T, (hd + 1) * T * T), T, T, { min: 0, max: 1, rowTicks: words, colTicks: words });
        maps.push(h('div', { class: 'head' }, h('h4', {}, t('s13.head', { h: hd + 1 })), hm.el));
      }
      replace(grid, maps);
    }

    const el = shell(ctx, this,
      tex(String.raw`\mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{(R_{m}W_qx_m)^{\top}(R_{n}W_kx_n)}{\sqrt{d_h}} + \text{mask}\right) W_v X`),
      controlRow(
        boundSlider(ctx, 's13.heads', { label: t('s13.heads') }, update),
        boundChoice(ctx, 's13.mode', { label: t('common.positions'),
          options: [['none', t('common.none')], ['additive', t('common.additive')], ['rotary', 'RoPE']] }, update),
        boundCheck(ctx, 's13.causal', { label: t('s13.causal') }, update),
        boundSlider(ctx, 's13.seed', { label: t('common.seed') }, update)),
      tokenList,
      panel(t('s13.gridTitle'), grid),
      h('p', {}, rich(t('s13.after'))),
      h('div', { class: 'controls' }, button(t('s13.shapeRun'), runShape, { 'data-preset': 'article', 'data-testid': 'attn-shape-run' })),
      shapeOut);
    update();
    return { el };
  },
};
