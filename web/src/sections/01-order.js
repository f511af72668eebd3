// 1. Order is invisible to attention. A sentence with seeded embeddings goes through one
// attention layer (pe.selfAttention); shuffling the words merely permutes the outputs when no
// positions are used (pe.permutationTest ≈ 1e−7) and really changes them with PE or RoPE.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundChoice } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { attention, permutationTest, permutation, sentence } from '../api.js';

const DIM = 16;
const SHOW = 4;  // output numbers shown per token

export default {
  num: 1,
  id: 'order',
  params: {
    's1.mode': spec.enumOf('none', ['none', 'additive', 'rotary']),
    's1.shuffle': spec.int(1, 0, 99999),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const chips = h('div', { class: 'sentences' });
    const tableBox = h('div');
    const diffOut = h('output', { 'data-testid': 'perm-diff' });
    const verdict = h('p', { class: 'verdict', 'data-testid': 'perm-verdict' });
    const allBox = h('div');

    function update() {
      const words = sentence(t);
      const T = words.length;
      const mode = state.get('s1.mode');
      const seed = state.get('s1.shuffle');
      const perm = permutation(pe, { n: T, seed });
      const base = attention(pe, { tokens: T, dim: DIM, heads: 2, seed: 1, mode, causal: false });
      const shuffled = attention(pe, { tokens: T, dim: DIM, heads: 2, seed: 1, mode, causal: false, order: perm });
      replace(chips,
        h('p', {}, h('span', { class: 'chip-label' }, t('s1.original')), words.map((w) => h('span', { class: 'token' }, w))),
        h('p', { 'data-testid': 'shuffled-sentence' }, h('span', { class: 'chip-label' }, t('s1.shuffled')),
          Array.from(perm, (i) => h('span', { class: 'token' }, words[i]))));
      // Row r of the shuffled run is the word perm[r]; find each word's row to line them up.
      const rowOf = new Map(Array.from(perm, (w, r) => [w, r]));
      replace(tableBox, table({
        caption: t('s1.tableCaption', { n: SHOW }),
        columns: [t('s1.word'), t('s1.outOriginal'), t('s1.outShuffled')],
        rows: words.map((w, i) => {
          const r = rowOf.get(i);
          const a = Array.from(base.output.subarray(i * DIM, i * DIM + SHOW), (v) => fixed(v, 4)).join('  ');
          const b = Array.from(shuffled.output.subarray(r * DIM, r * DIM + SHOW), (v) => fixed(v, 4)).join('  ');
          return [w, a, b];
        }),
        testid: 'perm-table',
      }));
      const diff = permutationTest(pe, { tokens: T, dim: DIM, heads: 2, seed: 1, mode, permSeed: seed });
      diffOut.textContent = sci(diff, 2);
      verdict.textContent = t(mode === 'none' ? 's1.verdictNone' : 's1.verdictPos');
      verdict.className = `verdict ${mode === 'none' ? 'same' : 'changed'}`;
      // All three at once, so the contrast is one glance.
      replace(allBox, table({
        caption: t('s1.allCaption'),
        columns: [t('common.positions'), t('s1.maxDiff')],
        rows: ['none', 'additive', 'rotary'].map((m) => [t(`common.${m === 'rotary' ? 'rope' : m}`),
          sci(permutationTest(pe, { tokens: T, dim: DIM, heads: 2, seed: 1, mode: m, permSeed: seed }), 2)]),
        testid: 'perm-all',
      }));
    }

    const el = shell(ctx, this,
      tex([String.raw`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)`, String.raw`\text{${t('s1.forEvery')}}`]),
      controlRow(
        boundChoice(ctx, 's1.mode', { label: t('common.positions'),
          options: [['none', t('common.none')], ['additive', t('common.additive')], ['rotary', t('common.rope')]] }, update),
        button(t('s1.shuffle'), () => { state.set('s1.shuffle', (state.get('s1.shuffle') % 99999) + 1); update(); },
          { 'data-testid': 'shuffle' })),
      panel(t('s1.sentenceTitle'), chips, tableBox,
        result(t('s1.maxDiff'), diffOut), verdict),
      panel(t('s1.allTitle'), allBox),
      h('p', {}, rich(t('s1.after'))));
    update();
    return { el };
  },
};
