// Real <table>s (caption, th scope) for every block of numbers. On a narrow screen a table
// either reflows into one card per row (`reflow`: each cell carries its column's name) or
// scrolls inside its frame with the row header kept in view and a visible "more to the side"
// cue while columns are hidden.
import { h } from './dom.js';

let cueText = '';
/** The cue's words in the page's language (set by the page on each render). */
export function setTableCue(text) { cueText = text; }

// One observer for every table frame: the cue shows only while the table overflows. Shown or
// hidden in the next frame: the cue changes the frame's height, which inside the observer's
// callback is reported as a "ResizeObserver loop" error.
const frames = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
  const targets = entries.map((e) => e.target);
  requestAnimationFrame(() => {
    for (const target of targets) {
      const hidden = target.scrollWidth <= target.clientWidth + 1;
      target.classList.toggle('overflows', !hidden);
      const cue = target.querySelector(':scope > .table-cue');
      if (cue) cue.hidden = hidden;
    }
  });
}) : null;

const labelOf = (c) => (typeof c === 'string' ? c : c?.textContent ?? '');

/**
 * table({ caption, columns: [header…], rows: [[rowHeader, cell…]…], className, reflow })
 * The first cell of each row is a row header (<th scope="row">). Cells may be strings or nodes.
 */
export function table({ caption, columns, rows, className = '', numeric = true, testid, reflow = false }) {
  const cue = h('p', { class: 'table-cue', hidden: true, 'aria-hidden': 'true' }, cueText);
  const wrap = h('div', { class: ['table-wrap', reflow ? 'reflow' : ''], tabindex: '0', role: 'region', 'aria-label': caption },
    cue,
    h('table', { class: ['data', numeric ? 'numeric' : '', reflow ? 'reflow' : '', className], 'data-testid': testid },
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map((row) => h('tr', {},
        h('th', { scope: 'row', 'data-label': labelOf(columns[0]) }, row[0]),
        row.slice(1).map((cell, i) => h('td', { 'data-label': labelOf(columns[i + 1]) }, cell)))))));
  frames?.observe(wrap);
  return wrap;
}
