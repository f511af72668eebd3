// The articles' worked numbers of the proof, code, families and article 002 rows, in both
// languages, where tests/web/coverage/rows-b.json says they are; every preset of those
// sections works. (Numbers are printed with the true minus sign U+2212.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSuite, ROOT } from './helpers.mjs';

const M = '\u2212';
let suite;
before(async () => { suite = await startSuite(); });
after(async () => { await suite?.close(); });

const text = (page, testid) => page.textContent(`[data-testid="${testid}"]`);

for (const lang of ['en', 'ko']) {
  test(`${lang}: §8 pair presets print the article's rotated vectors and products`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    await page.click('#pair [data-preset="article"]');
    const rot = await text(page, 'pair-rotated');
    assert.match(rot, /\(0\.98007, 0\.19867\)/);
    assert.ok(rot.includes(`(${M}0.47943, 0.87758)`), rot);
    const hand = await text(page, 'pair-hand');
    assert.ok(hand.includes(`= ${M}0.46987 + 0.17435 = ${M}0.29552`), hand);
    const check = await page.$$eval('[data-testid="pair-check"] tbody tr td:last-child', (c) => c.map((x) => x.textContent));
    assert.deepEqual(check, Array(4).fill(`${M}0.29552`));
    await page.click('[data-testid="pair-preset-58"]');
    const rot58 = await text(page, 'pair-rotated');
    assert.ok(rot58.includes('(0.87758, 0.47943)') && rot58.includes(`(${M}0.71736, 0.69671)`), rot58);
    assert.ok((await text(page, 'pair-hand')).includes(`${M}0.62954 + 0.33402 = ${M}0.29552`));
    await page.close();
  });

  test(`${lang}: §9 proof steps and the complex route for the reader's m, n`, async () => {
    const page = await suite.open(`#lang=${lang}&s9.pm=7&s9.pn=11`);
    await page.click('[data-testid="proof-preset"]');
    assert.ok((await text(page, 'proof-score')).startsWith(`${M}0.295520 = ${M}0.295520`));
    const sides = await text(page, 'proof-sides');
    assert.ok(sides.includes('0.95534') && sides.includes(`${M}0.29552`), sides);  // R(0.3)
    const steps = await page.$$eval('[data-testid="proof-steps"] .gap', (g) => g.map((x) => x.textContent));
    assert.equal(steps.length, 3);
    const complex = await page.$$eval('[data-testid="complex-table"] tbody tr', (r) => r.map((x) => x.textContent));
    assert.equal(complex.length, 6);
    assert.ok(complex[4].includes(`${M}0.29552`) && complex[5].includes(`${M}0.29552`), complex.join(' | '));
    await page.close();
  });

  test(`${lang}: §9 ladder checks of articles 000, 003 and 001`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    await page.click('[data-testid="ladder-preset-000"]');
    let cells = await page.$$eval('[data-testid="ladder-check"] tbody tr', (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
    assert.deepEqual(cells.map((c) => c[2]), Array(3).fill(`${M}1.83359585`));
    assert.ok((await text(page, 'ladder-note')).includes(`${M}1.83359584`));
    await page.click('[data-testid="ladder-preset-003"]');
    cells = await page.$$eval('[data-testid="ladder-check"] tbody tr', (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
    assert.deepEqual(cells.map((c) => c[3]), ['1.098421', '1.098421', '0.173762']);
    await page.click('[data-testid="ladder-preset-001"]');
    cells = await page.$$eval('[data-testid="ladder-check"] tbody tr', (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
    assert.equal(cells.length, 8);
    assert.equal(cells[0][3], cells[1][3]);
    assert.ok((await text(page, 'ladder-note')).includes('9.243921'));
    // Typed input: a bad list is refused with a message, a good one recomputes.
    await page.fill('[data-testid="ladder-q"]', '1, 2, x');
    await page.press('[data-testid="ladder-q"]', 'Enter');
    assert.equal(await page.getAttribute('[data-testid="ladder-q"]', 'aria-invalid'), 'true');
    await page.close();
  });

  test(`${lang}: §10 code bridge: check 1, the angle table, the rotate_half warning`, async () => {
    const page = await suite.open(`#lang=${lang}&s10.m=9`);
    await page.click('[data-testid="code-preset"]');
    for (const id of ['check1-hand', 'check1-function']) {
      const v = await text(page, id);
      assert.ok(v.includes(`x0′ = ${M}1.48417`) && v.includes('x1′ = 0.50796'), `${id}: ${v}`);
    }
    const angles = await page.$$eval('[data-testid="angle-table"] tbody tr', (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
    assert.deepEqual(angles[3].slice(0, 3), ['3', '3.0000', '0.3000']);
    assert.ok(await page.isVisible('[data-testid="rotate-half-warning"]'));
    assert.notEqual(await text(page, 'rotate-half-gap'), '0');
    await page.close();
  });

  test(`${lang}: §14 families, lineage and article 002; §13 the article's shape`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    assert.ok((await text(page, 'compare-table')).includes('16\u202f384'));
    assert.match(await text(page, 'fam-learned-note'), /16/);
    for (const id of ['fam-sin', 'fam-alibi', 'fam-t5', 'fam-rope', 'lin-a', 'lin-b', 'lin-c', 'lin-d', 'lin-shaw-idx', 'lin-shaw-term', 'lin-v1', 'lin-v2', 'lin-v3a', 'lin-v3b']) {
      assert.ok(await page.isVisible(`[data-testid="${id}"]`), id);
    }
    assert.equal((await page.$$('[data-testid="simply-cases"] tbody tr')).length, 9);
    assert.equal((await page.$$('[data-testid="simply-misconceptions"] tbody tr')).length, 3);
    const norm = await text(page, 'simply-norm');
    const [qq, rr] = (norm.match(/\d+\.\d{5}/g) ?? []).map(Number);
    assert.ok(qq > 0 && Math.abs(qq - rr) <= 2e-5, `rotation keeps the length: ${norm}`);
    await page.click('[data-testid="attn-shape-run"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="attn-shape"]').textContent.includes('(2, 10, 1024)'), null, { timeout: 20000 });
    const p = await page.problems();
    assert.deepEqual([p.console, p.csp, p.foreign, p.pageErrors], [[], [], [], []]);
    await page.close();
  });
  test(`${lang}: §11–12 the decay bound is drawn and the symbols of both sections are defined`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    assert.ok(await page.$('#decay .plot canvas'), 'the decay plot is drawn');
    assert.match(await page.textContent('#decay'), /RoFormer §3\.4\.3/);
    const scaling = await page.textContent('#scaling');
    for (const word of ['factor', 'seqLen', 'maxPositionEmbeddings']) assert.ok(scaling.includes(word), word);
    await page.close();
  });
}

test('rows-b.json names a section that exists and a test in this file for each row', async () => {
  const rows = JSON.parse(readFileSync(join(ROOT, 'tests', 'web', 'coverage', 'rows-b.json'), 'utf8'));
  const names = readFileSync(new URL(import.meta.url), 'utf8');
  const page = await suite.open('#lang=en');
  for (const r of rows) {
    assert.ok(['LIVE', 'STATIC'].includes(r.status), `row ${r.row}`);
    assert.ok(await page.$(`#${r.section}`), `row ${r.row}: #${r.section}`);
    assert.ok(names.includes(r.test.name.replace(/^(en|ko): /, '')), `row ${r.row}: ${r.test.name}`);
  }
  await page.close();
});
