// The demo page reacts as it should: dim, base, k, shift s, layout, language, shuffle; the URL
// hash round-trips the state, and a malformed hash falls back to defaults with a visible note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, tableCells, num, setNumber } from './helpers.mjs';

let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

async function clean(page) {
  const p = await page.problems();
  assert.deepEqual([...p.pageErrors, ...p.console, ...p.csp, ...p.foreign], []);
}

test('dim and base change the ladder, and the hash follows', async () => {
  const page = await suite.open('#lang=en');
  await setNumber(page, 's3.d', 4);
  let rows = await tableCells(page, 'ladder-table');
  assert.deepEqual(rows.map((r) => num(r[1])), [1, 0.01]);
  await setNumber(page, 's3.b', 100);
  rows = await tableCells(page, 'ladder-table');
  assert.deepEqual(rows.map((r) => num(r[1])), [1, 0.1]);
  await page.waitForFunction(() => /s3\.b=100/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /s3\.d=4/);
  assert.match(hash, /s3\.b=100/);
  // Round trip: a new page opened on that hash shows the same state.
  const again = await suite.open(hash);
  assert.deepEqual(await tableCells(again, 'ladder-table'), rows);
  assert.equal(await again.inputValue('input[type="number"][name="s3.d"]'), '4');
  await clean(page);
  await clean(again);
  await page.close();
  await again.close();
});

test('a pasted hash draws again only the sections whose values changed; a language change redraws all', async () => {
  const page = await suite.open('#lang=en');
  await page.waitForSelector('body[data-ready="true"]');
  // Tag every mounted section: a section drawn again is a new element without the tag.
  await page.evaluate(() => { for (const el of document.querySelectorAll('#main > section[data-section]')) el.dataset.before = '1'; });
  const untouched = () => page.$$eval('#main > section[data-section]', (els) => els.filter((e) => e.dataset.before).map((e) => Number(e.dataset.section)));
  const all = await untouched();
  await page.evaluate(() => { location.hash = '#lang=en&s3.d=4'; });
  await page.waitForFunction(() => !document.querySelector('#main > section[data-section="3"]').dataset.before);
  assert.deepEqual(await untouched(), all.filter((n) => n !== 3));
  assert.deepEqual((await tableCells(page, 'ladder-table')).map((r) => num(r[1])), [1, 0.01]);
  await page.evaluate(() => { location.hash = '#lang=ko&s3.d=4'; });
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.deepEqual(await untouched(), []);
  await clean(page);
  await page.close();
});

test('k changes the shift section: M(1)·PE(5) = PE(6)', async () => {
  const page = await suite.open('#lang=en');
  await setNumber(page, 's6.k', 1);
  const rows = await tableCells(page, 'shift-compare');
  // sin 6, cos 6, sin 0.6, cos 0.6
  assert.deepEqual(rows.slice(0, 4).map((r) => r[2]), ['−0.27942', '0.96017', '0.56464', '0.82534']);
  assert.deepEqual(rows.slice(0, 4).map((r) => r[1]), ['−0.27942', '0.96017', '0.56464', '0.82534']);
  await clean(page);
  await page.close();
});

