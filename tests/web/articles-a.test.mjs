// Sections 1–7 against articles 000 and 001: every worked number of those rows of the audit
// (tests/web/coverage/rows-a.json maps each row to its section and to the test here) appears
// where the map says, in English and in Korean, by default or after one click on the
// section's "as in the article" preset (data-preset="article").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSuite, tableCells, num, setNumber, ROOT } from './helpers.mjs';
import { particles } from '../../web/src/i18n/index.js';
import { rate, piMultiple } from '../../web/src/ui/format.js';

let suite;
const pages = {};
before(async () => {
  suite = await startSuite();
  for (const lang of ['en', 'ko']) pages[lang] = await suite.open(`#lang=${lang}`);
});
after(async () => { await suite?.close(); });

const LANGS = ['en', 'ko'];
const text = (page, sel) => page.textContent(sel);
const sciValue = (t) => num(t.replace(' × 10', 'e').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/, (s) => s.replace(/./g, (c) => '0123456789-'['⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.indexOf(c)])));
const preset = (page, id, which = 'article') => page.click(`section#${id} [data-preset="${which}"]`);
const sectionText = (page, id) => page.$eval(`section#${id}`, (s) => s.textContent);

async function problemsFree(page) {
  const p = await page.problems();
  assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
}

test('§1 minimal pairs: one vector per word, outputs only reordered, QKᵀ rows and columns move together', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    await preset(page, 'order');
    const a = await text(page, '[data-testid="sentence-a"]');
    const b = await text(page, '[data-testid="shuffled-sentence"]');
    if (lang === 'en') { assert.match(a, /the.*dog.*bit.*the.*man/); assert.match(b, /the.*man.*bit.*the.*dog/); }
    else { assert.match(a, /개.*가.*사람.*을.*물었다/); assert.match(b, /사람.*이.*개.*를.*물었다/); }
    // Without positions each word's output is the same in both sentences.
    for (const r of await tableCells(page, 'perm-table')) assert.equal(r[1], r[2], `${lang} ${r[0]}`);
    assert.ok(sciValue(await text(page, '[data-testid="perm-diff"]')) < 1e-6);
    // The attention matrix of the second sentence is the first with rows and columns permuted.
    const A = await tableCells(page, 'qk-a');
    const B = await tableCells(page, 'qk-b');
    const perm = lang === 'en' ? [0, 4, 2, 3, 1] : [2, 1, 0, 3, 4];
    perm.forEach((src, r) => perm.forEach((srcCol, c) => assert.equal(B[r][c + 1], A[src][srcCol + 1], `${lang} (${r},${c})`)));
    // With positions added after reordering the outputs differ; the pitfall (before) hides it.
    await page.click('[data-param="s1.mode"] .choice-item:nth-child(2) label');
    const diffAdded = sciValue(await text(page, '[data-testid="perm-diff"]'));
    assert.ok(diffAdded > 1e-3, `${lang} added: ${diffAdded}`);
    await page.click('[data-param="s1.when"] .choice-item:nth-child(2) label');
    assert.ok(sciValue(await text(page, '[data-testid="perm-diff"]')) < 1e-6, `${lang} pitfall`);
    assert.match(await text(page, '[data-testid="perm-verdict"]'), lang === 'en' ? /shuffle the tokens first/ : /먼저 섞고/);
    await preset(page, 'order');
    assert.match(await text(page, '[data-testid="perm-verdict"]'), lang === 'en' ? /cannot tell/ : /구별하지 못합니다/);
    // The other pair, and the article's unreproducible numbers said as such beside the page's own.
    await page.click('[data-param="s1.pair"] .choice-item:nth-child(2) label');
    assert.match(await text(page, '[data-testid="shuffled-sentence"]'), lang === 'en' ? /rice.*ate.*me/ : /밥.*은.*나.*를.*먹었다/);
    for (const r of await tableCells(page, 'perm-table')) assert.equal(r[1], r[2]);
    const note = await text(page, '[data-testid="perm-article"]');
    assert.match(note, /1\.34e−07/); assert.match(note, /0\.190533/);
    const s = await sectionText(page, 'order');
    assert.match(s, lang === 'en' ? /permutation equivariance/ : /순열 동변성/);
    assert.match(s, lang === 'en' ? /RNN or LSTM/ : /RNN\/LSTM/);
    await preset(page, 'order');
  }
});

test('§1 a random shuffle is never the identity (seed 103 at n = 5 used to be)', async () => {
  const page = await suite.open('#lang=ko&s1.pair=shuffle&s1.shuffle=103');
  const words = async (sel) => (await page.$$eval(`${sel} .token`, (els) => els.map((e) => e.textContent)));
  assert.equal((await words('[data-testid="sentence-a"]')).length, 5);
  assert.notDeepEqual(await words('[data-testid="shuffled-sentence"]'), await words('[data-testid="sentence-a"]'));
  // The two "the" of the English sentence are one word with one vector: equal rows in and out.
  const en = await suite.open('#lang=en&s1.pair=shuffle');
  const rows = await tableCells(en, 'perm-table');
  assert.equal(rows[0][0], 'the'); assert.equal(rows[4][0], 'the');
  assert.equal(rows[0][1], rows[4][1], 'without positions the two "the" get the same output');
  await problemsFree(page);
  await page.close(); await en.close();
});

test('§2 naive encodings: p = 4000 never seen at 512; 0.5 at L = 10, 0.005 at L = 1000; one-hot needs L dims', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    const raw = await tableCells(page, 'naive-raw');
    assert.deepEqual(raw.map((r) => num(r[0])), [0, 1, 2, 511, 4000]);
    assert.match(raw[4][1], lang === 'en' ? /never seen/ : /처음 봄/);
    const frac = await tableCells(page, 'naive-frac');
    assert.equal(num(frac[0][1]), 0.5); assert.equal(num(frac[1][1]), 0.005);
    await setNumber(page, 's2.L', 100000);
    const big = await tableCells(page, 'naive-frac');
    assert.equal(sciValue(big[2][2]), 1e-5, `the step at L = 100 000 is printed, not 0.0000: ${big[2][2]}`);
    assert.match(await text(page, '[data-testid="onehot-dims"]'), /100\u202f000/);
    const s = await sectionText(page, 'naive');
    for (const want of lang === 'en' ? ['Three requirements', 'however large their argument'] : ['원하는 것 세 가지', '인자가 아무리 커져도']) assert.ok(s.includes(want), `${lang}: ${want}`);
    await setNumber(page, 's2.L', 10);
  }
});

