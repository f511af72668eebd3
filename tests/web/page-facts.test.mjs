// The demo page at its defaults: it loads cleanly under the strict CSP, talks to no other host,
// and shows the numbers of the worked facts where the sections say so. With POSENC_SHOTS=1,
// screenshots at phone and desktop widths go to build/screenshots/ (look at them; 50 s of
// rendering, so not in every run); with POSENC_FULL_SHOTS=1 the whole-page ones too (a minute more).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSuite, tableCells, num, golden, SHOTS } from './helpers.mjs';

const FULL = process.env.POSENC_FULL_SHOTS === '1';
const SHOTS_ON = FULL || process.env.POSENC_SHOTS === '1';
let suite;
let page;
before(async () => {
  suite = await startSuite();
  page = await suite.open('#lang=en');
});
after(async () => { await suite?.close(); });

const close = (text, want, tol, what) => {
  const got = num(text);
  assert.ok(Math.abs(got - want) <= tol, `${what}: page shows ${text}, expected ${want} ± ${tol}`);
};

test('every section renders (no failure note) and the engine is reported', async () => {
  const sections = await page.$$eval('section[data-section]', (els) => els.map((e) => Number(e.dataset.section)));
  // The articles' path (1–16), the real-models part (17, 18), the lab (19).
  assert.deepEqual(sections, [...Array(19).keys()].map((i) => i + 1));
  const failed = await page.$$eval('section .note.warn', (els) => els.map((e) => e.textContent));
  assert.deepEqual(failed, []);
  assert.match(await page.textContent('[data-testid="engine"]'), /SIMD/);
});

test('§3 ladder: d=8, b=10000 gives θ = 1, 0.1, 0.01, 0.001 and λ ≈ 6.28 … 6283', async () => {
  const rows = await tableCells(page, 'ladder-table');
  assert.deepEqual(rows.map((r) => r[0]), ['0', '1', '2', '3']);
  assert.deepEqual(rows.map((r) => num(r[1])), [1, 0.1, 0.01, 0.001]);
  assert.deepEqual(rows.map((r) => r[2]), ['2π', '20π', '200π', '2\u202f000π']);
  [6.283, 62.83, 628.3, 6283].forEach((want, i) => close(rows[i][3], want, want * 1e-3, `λ${i}`));
  const g = golden('ladder.json');
  if (g) {
    const d8 = g.cases.find((c) => c.name === 'd8-design').expected;
    rows.forEach((r, i) => {
      assert.equal(num(r[1]), d8.invFreq[i], `golden θ${i}`);
      close(r[3], d8.wavelengths[i], d8.wavelengths[i] * 5e-4, `golden λ${i}`);
    });
  }
});

