// A page that works on a phone: at 320, 390 and 430 px, in English and in Korean, nothing is
// wider than the viewport (the page never scrolls sideways), and the tables that scroll inside
// their frame say so. An element may be wider only inside a frame that scrolls or clips it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite } from './helpers.mjs';

let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

/** Elements sticking out of the viewport and not clipped by a scrolling/clipping ancestor. */
function overflowing() {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const clips = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'visible') continue;
      const r = a.getBoundingClientRect();
      if (r.left >= -0.5 && r.right <= vw + 0.5) return true; // a frame on screen scrolls or clips it
    }
    return false;
  };
  const bad = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if ((r.right > vw + 0.5 || r.left < -0.5) && !clips(el)) {
      // The skip link waits off-screen until focused; MathML for screen readers is clipped to 1 px.
      if (el.closest('.skip, .katex-mathml')) continue;
      bad.add(el);
      if (bad.has(el.parentElement)) continue; // report the outermost element only
      const sec = el.closest('section[data-section]')?.dataset.section ?? '-';
      out.push(`§${sec} <${el.tagName.toLowerCase()} class="${el.className?.baseVal ?? el.className}"> ${Math.round(r.left)}…${Math.round(r.right)} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
  }
  return { vw, scroll: document.documentElement.scrollWidth, out: out.slice(0, 15), count: out.length };
}

for (const lang of ['en', 'ko']) {
  for (const width of [320, 390, 430]) {
    test(`${lang} at ${width} px: no element wider than the viewport, no error`, async () => {
      const page = await suite.open(`#lang=${lang}`, { width, height: 800 });
      const r = await page.evaluate(overflowing);
      assert.equal(r.scroll, r.vw, `page scrolls sideways: ${r.scroll} > ${r.vw}\n${r.out.join('\n')}`);
      assert.deepEqual(r.out, [], `${r.count} elements stick out`);
      const p = await page.problems();
      assert.deepEqual([...p.console, ...p.csp, ...p.foreign, ...p.pageErrors], []);
      await page.close();
    });
  }
}

test('a table wider than its frame shows the cue in the page language and keeps its row header in view', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await suite.open(`#lang=${lang}`, { width: 390, height: 800 });
    // The cue follows its frame's size one animation frame later (web/src/ui/table.js).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const cues = await page.$$eval('.table-wrap', (ws) => ws.map((w) => ({
      over: w.scrollWidth > w.clientWidth + 1,
      cue: w.querySelector(':scope > .table-cue'),
    })).map(({ over, cue }) => ({ over, shown: !!cue && !cue.hidden, text: cue?.textContent ?? '' })));
    assert.ok(cues.some((c) => c.over), 'some table scrolls at 390 px');
    for (const c of cues) assert.equal(c.shown, c.over);
    const text = cues.find((c) => c.over).text;
    assert.match(text, lang === 'ko' ? /옆으로/ : /to the side/);
    const sticky = await page.$eval('.table-wrap.overflows tbody th', (th) => getComputedStyle(th).position);
    assert.equal(sticky, 'sticky');
    await page.close();
  }
});

test('the tables the text points to reflow into cards at 390 px: every value visible, named by its column', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await suite.open(`#lang=${lang}`, { width: 390, height: 800 });
    for (const id of ['perm-table', 'pe-hands', 'layout-rot', 'rotate-half-table', 'code-form', 'simply-misconceptions', 'compare-table']) {
      const r = await page.$eval(`[data-testid="${id}"]`, (tb) => {
        const wrap = tb.closest('.table-wrap');
        const td = tb.querySelector('tbody td');
        return { scroll: wrap.scrollWidth, client: wrap.clientWidth, label: getComputedStyle(td, '::before').content, display: getComputedStyle(td).display };
      });
      assert.ok(r.scroll <= r.client + 1, `${lang} ${id}: ${r.scroll} > ${r.client}`);
      assert.equal(r.display, 'grid', id);
      assert.notEqual(r.label, 'none', id);
    }
    await page.close();
  }
});
