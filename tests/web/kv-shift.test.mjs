// §17 (web/src/sections/17-kv-shift.js, web/src/api-kv.js): a KV cache after eviction, in
// both languages at desktop and phone widths. The shifted cache (rope.shift by −N) scores as
// the keys rotated from scratch, the unshifted one does not; a thousand shifts stay at
// rounding level; M-RoPE ids recomputed by pe.mropePositions move every axis by −N.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, tableCells, num, setNumber, VIEWS_B } from './helpers.mjs';

let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

const sci = (text) => num(String(text).replace(/ × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, (m, e) => `e${[...e].map((c) => '-0123456789'['⁻⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)]).join('')}`));
const first = (text) => sci(text.split(' (')[0]);

for (const [lang, width] of VIEWS_B) {
  test(`${lang} ${width} px: shifted = from scratch to rounding, not shifted is wrong, no drift, M-RoPE moves every axis`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=17`, { width, height: 900 });
    const read = async (id) => page.textContent(`[data-testid="${id}"]`);
    const check = async () => {
      assert.ok(first(await read('kv-gap-shift')) < 1e-5, await read('kv-gap-shift'));
      assert.ok(first(await read('kv-gap-stale')) > 0.1, await read('kv-gap-stale'));
      assert.ok(sci(await read('kv-gap-keys')) < 1e-6, await read('kv-gap-keys'));
    };
    await check();
    // A cache that starts at position 10⁶: the same.
    await setNumber(page, 's17.p', 1000000);
    await page.waitForFunction(() => /s17\.p=1000000/.test(location.hash));
    await check();
    assert.match(await read('kv-where'), /1000000/);
    const drift = await tableCells(page, 'kv-drift');
    assert.deepEqual(drift.map((r) => r[0]), ['1', '10', '100', '1000']);
    for (const [, gap] of drift) assert.ok(sci(gap) < 1e-5, `drift ${gap}`);
    // M-RoPE: every id of every kept token drops by N; shifting t alone is wrong.
    for (const n of [8, 3]) {
      if (n !== 8) await setNumber(page, 's17.mn', n);
      await page.waitForFunction((n) => document.querySelector('[data-testid="kv-mrope-ids"]')?.textContent.includes(`(−${n}, −${n}, −${n})`), n);
      const rows = await tableCells(page, 'kv-mrope-ids');
      assert.equal(rows.length, 4);
      for (const r of rows) assert.equal(r[3].replace(/^.*?\(/, '('), `(−${n}, −${n}, −${n})`);
      assert.ok(first(await read('kv-mrope-shift')) < 1e-5);
      assert.ok(first(await read('kv-mrope-temporal')) > 1e-2);
    }
    // Lowering T below N brings N down to T − 1, in the box and the link.
    await setNumber(page, 's17.T', 10);
    await page.waitForFunction(() => /s17\.N=9(&|$)/.test(location.hash));
    assert.equal(await page.inputValue('input[type="number"][name="s17.N"]'), '9');
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });
}

test('parts: the table of contents lists the parts, and its links keep the whole view', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await suite.open(`#lang=${lang}`, { width: 1280, height: 900 });
    const parts = await page.$$eval('#toc [data-part]', (as) => as.map((a) => a.dataset.part));
    assert.deepEqual(parts, ['articles', 'models', 'lab']);
    assert.equal(await page.$$eval('#main .part-head', (ps) => ps.length), 3);
    // §17 sits in the real-models part, after its heading.
    assert.ok(await page.$eval('#part-models', (p) => !!(p.compareDocumentPosition(document.getElementById('kv-shift')) & Node.DOCUMENT_POSITION_FOLLOWING)));
    await setNumber(page, 's17.T', 64);
    await page.waitForFunction(() => /s17\.T=64/.test(document.querySelector('#toc a[data-sec="3"]').getAttribute('href')));
    const href = await page.getAttribute('#toc a[data-sec="3"]', 'href');
    assert.match(href, new RegExp(`lang=${lang}`));
    assert.match(href, /sec=3/);
    // Opening that link elsewhere gives the same view, scrolled to §3.
    const other = await suite.open(href, { width: 390, height: 800 });
    assert.equal(await other.inputValue('input[type="number"][name="s17.T"]'), '64');
    const top = await other.$eval('section#ladder', (s) => s.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 120, `§3 top at ${top}`);
    assert.equal(await other.$$eval('section.pending, [aria-busy="true"]', (s) => s.length), 0);
    await other.close();
    await page.close();
  }
});
