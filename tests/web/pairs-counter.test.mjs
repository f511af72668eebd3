// §8's phasor view (web/src/sections/phasors.js: api.js allPairs) and §3's continuous binary
// counter (web/src/sections/binary-counter.js), in both languages at desktop and phone widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, num, setNumber, VIEWS_B } from './helpers.mjs';

let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

const dialValues = (page) => page.$$eval('[data-testid="phasor-dials"] .dial-value', (os) => os.map((o) => o.textContent));

for (const [lang, width] of VIEWS_B) {
  test(`${lang} ${width} px: one dial per pair, the shares add up to pe.scores, and moving m and n together changes no share`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=8`, { width, height: 900 });
    assert.equal((await dialValues(page)).length, 8);
    const sum = num(await page.textContent('[data-testid="phasor-sum"]'));
    const score = num(await page.textContent('[data-testid="phasor-score"]'));
    assert.ok(Math.abs(sum - score) <= 2e-5, `${sum} vs ${score}`);
    const before = await dialValues(page);
    const hands = await page.$$eval('.dial line', (ls) => ls.map((l) => l.getAttribute('x2')));
    // Both positions up by 1 (the Play step, here through the two number boxes).
    await setNumber(page, 's8.m', 3);
    await setNumber(page, 's8.n', 6);
    await page.waitForFunction(() => /s8\.m=3/.test(location.hash) && /s8\.n=6/.test(location.hash));
    assert.deepEqual(await dialValues(page), before);
    assert.notDeepEqual(await page.$$eval('.dial line', (ls) => ls.map((l) => l.getAttribute('x2'))), hands);
    // n alone: the fastest pair's share changes.
    await setNumber(page, 's8.n', 9);
    await page.waitForFunction((v) => document.querySelector('[data-pair="0"] .dial-value').textContent !== v, before[0]);
    // More pairs: d = 64 gives 32 dials, still adding up.
    await setNumber(page, 's8.d', 64);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="phasor-dials"] .dial-box').length === 32);
    assert.ok(Math.abs(num(await page.textContent('[data-testid="phasor-sum"]')) - num(await page.textContent('[data-testid="phasor-score"]'))) <= 5e-5);
    // The one-pair drawing shows the parallelogram and the angle δθ.
    assert.equal(await page.$$eval('section#pair .pair-area', (e) => e.length), 1);
    assert.equal(await page.textContent('section#pair .pair-arc text'), 'δθ');
    // Play moves the positions (n only here) and the dials follow; pressing again stops.
    await page.click('[data-testid="phasor-play-n"]');
    await page.waitForFunction(() => !/s8\.n=9(&|$)/.test(location.hash), null, { timeout: 10000 });
    await page.click('[data-testid="phasor-play-n"]');
    assert.equal(await page.getAttribute('[data-testid="phasor-play-n"]', 'aria-pressed'), 'false');
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });

  test(`${lang} ${width} px: the binary counter's bits are p in base two, next to the ladder θ_j = 2^−j`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=3`, { width, height: 900 });
    for (const p of [37, 64, 127]) {
      if (p !== 37) await setNumber(page, 's3.bp', p);
      await page.waitForFunction((p) => document.querySelector('[data-testid="counter-binary"]').textContent.startsWith(`p = ${p} `), p);
      assert.equal(await page.textContent('[data-testid="counter-binary"]'), `p = ${p} = ${p.toString(2).padStart(7, '0')}₂`);
      const digits = await page.$$eval('.counter-digit', (ds) => ds.map((d) => d.textContent));
      assert.deepEqual(digits, [...Array(7).keys()].map((j) => String((p >> j) & 1)));
    }
    const rows = await page.$$eval('.counter-row', (rs) => rs.map((r) => r.textContent));
    assert.match(rows[0], /θ = 1\.00/);
    assert.match(rows[3], /θ = 0\.125/);
    // sin(127·2^−3) = sin(15.875)
    assert.match(rows[3], new RegExp(`sin pθ = ${Math.sin(127 / 8).toFixed(3).replace('-', '−')}`));
    assert.equal(await page.$$eval('.counter-bit', (ps) => ps.length), 7);
    await page.close();
  });
}

test('every button that loads an article’s numbers is marked as an article preset', async () => {
  const page = await suite.open('#lang=en');
  for (const id of ['pair-preset-58', 'ladder-preset-003']) {
    assert.match(await page.getAttribute(`[data-testid="${id}"]`, 'data-preset'), /^article/);
  }
  await page.close();
});
