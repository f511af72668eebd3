// KaTeX typesetting and a minimal prose markup for the i18n strings.
// katex.render builds DOM nodes and sets styles through the CSSOM (allowed by our CSP),
// unlike renderToString + innerHTML, which a strict style-src would break.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { h } from './dom.js';

/**
 * A typeset formula element (display mode by default). An array of sources gives one display
 * block whose parts wrap onto separate lines on narrow screens instead of scrolling.
 */
export function tex(source, { display = true, label } = {}) {
  if (Array.isArray(source)) {
    return h('div', { class: 'math display multi' }, source.map((part) => {
      const el = h('span', { class: 'math-part' });
      katex.render(part, el, { displayMode: false, throwOnError: false, strict: false, output: 'htmlAndMathml' });
      return el;
    }));
  }
  const el = h(display ? 'div' : 'span', { class: display ? 'math display' : 'math' });
  katex.render(source, el, { displayMode: display, throwOnError: false, strict: false, output: 'htmlAndMathml' });
  if (label) el.setAttribute('aria-label', label);
  return el;
}

/**
 * Our prose markup, applied to strings WE wrote (i18n files), never to visitor input:
 *   $…$ inline math · **bold** · *emphasis* · `code`
 * Returns an array of nodes to append to a paragraph.
 */
export function rich(text) {
  const nodes = [];
  const pattern = /\$([^$]+)\$|\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
    const [, math, bold, em, code] = match;
    if (math !== undefined) nodes.push(tex(math, { display: false }));
    else if (bold !== undefined) nodes.push(h('strong', {}, bold));
    else if (em !== undefined) nodes.push(h('em', {}, em));
    else nodes.push(h('code', {}, code));
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** Paragraphs from a string (blank line = new paragraph) or an array of strings. */
export function paragraphs(text, cls) {
  const parts = Array.isArray(text) ? text : String(text).split(/\n\s*\n/);
  return parts.map((p) => h('p', { class: cls }, rich(p.trim())));
}