test('§3 ladder: θ 1 … 0.001, λ = 2π … 2000π, both articles’ presets, named hands, odometer', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    await setNumber(page, 's3.d', 64);
    // d > 8: the clocks show the two fastest and the two slowest pairs.
    const faces = await page.$$eval('section#ladder .clock-face figcaption strong', (els) => els.map((e) => e.textContent));
    assert.deepEqual(faces, ['i = 0', 'i = 1', 'i = 30', 'i = 31']);
    await preset(page, 'ladder');
    const rows = await tableCells(page, 'ladder-table');
    assert.deepEqual(rows.map((r) => num(r[1])), [1, 0.1, 0.01, 0.001]);
    assert.deepEqual(rows.map((r) => r[2]), ['2π', '20π', '200π', '2\u202f000π']);
    assert.deepEqual(rows.map((r) => num(r[3])), [6.2832, 62.832, 628.32, 6283.2]);
    assert.match(await text(page, '[data-testid="ladder-range"]'), /2π·10⁴/);
    const captions = await page.$$eval('section#ladder .clock-face figcaption', (els) => els.map((e) => e.textContent));
    assert.match(captions[0], lang === 'en' ? /second hand/ : /초침/);
    assert.match(captions[3], lang === 'en' ? /hour hand/ : /시침/);
    await preset(page, 'ladder', 'article-001');
    const d4 = await tableCells(page, 'ladder-table');
    assert.deepEqual(d4.map((r) => r[3]), ['6.2832', '628.32']);
    assert.deepEqual(d4.map((r) => num(r[1])), [1, 0.01]);
    await preset(page, 'ladder');
    const odo = await tableCells(page, 'odometer');
    assert.equal(odo[0][1], '−0.5366, 0.8439'); assert.equal(odo[0][2], '−0.5216, 0.8532');
    const s = await sectionText(page, 'ladder');
    for (const want of lang === 'en' ? ['angular velocity', '12 km', '22 km', 'continuous', 'torch.exp', 'No single pair']
      : ['각속도', '12 km', '22 km', '연속적인 각도', 'torch.exp', '어느 한 쌍도']) assert.ok(s.includes(want), `${lang}: ${want}`);
  }
});

