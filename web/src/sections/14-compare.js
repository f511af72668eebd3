// 14. Which encoding when: article 001's methods table (a)–(d) with its parameter counts from
// the package, the four families live on one q, k with a trained length L, article 003's
// relative-position lineage as score decompositions, and article 002's plain-words view.
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
    const el = shell(ctx, this,
      table({
        caption: t('s14.caption'),
        columns: [t('s14.family'), ...COLUMNS.map((c) => t(`s14.col.${c}`))],
        rows: FAMILIES.map((f) => [t(`s14.${f}.name`), ...COLUMNS.map((c) => h('span', {}, rich(t(`s14.${f}.${c}`, { n: int(embedding) }))))]),
        numeric: false, className: 'compare', testid: 'compare-table',
      }),
      h('p', {}, rich(t('s14.extrapNote'))),
      h('pre', { class: 'code', tabindex: '0', 'data-testid': 'compare-code' }, h('code', {}, t('s14.code', { n: int(embedding) }))),
      familiesPanel(ctx).el,
      lineagePanel(ctx).el,
      simplyPanel(ctx),
      h('p', {}, rich(t('s14.after'))));
    return { el };
  },
};