test('§4 table: PE rows p=0..3 at d=8 (4 decimals) and PE(1) at d=4 (5 digits)', async () => {
  const want = [
    [0, 1, 0, 1, 0, 1, 0, 1],
    [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
    [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
    [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000],
  ];
  const rows = await tableCells(page, 'pe-table');
  assert.equal(rows.length, 4);
  rows.forEach((r, p) => {
    assert.equal(r[0], String(p));
    assert.deepEqual(r.slice(1).map(num), want[p], `row p=${p}: ${r.join(' ')}`);
  });
  const small = (await tableCells(page, 'pe-small'))[0];
  assert.deepEqual(small.slice(1), ['0.84147', '0.54030', '0.0099998', '0.99995']);
  // The same rows against the float64 golden vectors shared with the C++ and JS tests.
  const g = golden('sinusoidal.json');
  if (g) {
    const d8 = g.cases.find((c) => c.name === 'd8-rows0to3-interleaved').expected.values;
    rows.forEach((r, p) => r.slice(1).forEach((text, j) => {
      assert.equal(num(text), Number(d8[p * 8 + j].toFixed(4)), `golden d8 p=${p} j=${j}`);
    }));
    const d4 = g.cases.find((c) => c.name === 'd4-row1-interleaved').expected.values;
    small.slice(1).forEach((text, j) => assert.equal(num(text), Number(d4[j].toPrecision(5)), `golden d4 j=${j}`));
  }
});

test('§5 properties: every ‖PE(p)‖ = 4.0000 at d = 32, values within [−1, 1]', async () => {
  const rows = await tableCells(page, 'pe-norms');
  assert.ok(rows.length >= 4);
  for (const r of rows) assert.equal(r[1], '4.0000', `‖PE(${r[0]})‖`);
  const bounds = await page.textContent('[data-testid="pe-bounds"]');
  const [lo, hi] = bounds.match(/[−-]?\d+\.\d+/g).map(num);
  assert.ok(lo >= -1 && hi <= 1 && lo < -0.99 && hi > 0.99, bounds);
});

test('§6 shift: M(3)·PE(5) = PE(8) begins 0.98936 −0.14550 0.71736 0.69671', async () => {
  const rows = await tableCells(page, 'shift-compare');
  const want = ['0.98936', '−0.14550', '0.71736', '0.69671'];
  assert.deepEqual(rows.slice(0, 4).map((r) => r[1]), want, 'M(3)·PE(5)');
  assert.deepEqual(rows.slice(0, 4).map((r) => r[2]), want, 'PE(8)');
  assert.ok(num((await page.textContent('[data-testid="shift-error"]')).replace(' × 10', 'e').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/, (s) => s.replace(/./g, (c) => '0123456789-'['⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.indexOf(c)]))) < 1e-6);
});

test('§8 hand check: −0.29552 for (2,5), (5,8), (0,3), (97,100)', async () => {
  const rows = await tableCells(page, 'pair-check');
  assert.deepEqual(rows.map((r) => r[0]), ['(2, 5)', '(5, 8)', '(0, 3)', '(97, 100)']);
  for (const r of rows) assert.equal(r[2], '−0.29552', `score at ${r[0]}`);
});

test('§1 permutation: ~1e−7 without positions, large with PE or RoPE', async () => {
  const rows = await tableCells(page, 'perm-all');
  const value = (t) => num(t.replace(' × 10', 'e').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/, (s) => s.replace(/./g, (c) => '0123456789-'['⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.indexOf(c)])));
  assert.equal(rows.length, 3);
  assert.ok(value(rows[0][1]) < 1e-5, `none: ${rows[0][1]}`);
  assert.ok(value(rows[1][1]) > 1e-3, `additive: ${rows[1][1]}`);
  assert.ok(value(rows[2][1]) > 1e-3, `rotary: ${rows[2][1]}`);
});

test('accessibility basics: every control is labelled, pictures have names, tables have captions', async () => {
  const unlabelled = await page.$$eval('input, select, textarea, button', (els) => els.filter((e) => {
    if (e.closest('.u-legend')) return false;  // uPlot's own legend toggles
    const named = e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
      || (e.id && document.querySelector(`label[for="${e.id}"]`)) || e.closest('label')
      || (e.tagName === 'BUTTON' && e.textContent.trim());
    return !named;
  }).map((e) => e.outerHTML.slice(0, 120)));
  assert.deepEqual(unlabelled, []);
  const unnamed = await page.$$eval('canvas.heat-canvas, svg[role="img"], [role="img"]',
    (els) => els.filter((e) => !e.getAttribute('aria-label')).map((e) => e.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  const bare = await page.$$eval('table.data', (ts) => ts.filter((t) => !t.querySelector('caption')?.textContent.trim()).length);
  assert.equal(bare, 0);
  // Keyboard: every heatmap canvas and every draggable handle can take focus.
  const unfocusable = await page.$$eval('canvas.heat-canvas, [data-handle]', (els) => els.filter((e) => e.tabIndex < 0).length);
  assert.equal(unfocusable, 0);
});

test('no console error, no CSP violation, no request outside localhost', async () => {
  const p = await page.problems();
  assert.deepEqual(p.pageErrors, []);
  assert.deepEqual(p.console, []);
  assert.deepEqual(p.csp, []);
  assert.deepEqual(p.foreign, []);
});

test('screenshots at 1440×900 and 390×844 (English and Korean)', { skip: !SHOTS_ON && 'POSENC_SHOTS=1 takes them' }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'page-1440-en.png'), timeout: 30000 });
  if (FULL) await page.screenshot({ path: join(SHOTS, 'page-1440-en-full.png'), fullPage: true, timeout: 120000 });
  await (await page.$('section[data-section="9"]')).screenshot({ path: join(SHOTS, 'section9-1440-en.png'), timeout: 30000 });
  await (await page.$('section[data-section="15"]')).screenshot({ path: join(SHOTS, 'section15-1440-en.png'), timeout: 30000 });
  const koWide = await suite.open('#lang=ko&sec=8', { width: 1440, height: 900 });
  await koWide.waitForTimeout(300);
  await koWide.screenshot({ path: join(SHOTS, 'page-1440-ko-sec8.png'), timeout: 30000 });
  await koWide.close();
  const enPhone = await suite.open('#lang=en&sec=9', { width: 390, height: 844 });
  await enPhone.waitForTimeout(300);
  await enPhone.screenshot({ path: join(SHOTS, 'page-390-en-sec9.png'), timeout: 30000 });
  await enPhone.close();
  const koPhone15 = await suite.open('#lang=ko&sec=15', { width: 390, height: 844 });
  await koPhone15.waitForTimeout(300);
  await (await koPhone15.$('section[data-section="15"]')).screenshot({ path: join(SHOTS, 'section15-390-ko.png'), timeout: 30000 });
  await koPhone15.close();
  const phone = await suite.open('#lang=ko', { width: 390, height: 844 });
  await phone.screenshot({ path: join(SHOTS, 'page-390-ko.png'), timeout: 30000 });
  if (FULL) await phone.screenshot({ path: join(SHOTS, 'page-390-ko-full.png'), fullPage: true, timeout: 120000 });
  const p = await phone.problems();
  assert.deepEqual([...p.console, ...p.csp, ...p.foreign, ...p.pageErrors], []);
  // Nothing may overflow the phone viewport horizontally.
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the 390px viewport`);
  await phone.close();
});