test('§4 tables: d = 8, p = 0…3; article 001’s d = 4 hand table with its angles; the symbols; the text heatmap', async () => {
  const want = [
    ['0', '0.0000', '0.0000', '0.0000, 1.0000, 0.0000, 1.0000'],
    ['1', '1.0000', '0.0100', '0.8415, 0.5403, 0.0100, 0.9999'],
    ['2', '2.0000', '0.0200', '0.9093, −0.4161, 0.0200, 0.9998'],
    ['3', '3.0000', '0.0300', '0.1411, −0.9900, 0.0300, 0.9996'],
  ];
  for (const lang of LANGS) {
    const page = pages[lang];
    await preset(page, 'table');
    const rows = await tableCells(page, 'pe-table');
    assert.deepEqual(rows[3].slice(1), ['0.1411', '−0.9900', '0.2955', '0.9553', '0.0300', '0.9996', '0.0030', '1.0000']);
    assert.deepEqual(await tableCells(page, 'pe-hands'), want);
    assert.equal((await tableCells(page, 'pe-symbols')).length, 3);
    assert.doesNotMatch(await sectionText(page, 'table'), /concatenated|이어 붙이기/);
    assert.match(await text(page, '[data-testid="hands-lambda"]'), /6\.2832.*628\.32/);
    const lines = (await text(page, 'pre.text-heat')).split('\n');
    assert.equal(lines.length, 24);
    // Article 001's text heatmap, rows p 0 and p 23 character for character.
    assert.equal(lines[0], '+@+@+@+@+@+@+@+@');
    assert.equal(lines[23], ' :@#%.%%*@+@+@+@');
    assert.match(lines[23], /\+@\+@\+@$/);
  }
});

test('§5 properties: ‖PE‖ = 4.0, 1.1716, the dot table at pos 25, and when "clearly apart" holds', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    await preset(page, 'properties');
    assert.match(await text(page, '[data-testid="pe-min-distance"]'), /^1\.1716/);
    const norms = await tableCells(page, 'pe-norms');
    for (const r of norms) assert.equal(r[1], '4.0000');
    const dot = (await tableCells(page, 'pe-dot-table'))[0].slice(1);
    assert.deepEqual(dot, ['16.00', '15.31', '13.73', '12.27', '11.78', '10.52', '10.06', '8.41', '10.47']);
    assert.match(await page.$eval('[data-testid="pe-dot-table"] caption', (c) => c.textContent), /PE\(25\)/);
    const [lo, hi] = (await text(page, '[data-testid="pe-bounds"]')).match(/[−-]?\d+\.\d+/g).map(num);
    assert.ok(lo >= -1 && lo < -0.9999 && hi === 1);
    await setNumber(page, 's5.d', 2);
    assert.ok(num((await text(page, '[data-testid="pe-min-distance"]')).split(' ')[0].replace(/×10.*/, '')) < 0.01 ||
      /10⁻/.test(await text(page, '[data-testid="pe-min-distance"]')));
    assert.match(await text(page, '[data-testid="pe-min-note"]'), lang === 'en' ? /almost equal/ : /거의 같습니다/);
    await preset(page, 'properties');
    assert.match(await text(page, '[data-testid="pe-min-note"]'), lang === 'en' ? /clearly apart/ : /뚜렷이/);
    if (lang === 'ko') assert.match(await text(page, '[data-testid="pe-min-distance"]'), /위치 0과 1\)/);
  }
});

