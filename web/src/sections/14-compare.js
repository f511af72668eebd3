// 14. Which encoding when, in four parts: article 002's plain-words view, article 001's methods
// table (a)–(d) with its parameter counts from the package, the four families live on one q, k
// with a trained length L, and article 003's relative-position lineage as score decompositions.
import { h } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell } from '../ui/section.js';
import { table } from '../ui/table.js';
import { rich } from '../ui/math.js';
import { int } from '../ui/format.js';
import { familiesPanel, lineagePanel } from './families.js';
import { simplyPanel } from './simply.js';

const FAMILIES = ['sin', 'learned', 'bias', 'rope'];
const COLUMNS = ['where', 'params', 'pros', 'cons'];

export default {
  num: 14,
  id: 'compare',
  params: {
    // L is also T5's max_distance over 16 buckets, which HF needs above max_exact = 4.
    's14.L': spec.int(16, 5, 64),
    's14.T': spec.int(24, 8, 64),
    's14.d': spec.int(16, 2, 64, { even: true }),
    's14.head': spec.int(0, 0, 7),
    's14.scale': spec.enumOf('yarn', ['linear', 'yarn']),
    's14.view': spec.enumOf('absolute', ['absolute', 'xl']),
    's14.clip': spec.int(3, 0, 8),
  },
  mount(ctx) {
    const { pe, t } = ctx;
    // nn.Embedding(512, 32): the parameter count of article 001, from the package's table.
    const embedding = pe.learnedTable({ positions: 512, dim: 32, seed: 0 }).parameters;
    // Four topics, each under its own heading, reachable from the list at the top; article
    // 002's plain-words view first, as the way in.
    const parts = [
      ['simply', t('simply.title'), [simplyPanel(ctx)]],
      ['methods', t('s14.caption'), [
        table({
          caption: t('s14.caption'),
          columns: [t('s14.family'), ...COLUMNS.map((c) => t(`s14.col.${c}`))],
          rows: FAMILIES.map((f) => [t(`s14.${f}.name`), ...COLUMNS.map((c) => h('span', {}, rich(t(`s14.${f}.${c}`, { n: int(embedding) }))))]),
          numeric: false, className: 'compare', testid: 'compare-table', reflow: true,
        }),
        h('p', {}, rich(t('s14.extrapNote'))),
        h('pre', { class: 'code', tabindex: '0', 'data-testid': 'compare-code' }, h('code', {}, t('s14.code', { n: int(embedding) })))]],
      ['families', t('fam.title'), [familiesPanel(ctx).el]],
      ['lineage', t('s14.partLineage'), [lineagePanel(ctx).el]],
    ];
    const subtoc = h('nav', { class: 'subtoc', 'aria-label': t('s14.partsNav') },
      h('ol', {}, parts.map(([id, title], i) => h('li', {}, h('button', { type: 'button', class: 'linkish', 'data-sub': id,
        on: { click: () => document.getElementById(`compare-${id}`)?.scrollIntoView({ block: 'start' }) } }, `14.${i + 1} ${title}`)))));
    // A part whose panel opens with the part's own title keeps one heading, the numbered one.
    for (const [, title, body] of parts) {
      const first = body[0]?.querySelector?.(':scope > h3');
      if (first && first.textContent === title) first.remove();
    }
    const el = shell(ctx, this, subtoc,
      parts.map(([id, title, body], i) => h('div', { class: 'subsec', id: `compare-${id}`, 'data-sub': id },
        h('h3', { class: 'subsec-title' }, `14.${i + 1} ${title}`), ...body)),
      h('p', {}, rich(t('s14.after'))));
    return { el };
  },
};