test('layout switches the table to [sin… | cos…]', async () => {
  const page = await suite.open('#lang=en&s4.layout=concat');
  const rows = await tableCells(page, 'pe-table');
  // p = 1, d = 8, concat: sin 1, sin 0.1, sin 0.01, sin 0.001, cos 1, cos 0.1, cos 0.01, cos 0.001
  assert.deepEqual(rows[1].slice(1).map(num), [0.8415, 0.0998, 0.0100, 0.0010, 0.5403, 0.9950, 1.0000, 1.0000]);
  const header = await page.$$eval('[data-testid="pe-table"] thead th', (ths) => ths.map((t) => t.textContent));
  assert.equal(header[2], 'sin θ₁');
  // The text view draws the heatmap with characters, one line per position.
  await page.click('[data-param="s4.view"] label:has-text("text")');
  const lines = (await page.textContent('pre.text-heat')).split('\n');
  assert.equal(lines.length, 100);
  assert.equal(lines[0].length, 64);
  assert.match(lines.join(''), /^[ .:\-=+*#%@]+$/);
  await page.click('[data-param="s4.layout"] label:has-text("interleaved")');
  const back = await tableCells(page, 'pe-table');
  assert.deepEqual(back[1].slice(1, 3).map(num), [0.8415, 0.5403]);
  await clean(page);
  await page.close();
});

test('shift s = 10⁶: RoPE scores stay put to float32 noise; float32 angles drift', async () => {
  const page = await suite.open('#lang=en&s9.T=32');
  await setNumber(page, 's9.s', 1000000);
  await page.waitForSelector('[data-testid="dev-posenc"][data-shift="1000000"]');
  const ours = await page.textContent('[data-testid="dev-posenc"]');
  const rel = (t) => {
    const m = t.match(/relative ([^)]+)\)/) ?? t.match(/상대 ([^)]+)\)/);
    return num(m[1].replace(' × 10', 'e').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/, (s) => s.replace(/./g, (c) => '0123456789-'['⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.indexOf(c)])));
  };
  assert.ok(rel(ours) < 1e-5, `posenc deviation at s = 10⁶: ${ours}`);
  const theirs = await page.textContent('[data-testid="dev-float32"]');
  if (!/not available/.test(theirs)) assert.ok(rel(theirs) > 10 * rel(ours), `float32 angles: ${theirs} vs ${ours}`);
  await page.waitForFunction(() => /s9\.s=1000000/.test(location.hash));
  await clean(page);
  await page.close();
});

test('shuffle re-orders the sentence; without positions the outputs do not change', async () => {
  const page = await suite.open('#lang=en&s1.pair=shuffle');
  const before1 = await page.textContent('[data-testid="shuffled-sentence"]');
  await page.click('[data-testid="shuffle"]');
  const after1 = await page.textContent('[data-testid="shuffled-sentence"]');
  assert.notEqual(after1, before1);
  const rows = await tableCells(page, 'perm-table');
  for (const r of rows) assert.equal(r[1], r[2], `word ${r[0]}`);
  await page.click('[data-param="s1.mode"] label:has-text("RoPE")');
  const rope = await tableCells(page, 'perm-table');
  assert.ok(rope.some((r) => r[1] !== r[2]), 'with RoPE some word must change');
  await clean(page);
  await page.close();
});

test('language: switch to Korean, remembered, and defaulted from navigator.language', async () => {
  const page = await suite.open('#lang=en');
  await page.click('button[data-lang="ko"]');
  assert.equal(await page.getAttribute('html', 'lang'), 'ko');
  assert.match(await page.textContent('h1'), /위치 인코딩/);
  assert.match(await page.evaluate(() => location.hash), /lang=ko/);
  // The numbers are the same in either language.
  assert.equal((await tableCells(page, 'pair-check'))[0][2], '−0.29552');
  // Remembered: the same browser profile, no hash → Korean.
  const again = await suite.open('');
  assert.equal(await again.getAttribute('html', 'lang'), 'ko');
  // A Korean browser with nothing remembered gets Korean; an English one gets English.
  const koBrowser = await suite.open('', { locale: 'ko-KR' });
  assert.equal(await koBrowser.getAttribute('html', 'lang'), 'ko');
  const enBrowser = await suite.open('', { locale: 'en-GB' });
  assert.equal(await enBrowser.getAttribute('html', 'lang'), 'en');
  for (const p of [page, again, koBrowser, enBrowser]) { await clean(p); await p.close(); }
});

test('a malformed hash falls back to defaults with a visible note and no error', async () => {
  const page = await suite.open('#lang=xx&s3.d=7&s9.s=abc&s4.rows=1,,2&bogus=1&%E0%A4%A=1&s3.b=1e400&constructor=1&__proto__=1&s8.q=5');
  const note = await page.textContent('[data-testid="hash-note"]');
  for (const key of ['lang=xx', 's3.d=7', 's9.s=abc', 'bogus', 's3.b', 'constructor', '__proto__', 's8.q=5']) assert.ok(note.includes(key), `note names ${key}: ${note}`);
  const rows = await tableCells(page, 'ladder-table');
  assert.deepEqual(rows.map((r) => num(r[1])), [1, 0.1, 0.01, 0.001]);
  assert.equal((await tableCells(page, 'pe-table')).length, 4);
  // The page rewrites the hash to the valid state.
  assert.doesNotMatch(await page.evaluate(() => location.hash), /bogus|s3\.d=7/);
  // Text from the hash is shown as text, never parsed as markup.
  const evil = await suite.open('#s3.d=%3Cimg%20src%3Dx%3E');
  assert.match(await evil.textContent('[data-testid="hash-note"]'), /<img src=x>/);
  assert.equal(await evil.locator('#notes img').count(), 0);
  await evil.close();
  // A hash typed later is validated the same way.
  await page.evaluate(() => { location.hash = '#lang=en&s3.d=-2'; });
  await page.waitForSelector('[data-testid="hash-note"]');
  assert.match(await page.textContent('[data-testid="hash-note"]'), /s3\.d=-2/);
  await clean(page);
  await page.close();
});

test('attention: heads and causal mask change the heatmaps (read through the keyboard read-out)', async () => {
  const page = await suite.open('#lang=en&s13.heads=3');
  assert.equal(await page.locator('[data-testid^="attn-head-"]').count(), 3);
  const weightAt01 = async () => {
    const canvas = page.locator('[data-testid="attn-head-0"] canvas.heat-canvas');
    await canvas.focus();
    await canvas.press('ArrowRight');  // from (0, 0) to row 0, column 1
    const text = await page.locator('[data-testid="attn-head-0"] .heat-readout').textContent();
    return num(text.match(/([−-]?\d+\.\d+)\s*$/)[1]);
  };
  assert.equal(await weightAt01(), 0, 'causal: the first word cannot attend to the second');
  await page.click('[data-param="s13.causal"] + label, label:has-text("Causal mask")');
  assert.ok(await weightAt01() > 0, 'without the mask it can');
  await setNumber(page, 's13.heads', 1);
  assert.equal(await page.locator('[data-testid^="attn-head-"]').count(), 1);
  await clean(page);
  await page.close();
});

test('speed: the three implementations are timed side by side', async () => {
  const page = await suite.open('#lang=en&s16.tokens=16');
  await page.click('[data-testid="speed-run"]');
  await page.waitForSelector('[data-testid="speed-table"]', { timeout: 20000 });
  const rows = await tableCells(page, 'speed-table');
  assert.equal(rows.length, 3);
  assert.match(rows[0][0], /SIMD/);
  assert.match(rows[2][0], /plain/);
  for (const r of rows) assert.match(r[1], /^\d+\.\d+ ms$/);
  await clean(page);
  await page.close();
});

test('the section named in the hash is scrolled into view', async () => {
  const page = await suite.open('#lang=en&sec=9');
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-section="9"]').getBoundingClientRect();
    return r.top < window.innerHeight / 2 && r.bottom > 0;
  });
  await clean(page);
  await page.close();
});

