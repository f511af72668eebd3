// 7. Adding positions leaks absolute position: pe.scores in 'additive' mode returns the four
// terms (교차항 included) for content q, k placed at chosen (m, n) pairs — seeded, typed by the
// reader, or article 000's numpy draws. Then the input layer as it is used, x = e·√d + PE(p)
// (pe.addSinusoidal), and a summary of the sinusoidal half with live numbers.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex } from '../ui/section.js';
import { boundSlider, boundChoice, boundList, presetButton } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { heatmap } from '../ui/heatmap.js';
import { fixed, sci, compact } from '../ui/format.js';
import { floatListSpec, vectorInput, codeBlock } from '../ui/vectors.js';
import {
  randomVectors, scores, repeatRows, wordVectors, addPositions, maxGap, maxAbsOf, peNorms, applyShift,
  draws, orderTest, tokens,
} from '../api.js';
import DRAWS from '../data/draws.json';

const T = 64;
const ARTICLE = DRAWS.article_000;
const ARTICLE_STARTS = [3, 40, 900];
const ARTICLE_DELTA = 4;
// Printed by article 000 (numpy, float64) for its draws: additive score per pair, position term.
const ARTICLE_ADDED = ['added (3,7)', 'added (40,44)', 'added (900,904)'].map((k) => ARTICLE.reproduces[k]);
const WORD_DIM = 32;   // article 001's d_model
const WORD_ID = 5;     // article 001's word id

