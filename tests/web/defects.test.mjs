// The defects found reading the page, each checked where it can fail, in both languages:
// §1 shading and notes, §3 hand names, §9 paragraph placement, §10 captions, §14 parts and
// trained-length marks, §15 step count, number formats, legends, heatmap labels and
// link values outside a slider's range.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite } from './helpers.mjs';

let suite;
const pages = {};
before(async () => {
  suite = await startSuite();
  for (const lang of ['en', 'ko']) pages[lang] = await suite.open(`#lang=${lang}`, { width: 1280, height: 900 });
});
after(async () => { await suite?.close(); });

for (const lang of ['en', 'ko']) {
  test(`${lang}: §1 weights are shaded by value; the word-form note shows only under a pair that has such words`, async () => {
    const page = pages[lang];
    const shades = await page.$$eval('[data-testid="qk-a"] .shade', (ss) => ss.map((s) => Number(s.style.getPropertyValue('--s'))));
    assert.ok(shades.length >= 16 && Math.min(...shades) === 0 && Math.max(...shades) === 1, String(shades));
    const dog = await page.$$eval('[data-testid="s1-lemma-note"]', (n) => n.length);
    await page.click('section#order [data-param="s1.pair"] label >> nth=1');
    await page.waitForSelector('[data-testid="s1-lemma-note"]');
    // Korean particles (이/가, 을/를) have two forms in both sentences; English only in "me/I".
    assert.equal(dog, lang === 'ko' ? 1 : 0);
    const head = await page.$$eval('[data-testid="perm-all"] thead th', (ths) => ths.map((th) => th.textContent));
    assert.ok(head.every((x) => !x.trim().endsWith(':')), String(head));
  });

  test(`${lang}: §14 in four parts, 002's view first, and every map marks L`, async () => {
    const page = pages[lang];
    assert.deepEqual(await page.$$eval('section#compare .subsec', (s) => s.map((x) => x.dataset.sub)), ['simply', 'methods', 'families', 'lineage']);
    const guides = await page.$$eval('section#compare .heat-guide.col', (gs) => gs.map((g) => (g.hidden ? '' : g.dataset.label)));
    assert.ok(guides.length >= 6);
    for (const g of guides.slice(0, 6)) assert.equal(g, 'L = 16');
    await page.click('section#compare .subtoc button[data-sub="lineage"]');
    const top = await page.$eval('#compare-lineage', (e) => e.getBoundingClientRect().top);
    assert.ok(top >= -2 && top < 150, `lineage part at ${top}`);
  });

  test(`${lang}: §9's paragraphs on the matrices sit right above them`, async () => {
    const page = pages[lang];
    const gap = await page.$eval('section#invariance', (s) => {
      const heat = s.querySelector('.heat-pair').getBoundingClientRect().top;
      const ps = [...s.querySelectorAll(':scope > p')].filter((p) => p.getBoundingClientRect().top < heat);
      return heat - ps[ps.length - 1].getBoundingClientRect().bottom;
    });
    assert.ok(gap < 500, `${gap} px between the matrices' paragraph and the matrices`);
  });

  test(`${lang}: captions and numbers read right (§10 0 … 5, §15 five steps, no × 10⁰, legends filled)`, async () => {
    const page = pages[lang];
    const all = await page.textContent('main');
    assert.ok(!all.includes('× 10⁰'));
    assert.ok(!/0 … \d+ − 1/.test(all));
    assert.match(await page.textContent('[data-testid="angle-table"] caption'), /0 … 5/);
    const vid = await page.textContent('section#multiaxis');
    assert.match(vid, lang === 'en' ? /five steps along/ : /다섯 칸/);
    const legends = await page.$$eval('.u-legend .u-value', (vs) => vs.map((v) => v.textContent));
    assert.ok(legends.length > 10);
    assert.deepEqual(legends.filter((v) => v === '—'), []);
    const words = await page.$$eval('[data-testid="attn-head-0"] .heat-ticks.cols span', (s) => s.map((x) => x.textContent));
    const tokens = await page.$$eval('section#attention .token', (s) => s.map((x) => x.lastChild.textContent));
    assert.deepEqual(words, tokens);
  });

  test(`${lang}: §3's four clocks have four names at d = 64`, async () => {
    const page = await suite.open(`#lang=${lang}&s3.d=64`, { width: 1280, height: 900 });
    const names = await page.$$eval('section#ladder .clock-face figcaption', (fs) => fs.map((f) => f.textContent.split('·')[1].split('λ')[0].trim()));
    assert.equal(new Set(names).size, 4, String(names));
    await page.close();
  });

  test(`${lang}: a link value outside a slider's range is clamped, visibly`, async () => {
    const page = await suite.open(`#lang=${lang}&s8.m=900`, { width: 390, height: 800 });
    assert.equal(await page.inputValue('input[type="number"][name="s8.m"]'), '200');
    await page.waitForFunction(() => /s8\.m=200/.test(location.hash));
    const hint = await page.$eval('input[type="number"][name="s8.m"]', (i) => document.getElementById(i.getAttribute('aria-describedby'))?.textContent ?? '');
    assert.match(hint, /900/);
    assert.match(hint, /200/);
    await page.close();
  });
}
