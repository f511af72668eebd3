// §19 (web/src/sections/19-train.js, train-worker.js): "train short, test long" in Chromium,
// in both languages. A short training (2 encodings, 1 seed, 20 steps at L = 16) runs in the
// Web Worker: the loss and accuracy plots draw, the table scores L … 8L, the reading names
// each article's claim with this run's figures, the attention maps of the trained and the
// untrained model draw and follow a typed input; a long run can be cancelled. (The default
// run's time is a benchmark, measured outside the tests.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, tableCells } from './helpers.mjs';

let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

const SHORT = 's19.steps=20&s19.seeds=1&s19.enc=1,5&s19.L=16';

for (const lang of ['en', 'ko']) {
  test(`${lang}: a short training draws the curves, the scores, the reading and the maps`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=19&${SHORT}`, { width: 1280, height: 900 });
    page.setDefaultTimeout(60000);
    await page.click('[data-testid="train-run"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="train-status"]')?.dataset.seconds);
    assert.equal(await page.$eval('[data-testid="train-progress"]', (p) => p.value), 1);
    // uPlot drew both charts, one series per encoding (+ x) in each legend.
    for (const id of ['train-loss', 'train-accuracy']) {
      assert.equal(await page.$$eval(`[data-testid="${id}"] .uplot canvas`, (c) => c.length), 1, id);
      assert.equal(await page.$$eval(`[data-testid="${id}"] .u-legend .u-series`, (s) => s.length), 3, id);
    }
    const rows = await tableCells(page, 'train-table');
    assert.deepEqual(rows.map((r) => r[0]), ['sinusoidal', 'rope-half']);
    for (const r of rows) {
      assert.equal(r.length, 5);
      for (const cell of r.slice(1)) {
        const v = Number(cell.replace(' %', ''));
        assert.ok(v >= 0 && v <= 100, cell);
      }
    }
    // The reading: each article's claim, and this run's verdict (T5 and learned not trained).
    const claims = await page.$$eval('[data-testid="train-reading"] li[data-claim]',
      (li) => li.map((l) => ({ claim: l.dataset.claim, text: l.textContent })));
    assert.deepEqual(claims.map((c) => c.claim), ['sin', 'learned', 't5', 'rope']);
    for (const c of claims) assert.ok(c.text.length > 80, c.text);
    const notRun = lang === 'en' ? /was not trained/ : /학습하지 않았습니다/;
    assert.match(claims[1].text, notRun);
    assert.match(claims[2].text, notRun);
    assert.match(claims[0].text, /sinusoidal/);
    assert.doesNotMatch(claims[0].text, notRun);
    assert.match(await page.textContent('[data-testid="train-reading"]'), /100 \/ 65 \/ 40 \/ 27 %/); // the recorded table
    // Attention maps: trained beside untrained for each encoding; a typed input redraws them.
    const maps = '[data-testid="train-maps"] canvas.heat-canvas';
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, maps);
    const ids = await page.$$eval('[data-testid="train-maps"] figure', (f) => f.map((x) => x.dataset.testid));
    assert.deepEqual(ids, ['train-map-sinusoidal-trained', 'train-map-sinusoidal-fresh', 'train-map-rope-half-trained',
      'train-map-rope-half-fresh']);
    const before = await page.$eval(maps, (c) => c.width);
    await page.fill('input[name="s19.input"]', 'abcabc');
    await page.press('input[name="s19.input"]', 'Enter');
    await page.waitForFunction(([sel, w]) => document.querySelector(sel)?.width !== w, [maps, before]);
    assert.equal(await page.$eval(maps, (c) => c.width), 6);
    await page.fill('input[name="s19.input"]', 'xyz');
    await page.press('input[name="s19.input"]', 'Enter');
    assert.match(await page.textContent('[data-testid="train-input-error"]'), lang === 'en' ? /a … p/ : /a … p/);
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });
}

test('a long run is cancelled at once, and the page can train again', async () => {
  const page = await suite.open('#lang=en&sec=19&s19.steps=2000&s19.seeds=5&s19.enc=0,1,2,3,4,5,6', { width: 1280, height: 900 });
  page.setDefaultTimeout(30000);
  // Opening a link trains nothing (so the schema tests, which render every section under many
  // hashes, never start a training): the run waits for the button.
  await page.waitForTimeout(300);
  assert.equal(await page.$eval('[data-testid="train-progress"]', (p) => p.value), 0);
  assert.match(await page.textContent('[data-testid="train-status"]'), /press Train/);
  await page.click('[data-testid="train-run"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="train-progress"]').value > 0);
  await page.click('[data-testid="train-cancel"]');
  assert.match(await page.textContent('[data-testid="train-status"]'), /Cancelled/);
  const value = await page.$eval('[data-testid="train-progress"]', (p) => p.value);
  await page.waitForTimeout(300);
  assert.equal(await page.$eval('[data-testid="train-progress"]', (p) => p.value), value); // nothing more arrives
  assert.equal(await page.$eval('[data-testid="train-run"]', (b) => b.disabled), false);
  assert.equal(await page.$eval('[data-testid="train-cancel"]', (b) => b.disabled), true);
  const p = await page.problems();
  assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
  await page.close();
});

test('ko: the text task trains on the page’s own Korean prose, byte by byte, and maps typed Korean', async () => {
  const page = await suite.open('#lang=ko&sec=19&s19.task=text&s19.steps=20&s19.seeds=1&s19.enc=5&s19.L=16', { width: 1280, height: 900 });
  page.setDefaultTimeout(60000);
  await page.click('[data-testid="train-run"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="train-status"]')?.dataset.seconds);
  assert.deepEqual((await tableCells(page, 'train-table')).map((r) => r[0]), ['rope-half']);
  const maps = '[data-testid="train-maps"] canvas.heat-canvas';
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, maps);
  await page.fill('input[name="s19.input"]', '위치');
  await page.press('input[name="s19.input"]', 'Enter');
  await page.waitForFunction((sel) => document.querySelector(sel)?.width === 6, maps); // two characters, six bytes
  const p = await page.problems();
  assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
  await page.close();
});