export default {
  num: 7,
  id: 'leak',
  params: {
    's7.src': spec.enumOf('seed', ['seed', 'article', 'typed']),
    's7.seed': spec.int(7, 0, 99999),
    's7.d': spec.int(16, 2, 256, { even: true }),
    's7.delta': spec.int(3, -50, 50),
    's7.starts': spec.intList([0, 10, 50, 100, 500], 0, 100000, 8),
    's7.q': floatListSpec(ARTICLE.q, ARTICLE.d),
    's7.k': floatListSpec(ARTICLE.k, ARTICLE.d),
    's7.scale': spec.enumOf('sqrt', ['sqrt', 'one']),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    const termsBox = h('div');
    const sourceNote = h('p', { class: 'hint', 'data-testid': 'leak-source' });
    const heat = heatmap({
      label: t('s7.heatLabel'), rowLabel: t('common.axisM'), colLabel: t('common.axisN'),
      format: (v) => fixed(v, 2),
      readout: (m, n, v) => t('common.scoreReadout', { m, n, delta: n - m, v: fixed(v, 4) }),
    });
    const wordBox = h('div');
    const scaleBox = h('div');
    const summaryBox = h('div');

    /** Content q, k and their dimension for the chosen source. */
    function content() {
      const src = state.get('s7.src');
      if (src === 'seed') {
        const dim = state.get('s7.d');
        const [q, k] = randomVectors(pe, { seed: state.get('s7.seed'), count: 2, dim });
        return { q, k, dim };
      }
      const { q, k } = src === 'article' ? draws(ARTICLE) : draws({ q: state.get('s7.q'), k: state.get('s7.k') });
      return { q, k, dim: q.length };
    }

    function update() {
      const { q, k, dim } = content();
      const src = state.get('s7.src');
      const delta = state.get('s7.delta');
      const starts = state.get('s7.starts');
      const kPositions = starts.map((m) => m + delta);
      // One query and one key per pair: scores is computed for every (m, n) and we read
      // the diagonal (pair r ↔ query r, key r).
      const res = scores(pe, { q: repeatRows(q, starts.length), k: repeatRows(k, starts.length), dim,
        qPositions: starts, kPositions, mode: 'additive' });
      const n = starts.length;
      const at = (arr, r) => arr[r * n + r];
      const isArticle = src === 'article' && delta === ARTICLE_DELTA && starts.join() === ARTICLE_STARTS.join();
      replace(termsBox, table({
        caption: t('s7.termsCaption', { delta, d: dim }),
        columns: ['(m, n)', 'q·k', 'q·pₙ', 'pₘ·k', 'pₘ·pₙ', t('s7.total'), ...(isArticle ? [t('s7.articleCol')] : [])],
        rows: starts.map((m, r) => [`(${m}, ${m + delta})`,
          fixed(at(res.terms.content, r), 6), fixed(at(res.terms.queryPosition, r), 6),
          fixed(at(res.terms.positionKey, r), 6), fixed(at(res.terms.positionPosition, r), 6),
          h('strong', {}, fixed(at(res.scores, r), 6)),
          ...(isArticle ? [`${fixed(ARTICLE_ADDED[r], 8)} / ${fixed(ARTICLE.reproduces['position term'], 8)}`] : [])]),
        testid: 'leak-terms',
      }));
      sourceNote.replaceChildren(...rich(t(`s7.source.${src}`, { d: dim })));
      dSlider.el.hidden = src !== 'seed';
      seedSlider.el.hidden = src !== 'seed';
      typedBox.hidden = src !== 'typed';
      const positions = [...Array(T).keys()];
      const mat = scores(pe, { q: repeatRows(q, T), k: repeatRows(k, T), dim,
        qPositions: positions, kPositions: positions, mode: 'additive' });
      heat.draw(mat.scores, T, T, { rowRange: `0 … ${T - 1}`, colRange: `0 … ${T - 1}` });
      updateWords();
    }

    // Article 001: the same word (id 5) at positions 0 and 3, before and after the input layer.
    function updateWords() {
      // nn.Embedding-like small start values: the seeded word drawn in ±1/√d.
      const e = wordVectors(pe, { lemmas: [WORD_ID, WORD_ID], vocabulary: [...Array(WORD_ID + 1).keys()], dim: WORD_DIM,
        spread: 1 / Math.sqrt(WORD_DIM) });
      const scale = state.get('s7.scale') === 'sqrt' ? Math.sqrt(WORD_DIM) : 1;
      const x = addPositions(pe, { e, dim: WORD_DIM, positions: [0, 3], scale });
      const row = (a, r) => a.subarray(r * WORD_DIM, (r + 1) * WORD_DIM);
      replace(wordBox, table({
        caption: t('s7.wordCaption', { id: WORD_ID, d: WORD_DIM }),
        columns: [t('s7.wordWhat'), t('s7.wordDiff')],
        rows: [
          [t('s7.wordBefore'), fixed(maxGap(row(e, 0), row(e, 1)), 4)],
          [t('s7.wordAfter'), fixed(maxGap(row(x, 0), row(x, 1)), 4)],
          [t('s7.wordParams'), '0'],
        ],
        testid: 'same-word',
      }));
      const pe0 = pe.sinusoidal({ dim: WORD_DIM, positions: [0] });
      // The word's share of x = s·e + PE(0) is x − PE(0): its largest entry, for s = 1 and s = √d.
      const wordPart = (s) => maxGap(addPositions(pe, { e: row(e, 0), dim: WORD_DIM, positions: [0], scale: s }), pe0);
      replace(scaleBox, table({
        caption: t('s7.scaleCaption', { d: WORD_DIM }),
        columns: [t('s7.scaleWhat'), t('s7.scaleMax')],
        rows: [
          [t('s7.scaleE'), fixed(wordPart(1), 4)],
          [t('s7.scaleSqrt', { s: fixed(Math.sqrt(WORD_DIM), 3) }), fixed(wordPart(Math.sqrt(WORD_DIM)), 4)],
          [t('s7.scalePE'), fixed(maxAbsOf(pe0), 4)],
        ],
        testid: 'sqrt-d',
      }));
    }

    // The one-page summary of article 001, each line with the number this page computes for it.
    function updateSummary() {
      const words = tokens(t('common.sentence'));
      const x = wordVectors(pe, { lemmas: words.map((w) => w.lemma), dim: 16 });
      const perm = words.map((_, i) => words.length - 1 - i);
      const none = orderTest(pe, { x, perm, dim: 16, heads: 2, seed: 1, mode: 'none' }).diff;
      const norm = peNorms(pe, { dim: 32, base: 10000, positions: [0, 1000] });
      const shift = applyShift(pe, { dim: 32, k: 3, p: 5 }).maxError;
      const lambda = pe.wavelengths({ dim: 32 });
      const rows = [
        ['why', { v: sci(none, 2) }], ['formula', {}], ['intuition', { first: compact(lambda[0], 4), last: compact(lambda[15], 4) }],
        ['prop1', { n: fixed(norm[0], 4) }], ['prop2', {}], ['prop3', { e: sci(shift, 2) }], ['usage', {}], ['modern', {}],
      ];
      replace(summaryBox, table({
        caption: t('s7.summaryCaption'),
        columns: [t('s7.summaryItem'), t('s7.summaryContent')],
        rows: rows.map(([key, vars]) => [t(`s7.sum.${key}`), h('span', {}, rich(t(`s7.sum.${key}Text`, vars)))]),
        numeric: false, className: 'prose', testid: 'summary-001', reflow: true,
      }));
    }

    const srcChoice = boundChoice(ctx, 's7.src', { label: t('s7.src'),
      options: [['seed', t('s7.srcSeed')], ['article', t('s7.srcArticle')], ['typed', t('s7.srcTyped')]] }, update);
    const dSlider = boundSlider(ctx, 's7.d', { label: t('s7.dim'), step: 2 }, update);
    const deltaSlider = boundSlider(ctx, 's7.delta', { label: t('s7.delta') }, update);
    const seedSlider = boundSlider(ctx, 's7.seed', { label: t('common.seed') }, update);
    const startsList = boundList(ctx, 's7.starts', { label: t('s7.starts') }, update);
    const vecInput = (key, label) => vectorInput({ label, value: state.get(key), len: ARTICLE.d, name: key,
      invalidText: t('s7.badVector', { n: ARTICLE.d }),
      onChange: (v) => { state.set(key, v); update(); } });
    const qInput = vecInput('s7.q', t('s7.typedQ'));
    const kInput = vecInput('s7.k', t('s7.typedK'));
    const typedBox = h('div', { class: 'controls' }, qInput.el, kInput.el);
    const preset = presetButton(ctx, t('s7.preset'), [['s7.src', 'article', srcChoice],
      ['s7.delta', ARTICLE_DELTA, deltaSlider], ['s7.starts', ARTICLE_STARTS, startsList]], update);

    const el = shell(ctx, this,
      tex(String.raw`(q + p_m)\cdot(k + p_n) = \underbrace{q\cdot k}_{\text{${t('s7.fContent')}}} + \underbrace{q\cdot p_n}_{\text{${t('s7.fN')}}} + \underbrace{p_m\cdot k}_{\text{${t('s7.fM')}}} + \underbrace{p_m\cdot p_n}_{\text{${t('s7.fNM')}}}`),
      controlRow(srcChoice, preset),
      controlRow(dSlider, deltaSlider, seedSlider, startsList),
      typedBox,
      panel(t('s7.termsTitle'), h('p', {}, rich(t('s7.termsText'))), sourceNote, termsBox,
        h('p', {}, rich(t('s7.notBad')))),
      panel(t('s7.heatTitle'), h('div', { class: 'text-figure-row' }, h('div', {}, h('p', {}, rich(t('s7.heatText')))), heat.el)),
      panel(t('s7.useTitle'),
        h('p', {}, rich(t('s7.useText'))),
        codeBlock(t('s7.moduleSrc'), { label: t('s7.moduleLabel') }),
        h('p', {}, rich(t('s7.bufferText'))),
        h('div', { class: 'grid-2' },
          h('div', {}, h('h4', {}, t('s7.wordTitle')), h('p', {}, rich(t('s7.wordText'))),
            controlRow(boundChoice(ctx, 's7.scale', { label: t('s7.scaleLabel'),
              options: [['sqrt', '×√d_model'], ['one', '×1']] }, updateWords)),
            wordBox),
          h('div', {}, h('h4', {}, t('s7.sqrtTitle')), codeBlock(t('s7.sqrtSrc')), h('p', {}, rich(t('s7.sqrtText'))), scaleBox)),
        h('h4', {}, t('s7.concatTitle')),
        table({
          caption: t('s7.concatCaption'),
          columns: ['', t('s7.concatAdd'), t('s7.concatCat')],
          rows: ['dim', 'cost', 'why'].map((r) => [t(`s7.concat.${r}`), t(`s7.concat.${r}Add`), t(`s7.concat.${r}Cat`)]),
          numeric: false, className: 'prose', testid: 'add-concat', reflow: true,
        }),
        h('p', {}, rich(t('s7.concatText')))),
      panel(t('s7.summaryTitle'), h('p', {}, rich(t('s7.summaryText'))),
        h('ul', { class: 'summary', 'data-testid': 'summary-000' }, [1, 2, 3, 4, 5].map((i) => h('li', {}, rich(t(`s7.sum000.${i}`))))),
        summaryBox));
    update();
    updateSummary();
    return { el };
  },
};