test('§6 shift: M(3)·PE(5) = PE(8) = [0.98936, −0.14550, 0.71736, 0.69671], the sweep over p = 0…19', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    await setNumber(page, 's6.k', 7);
    await preset(page, 'shift');
    const rows = await tableCells(page, 'shift-compare');
    assert.deepEqual(rows.slice(0, 4).map((r) => r[1]), ['0.98936', '−0.14550', '0.71736', '0.69671']);
    assert.deepEqual(rows.slice(0, 4).map((r) => r[2]), ['0.98936', '−0.14550', '0.71736', '0.69671']);
    assert.ok(sciValue(await text(page, '[data-testid="shift-sweep"]')) < 2e-7);
    const s = await sectionText(page, 'shift');
    assert.match(s, /1\.19e−07/);
    assert.match(s, lang === 'en' ? /positions later/ : /칸 뒤/);
    assert.match(s, lang === 'en' ? /linear map/ : /선형변환/);
    assert.doesNotMatch(s, /words back|단어 앞|선형 사상/);
    // The angle-addition formulas, then the matrix they make.
    assert.equal(await page.$$eval('section#shift .math.display.multi', (els) => els.length), 2);
  }
});

test('§7 four terms: article 000’s draws give 2.538165 / 0.005454 / −1.525447 and 2.266609; typed vectors work', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    await preset(page, 'leak');
    const rows = await tableCells(page, 'leak-terms');
    assert.deepEqual(rows.map((r) => r[0]), ['(3, 7)', '(40, 44)', '(900, 904)']);
    [2.53816513, 0.00545368, -1.5254472].forEach((want, i) => assert.ok(Math.abs(num(rows[i][5]) - want) < 3e-6, `${rows[i][5]}`));
    for (const r of rows) assert.ok(Math.abs(num(r[4]) - 2.26660948) < 3e-6, r[4]);
    // q·k does not move; the cross terms do.
    assert.equal(new Set(rows.map((r) => r[1])).size, 1);
    assert.equal(new Set(rows.map((r) => r[2])).size, 3);
    assert.match(rows[0][6], /2\.53816513/);
    // Typed vectors: q = e₀, k = e₀ at d = 8 gives q·k = 1.
    await page.click('[data-param="s7.src"] .choice-item:nth-child(3) label');
    for (const [key, v] of [['s7.q', '1 0 0 0 0 0 0 0'], ['s7.k', '[1, 0, 0, 0, 0, 0, 0, 0]']]) {
      await page.fill(`input[name="${key}"]`, v); await page.press(`input[name="${key}"]`, 'Enter');
    }
    assert.equal((await tableCells(page, 'leak-terms'))[0][1], '1.000000');
    await page.fill('input[name="s7.q"]', '1 2 3'); await page.press('input[name="s7.q"]', 'Enter');
    assert.equal(await page.getAttribute('input[name="s7.q"]', 'aria-invalid'), 'true');
    const s = await sectionText(page, 'leak');
    assert.match(s, lang === 'en' ? /cross terms/ : /교차항/);
    assert.match(s, lang === 'en' ? /not “bad”/ : /나쁘다는 말은 아닙니다/);
    await preset(page, 'leak');
  }
});

test('§7 the input layer: same word at 0 and 3 → 1.9900, 0 parameters; ×√d_model; add vs concat; the summaries', async () => {
  for (const lang of LANGS) {
    const page = pages[lang];
    const word = await tableCells(page, 'same-word');
    assert.deepEqual(word.map((r) => r[1]), ['0.0000', '1.9900', '0']);
    const sqrt = await tableCells(page, 'sqrt-d');
    assert.ok(num(sqrt[0][1]) < 0.18 && num(sqrt[1][1]) > 0.9 && sqrt[2][1] === '1.0000', JSON.stringify(sqrt));
    assert.equal((await tableCells(page, 'add-concat')).length, 3);
    const s = await sectionText(page, 'leak');
    for (const want of ['register_buffer', 'state_dict', 'math.sqrt(D)']) assert.ok(s.includes(want), want);
    assert.match(s, lang === 'en' ? /attention does not know order/ : /어텐션은 순서를 모른다/);
    assert.equal((await page.$$('[data-testid="summary-000"] li')).length, 5);
    const sum = await tableCells(page, 'summary-001');
    assert.equal(sum.length, 8);
    assert.match(sum[0][1], /1\.34e−07/);
    assert.match(sum[3][1], /4\.0000/);
    assert.match(await text(page, '[data-testid="summary-000"]'), /2π·10|2\\pi|10\^4|10⁴/);
  }
});