test('the clocks advance when Play is pressed and stop on Pause', async () => {
  const page = await suite.open('#lang=en');
  const p0 = num((await page.textContent('[data-testid="clock-p"]')).replace('p = ', ''));
  await page.click('[data-testid="clock-play"]');
  await page.waitForFunction((start) => {
    const t = document.querySelector('[data-testid="clock-p"]').textContent.replace('p = ', '');
    return Number(t.replace(/\s/g, '')) >= start + 3;
  }, p0);
  await page.click('[data-testid="clock-play"]');
  assert.equal(await page.getAttribute('[data-testid="clock-play"]', 'aria-pressed'), 'false');
  await clean(page);
  await page.close();
});

test('positions list: bad input is refused with a message, good input redraws the table', async () => {
  const page = await suite.open('#lang=en');
  const box = page.locator('input[name="s4.rows"]');
  await box.fill('0, 1, x');
  await box.press('Enter');
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  assert.equal((await tableCells(page, 'pe-table')).length, 4);
  await box.fill('5, 1000000');
  await box.press('Enter');
  const rows = await tableCells(page, 'pe-table');
  assert.deepEqual(rows.map((r) => r[0]), ['5', '1000000']);
  await clean(page);
  await page.close();
});

test('RoPE pair: the arrow keys move q and the score follows', async () => {
  const page = await suite.open('#lang=en');
  const before = await page.textContent('[data-testid="pair-score"]');
  const handle = page.locator('[data-handle="s8.q"]');
  await handle.focus();
  await handle.press('ArrowUp');
  await handle.press('ArrowUp');
  const after = await page.textContent('[data-testid="pair-score"]');
  assert.notEqual(after, before);
  // q = (1, 0.1) now; the four pairs still agree with each other.
  const rows = await tableCells(page, 'pair-check');
  assert.equal(new Set(rows.map((r) => r[2])).size, 1, rows.map((r) => r[2]).join(' '));
  await page.waitForFunction(() => /s8\.q=100%2C10|s8\.q=100,10/.test(location.hash));
  // Dragging k with the pointer moves it too.
  const box = await page.locator('[data-handle="s8.k"]').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2 + 30, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /s8\.k=/.test(location.hash));
  assert.notEqual(await page.textContent('[data-testid="pair-score"]'), after);
  await clean(page);
  await page.close();
});

test('the built folder works from any path of a static host (relative URLs only)', async () => {
  const { cpSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { serve } = await import('../../scripts/serve.mjs');
  const { DIST } = await import('./helpers.mjs');
  const root = mkdtempSync(join(tmpdir(), 'posenc-host-'));
  cpSync(DIST, join(root, 'some', 'sub', 'path'), { recursive: true });
  const host = await serve(root);
  try {
    const page = await suite.browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${host.url}some/sub/path/#lang=en`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    assert.deepEqual((await tableCells(page, 'pe-table'))[1].slice(1, 3), ['0.8415', '0.5403']);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
});
