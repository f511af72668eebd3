// Real <table>s (caption, th scope) for every block of numbers.
import { h } from './dom.js';

/**
 * table({ caption, columns: [header…], rows: [[rowHeader, cell…]…], className })
 * The first cell of each row is a row header (<th scope="row">). Cells may be strings or nodes.
 */
export function table({ caption, columns, rows, className = '', numeric = true, testid }) {
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h('table', { class: ['data', numeric ? 'numeric' : '', className], 'data-testid': testid },
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map((row) => h('tr', {},
        h('th', { scope: 'row' }, row[0]),
        row.slice(1).map((cell) => h('td', {}, cell)))))));
}
