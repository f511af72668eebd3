// An article's code shown as code (a <figure> with <pre><code>), beside what the page computes.
// The code is text from our i18n files, inserted as textContent.
import { h } from '../ui/dom.js';

export function codeBlock(caption, code) {
  return h('figure', { class: 'code-figure' },
    h('figcaption', {}, caption),
    h('pre', { class: 'code', tabindex: '0' }, h('code', {}, code)));
}
