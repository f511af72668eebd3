// 1. Order is invisible to attention (순열 동변성). Two sentences made of the same words — the
// articles' minimal pairs, or a seeded shuffle — go through one seeded attention layer
// (pe.selfAttention). Each word has one vector wherever it stands; without positions the
// outputs are only reordered, and the attention matrix has its rows and columns reordered together.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundChoice, presetButton } from '../ui/bind.js';
import { controlRow, button } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { fixed, sci } from '../ui/format.js';
import { tokens, wordVectors, reorderingOf, shuffleOf, orderTest } from '../api.js';

const DIM = 16;
const HEADS = 2;
const SHOW = 4;  // output numbers shown per token
const MODES = ['none', 'additive', 'rotary'];

export default {
  num: 1,
  id: 'order',
  params: {
    's1.pair': spec.enumOf('dog', ['dog', 'rice', 'shuffle']),
    's1.mode': spec.enumOf('none', ['none', 'additive', 'rotary']),
    's1.when': spec.enumOf('after', ['after', 'before']),
    's1.shuffle': spec.int(1, 0, 99999),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const chips = h('div', { class: 'sentences' });
    const tableBox = h('div');
    const matBox = h('div', { class: 'grid-2' });
    const diffOut = h('output', { 'data-testid': 'perm-diff' });
    const verdict = h('p', { class: 'verdict', 'data-testid': 'perm-verdict' });
    const allBox = h('div');
    const articleOut = h('p', { 'data-testid': 'perm-article' });

    /** The two sentences as tokens and the reordering between them. */
    function sentences() {
      const which = state.get('s1.pair');
      if (which !== 'shuffle') {
        const a = tokens(t(`s1.${which}A`));
        const b = tokens(t(`s1.${which}B`));
        return { a, b, perm: reorderingOf(a.map((w) => w.lemma), b.map((w) => w.lemma)) };
      }
      const a = tokens(t('common.sentence'));
      const { perm, seed } = shuffleOf(pe, { n: a.length, seed: state.get('s1.shuffle') });
      if (seed !== state.get('s1.shuffle')) state.set('s1.shuffle', seed);  // skip shuffles that move nothing
      return { a, b: perm.map((i) => a[i]), perm };
    }

    // Each weight shaded from the table's smallest to its largest (CSSOM, not a style attribute).
    function weightsTable(words, w, T, caption, testid) {
      const lo = Math.min(...w);
      const hi = Math.max(...w);
      const cell = (v) => {
        const span = h('span', { class: 'shade' }, fixed(v, 3));
        span.style.setProperty('--s', String(hi > lo ? (v - lo) / (hi - lo) : 0));
        return span;
      };
      return table({
        caption,
        columns: [t('s1.queryKey'), ...words.map((x) => x.shown)],
        rows: words.map((x, i) => [x.shown, ...words.map((_, j) => cell(w[i * T + j]))]),
        className: 'matrix compact shaded', testid,
      });
    }

    function update() {
      const { a, b, perm } = sentences();
      const T = a.length;
      const mode = state.get('s1.mode');
      const pitfall = state.get('s1.when') === 'before';
      const x = wordVectors(pe, { lemmas: a.map((w) => w.lemma), dim: DIM });
      const run = orderTest(pe, { x, perm, dim: DIM, heads: HEADS, seed: 1, mode, pitfall });
      replace(chips,
        h('p', { 'data-testid': 'sentence-a' }, h('span', { class: 'chip-label' }, t('s1.original')), a.map((w) => h('span', { class: 'token' }, w.shown))),
        h('p', { 'data-testid': 'shuffled-sentence' }, h('span', { class: 'chip-label' }, t('s1.shuffled')),
          b.map((w) => h('span', { class: 'token' }, w.shown))));
      // Row r of the second run is word perm[r] of the first: line each word up with itself.
      const rowOf = new Map(perm.map((w, r) => [w, r]));
      replace(tableBox, table({
        caption: t('s1.tableCaption', { n: SHOW }),
        columns: [t('s1.word'), t('s1.outOriginal'), t('s1.outShuffled')], reflow: true,
        rows: a.map((w, i) => {
          const r = rowOf.get(i);
          const oa = Array.from(run.a.output.subarray(i * DIM, i * DIM + SHOW), (v) => fixed(v, 4)).join('  ');
          const ob = Array.from(run.b.output.subarray(r * DIM, r * DIM + SHOW), (v) => fixed(v, 4)).join('  ');
          return [w.shown, oa, ob];
        }),
        testid: 'perm-table',
      }));
      // Head 1's softmax(QKᵀ/√d_k): entry (i, j) comes from query i · key j.
      replace(matBox,
        weightsTable(a, run.a.weights, T, t('s1.matA'), 'qk-a'),
        weightsTable(b, run.b.weights, T, t('s1.matB'), 'qk-b'),
        a.some((w) => w.shown !== w.lemma) || b.some((w) => w.shown !== w.lemma)
          ? h('p', { class: 'hint', 'data-testid': 's1-lemma-note' }, t('s1.lemmaNote')) : null);
      diffOut.textContent = sci(run.diff, 2);
      const same = mode === 'none' || pitfall;
      verdict.textContent = t(mode === 'none' ? 's1.verdictNone' : pitfall ? 's1.verdictPitfall' : 's1.verdictPos');
      verdict.className = `verdict ${same ? 'same' : 'changed'}`;
      const all = MODES.map((m) => orderTest(pe, { x, perm, dim: DIM, heads: HEADS, seed: 1, mode: m, pitfall }).diff);
      replace(allBox, table({
        caption: t('s1.allCaption'),
        columns: [t('common.positions'), t('s1.maxDiffCol')],
        rows: MODES.map((m, i) => [t(`common.${m === 'rotary' ? 'rope' : m}`), sci(all[i], 2)]),
        testid: 'perm-all',
      }));
      articleOut.replaceChildren(...rich(t('s1.article', { none: sci(all[0], 2), added: fixed(all[1], 6) })));
      shuffleBtn.disabled = state.get('s1.pair') !== 'shuffle';
    }

    const shuffleBtn = button(t('s1.shuffle'), () => {
      state.set('s1.shuffle', (state.get('s1.shuffle') % 99999) + 1);
      update();
    }, { 'data-testid': 'shuffle' });
    const pairChoice = boundChoice(ctx, 's1.pair', { label: t('s1.pairLabel'),
      options: [['dog', t('s1.pairDog')], ['rice', t('s1.pairRice')], ['shuffle', t('s1.pairShuffle')]] }, update);
    const modeChoice = boundChoice(ctx, 's1.mode', { label: t('common.positions'),
      options: [['none', t('common.none')], ['additive', t('common.additive')], ['rotary', t('common.rope')]] }, update);
    const whenChoice = boundChoice(ctx, 's1.when', { label: t('s1.whenLabel'),
      options: [['after', t('s1.whenAfter')], ['before', t('s1.whenBefore')]] }, update);
    const preset = presetButton(ctx, t('s1.preset'),
      [['s1.pair', 'dog', pairChoice], ['s1.mode', 'none', modeChoice], ['s1.when', 'after', whenChoice]], update);

    const el = shell(ctx, this,
      tex([String.raw`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)`, String.raw`\text{${t('s1.forEvery')}}`]),
      controlRow(pairChoice, modeChoice, whenChoice, shuffleBtn, preset),
      panel(t('s1.sentenceTitle'), chips, tableBox,
        result(t('s1.maxDiff'), diffOut), verdict),
      panel(t('s1.matTitle'), h('p', {}, rich(t('s1.matText'))), matBox),
      panel(t('s1.allTitle'), allBox, articleOut),
      panel(t('s1.rnnTitle'), h('p', {}, rich(t('s1.rnnText')))),
      h('p', {}, rich(t('s1.after'))));
    update();
    return { el };
  },
};