test('Korean mode: the articles’ terms, no English sentence in sections 1–7, particles that fit', async () => {
  const page = pages.ko;
  const all = await page.$$eval('section[data-section]', (ss) => ss.filter((s) => Number(s.dataset.section) <= 7).map((s) => {
    const c = s.cloneNode(true);
    c.querySelectorAll('.katex, pre, code, canvas, .u-legend, table').forEach((e) => e.remove());
    return c.textContent;
  }).join('\n'));
  for (const term of ['순열 동변성', '각속도', '선형변환', '교차항', '내용']) assert.ok(all.includes(term), term);
  for (const bad of ['순진한', '날 위치', '가로대', '선형 사상', 'k단어 앞', '단조롭지']) assert.ok(!all.includes(bad), bad);
  const english = all.match(/\b[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}\b/g) ?? [];
  assert.deepEqual(english, []);
  assert.equal(particles('위치 0{~와} 1, 위치 2{~와} 3, “고양이는”{~가}, “s9.s=5000000”{~는}, 3{~으로}, 7{~으로}'),
    '위치 0과 1, 위치 2와 3, “고양이는”이, “s9.s=5000000”은, 3으로, 7로');
  assert.equal(await page.getAttribute('nav.lang', 'aria-label'), '언어');
  const html = readFileSync(join(ROOT, 'web', 'index.html'), 'utf8');
  assert.match(html, /<noscript>[^]*lang="ko"[^]*<\/noscript>/);
  assert.equal(rate(1.23e9, undefined, 'ko'), '초당 12.3억 개');
  assert.equal(rate(1.23e9), '1.2 Gvalues/s');
  assert.equal(piMultiple(2000 * Math.PI), '2\u202f000π');
});

test('hash: an odd d is "not valid", not "out of range"; values outside a slider are refused', async () => {
  const page = await suite.open('#lang=en&s3.d=7&s5.p=5000000&s6.p=2000000&s7.src=typed&s7.q=1,2,NaN&s7.k=%3Cimg%20src%3Dx%3E');
  const note = await text(page, '[data-testid="hash-note"]');
  // Typed vectors from the hash are validated like any value: bad ones fall back to the article's.
  assert.match(note, /s7\.q=1,2,NaN/); assert.match(note, /s7\.k=<img src=x>/);
  assert.equal((await tableCells(page, 'leak-terms'))[0][1], '−1.467987');
  assert.match(note, /s3\.d=7.*not a valid value/);
  assert.match(note, /s5\.p=5000000/); assert.match(note, /s6\.p=2000000/);
  assert.doesNotMatch(note, /out of range/);
  await problemsFree(page);
  await page.close();
  await problemsFree(pages.en); await problemsFree(pages.ko);
});

test('coverage map rows-a.json: every row names a section of the page and a test of this file', async () => {
  const map = JSON.parse(readFileSync(join(ROOT, 'tests', 'web', 'coverage', 'rows-a.json'), 'utf8'));
  const source = readFileSync(join(ROOT, 'tests', 'web', 'articles-a.test.mjs'), 'utf8');
  const ids = await pages.en.$$eval('section[data-section]', (ss) => ss.map((s) => s.id));
  for (const { row, status, section, test: name } of map) {
    assert.ok(['LIVE', 'STATIC'].includes(status), `row ${row}: ${status}`);
    assert.ok(ids.includes(section), `row ${row}: section ${section}`);
    const [file, title] = name.split(' › ');
    assert.equal(file, 'tests/web/articles-a.test.mjs');
    assert.ok(source.includes(`test('${title}'`), `row ${row}: no test named ${title}`);
  }
});
