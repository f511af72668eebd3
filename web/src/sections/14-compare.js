// 14. Which encoding when: a comparison of the four families (prose and a table; no numbers
// are computed here, so nothing to ask the package).
import { h } from '../ui/dom.js';
import { shell } from '../ui/section.js';
import { table } from '../ui/table.js';
import { rich } from '../ui/math.js';

const FAMILIES = ['sin', 'learned', 'bias', 'rope'];
const COLUMNS = ['params', 'extrap', 'where', 'cost'];

export default {
  num: 14,
  id: 'compare',
  params: {},
  mount(ctx) {
    const { t } = ctx;
    const el = shell(ctx, this,
      table({
        caption: t('s14.caption'),
        columns: [t('s14.family'), ...COLUMNS.map((c) => t(`s14.col.${c}`))],
        rows: FAMILIES.map((f) => [t(`s14.${f}.name`), ...COLUMNS.map((c) => h('span', {}, rich(t(`s14.${f}.${c}`))))]),
        numeric: false, className: 'compare', testid: 'compare-table',
      }),
      h('p', {}, rich(t('s14.after'))));
    return { el };
  },
};
