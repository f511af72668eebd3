// §18 (web/src/sections/18-microscope.js, web/src/api-scope.js): the model microscope on every
// bundled config (tests/fixtures/hf-configs/) and on a pasted and a dropped config.json, in both
// languages at desktop and phone widths. The layer table and strip match pe.modelFromConfig in
// Node; a float32-angle port is worse than posenc at the last position; the M-RoPE and vision-tower
// axes are those of transformers' code; a refused config shows the package's error naming the key
// (in Korean, a Korean sentence); the downloads are the JSON of `posenc vectors [--tower vision]`
// (wasm/bin/posenc.mjs) for the same file, byte for byte. Encoder-decoder configs (T5Gemma,
// T5Gemma 2) are read one stack at a time, the stack picked on the page; each layer kind's
// keys, bidirectional window, cross-attention and sense of rotation are the layer records'.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSuite, tableCells, num, ROOT, evaluateWithin, VIEWS_A, VIEWS_B } from './helpers.mjs';
import { createPosenc } from '../../wasm/dist/inline.js';

const FIX = join(ROOT, 'tests', 'fixtures', 'hf-configs');
const BUNDLED = {
  'llama-3.1-8b': 'llama-3.1-8b', 'qwen2.5-vl-7b': 'qwen2.5-vl-7b-instruct', 'qwen3-vl-4b': 'qwen3-vl-4b-instruct',
  'ministral-3-3b': 'ministral-3-3b-2512', 'gemma-3-27b': 'gemma-3-27b-it',
  'gemma-4-e2b': 'gemma-4-e2b-it.reconstructed', 'llama-4-scout': 'llama-4-scout-17b-16e.reconstructed',
  'deepseek-v3': 'deepseek-v3', 'phi-3.5-mini': 'phi-3.5-mini-instruct', 'smollm3-3b': 'smollm3-3b',
  'command-r': 'c4ai-command-r-v01', 'gpt-j-6b': 'gpt-j-6b',
  't5gemma-2-270m': 't5gemma-2-270m-270m.reconstructed', 'privacy-filter': 'openai-privacy-filter.class-defaults.reconstructed',
  'nanochat': 'nanochat.class-defaults.reconstructed', 'modernbert-base': 'modernbert-base.class-defaults.reconstructed',
};
// The encoder-decoder ones: their config.json holds an `encoder` and a `decoder` (the page reads
// the decoder unless the reader picks the encoder).
const STACKED = new Set(['t5gemma-2-270m-270m.reconstructed', 't5gemma-2b-2b.reconstructed']);
const fixture = (file) => join(FIX, `${file}.json`);

let suite, pe;
before(async () => { suite = await startSuite(); pe = await createPosenc(); });
after(async () => { await suite?.close(); });

const sci = (text) => num(String(text).replace(/ × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, (m, e) => `e${[...e].map((c) => '-0123456789'['⁻⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)]).join('')}`));

// What the page must show for a config (and the stack it reads), from the package in Node.
function expected(config, stack) {
  const model = pe.modelFromConfig(config, stack === undefined ? {} : { stack });
  try {
    return {
      records: model.layers.map((l) => ({ ...l })),
      inverse: Object.keys(model.encodings).filter((k) => model.encodings[k].direction === 'inverse'),
      layers: model.layers.length,
      noRope: model.layers.filter((l) => l.rope === null).length,
      keys: Object.keys(model.encodings),
      mrope: Object.values(model.encodings).some((r) => r.mrope !== null),
      queryScale: model.layers.some((l) => l.queryScale !== null),
    };
  } finally { model.dispose(); }
}

// The axes of the configs that have them, as their config.json files state them: M-RoPE
// (text_config.rope_scaling.mrope_section, mrope_interleaved) and the vision tower's 2-D rotary
// (vision_config: head dim = hidden_size / num_heads for Qwen2.5-VL and Qwen3-VL, head_dim for
// Pixtral; base 10 000). Gemma 3's SigLIP tower has a learned position table: refused by name.
const AXES = {
  'qwen2.5-vl-7b-instruct': { text: { rule: 'qwen2-vl', dim: 128, section: [16, 24, 24] }, vision: { rule: 'qwen2-vl', dim: 80, base: 10000 } },
  'qwen3-vl-4b-instruct': { text: { rule: 'qwen3-vl', dim: 128, section: [24, 20, 20] }, vision: { rule: 'qwen2-vl', dim: 64, base: 10000 } },
  'ministral-3-3b-2512': { vision: { rule: 'pixtral', dim: 64, base: 10000 } },
  'devstral-small-2-24b-instruct': { vision: { rule: 'pixtral', dim: 64, base: 10000 } },
  'gemma-3-27b-it': { refused: 'vision_config.model_type' },
};

// The axis of every HF cos/sin column, written from transformers' code (not the package's):
//  - qwen2-vl M-RoPE: models/qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb:
//    cos (cat(freqs, freqs)) split by mrope_section * 2, chunk i taken from axis i % 3.
//  - qwen3-vl M-RoPE: models/qwen3_vl/modeling_qwen3_vl.py, apply_interleaved_mrope:
//    freqs_t[..., o:3·section[d]:3] = freqs[d] for (d, o) = (1, 1), (2, 2); cat(freqs_t, freqs_t).
//  - qwen2-vl vision: modeling_qwen2_vl.py, VisionRotaryEmbedding(head_dim // 2) + rot_pos_emb
//    (cat of the row and the column ladder) + apply_rotary_pos_emb_vision (cat(rpe, rpe)).
//  - pixtral: models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding: cat(h·freqs[::2],
//    w·freqs[1::2]), then cat((inv_freq, inv_freq)).
function hfColumns({ rule, dim, section }) {
  const half = dim / 2;
  const rung = (c) => c % half;
  if (rule === 'qwen2-vl' && section) {
    return [...section, ...section].flatMap((n, i) => Array(n).fill(['t', 'h', 'w'][i % 3]));
  }
  if (rule === 'qwen3-vl') {
    return Array.from({ length: dim }, (_, c) => {
      const i = rung(c);
      if (i % 3 === 1 && i < 3 * section[1]) return 'h';
      if (i % 3 === 2 && i < 3 * section[2]) return 'w';
      return 't';
    });
  }
  return Array.from({ length: dim }, (_, c) => (rung(c) < dim / 4 ? 'row' : 'col'));
}

// Positions per turn (2π/θ) of each axis' rungs: [shortest, longest], θ_k = base^(−2k/d).
function hfTurns({ rule, dim, base }, axis) {
  const theta = (k, d) => base ** (-2 * k / d);
  const ks = Array.from({ length: dim / 4 }, (_, j) => j);
  // qwen2-vl vision: both axes use the ladder of dim/2 (VisionRotaryEmbedding(head_dim // 2)).
  const thetas = rule === 'pixtral' ? ks.map((j) => theta(2 * j + (axis === 'col' ? 1 : 0), dim)) : ks.map((j) => theta(j, dim / 2));
  const turns = thetas.map((x) => (2 * Math.PI) / x);
  return [Math.min(...turns), Math.max(...turns)];
}

// Rungs a scaling moves (θ' ≠ θ), written from transformers' modeling_rope_utils.py:
//  - _compute_llama3_parameters: θ kept while 2π/θ < original_max_position_embeddings /
//    high_freq_factor (the smoothed band's edge gives θ again), moved above it.
//  - _compute_yarn_parameters: low = floor(find_correction_dim(beta_fast)); the ramp
//    (i − low) / (high − low) is 0, so θ is kept, for rungs i ≤ low; every other rung moves.
function llama3Moved(dim, base, { factor, high_freq_factor: high, original_max_position_embeddings: orig }) {
  assert.ok(factor > 1);
  return Array.from({ length: dim / 2 }, (_, i) => (2 * Math.PI) / base ** (-2 * i / dim)).filter((w) => w > orig / high).length;
}
function yarnMoved(dim, base, { beta_fast: fast, original_max_position_embeddings: orig }) {
  const low = Math.max(Math.floor((dim * Math.log(orig / (fast * 2 * Math.PI))) / (2 * Math.log(base))), 0);
  return dim / 2 - (low + 1);
}
const MOVED = {
  'llama-3.1-8b': (c) => llama3Moved(128, c.rope_theta, c.rope_scaling),
  'deepseek-v3': (c) => yarnMoved(c.qk_rope_head_dim, c.rope_theta, c.rope_scaling),
  'gpt-j-6b': () => null,
};

async function stripAxes(page, testid) {
  return page.$$eval(`[data-testid="${testid}"] .cell`, (cells) => cells.map((c) => c.dataset.axis));
}

// The axes views of a config named in AXES (or their absence), in the page's language.
async function checkAxes(page, file, lang) {
  const want = AXES[file] ?? {};
  const axisName = { en: { t: 't (time)', h: 'h (row)', w: 'w (column)', row: 'row', col: 'column' },
    ko: { t: 't(시간)', h: 'h(행)', w: 'w(열)', row: '행', col: '열' } }[lang];
  for (const [tower, testid] of [['text', 'scope-mrope'], ['vision', 'scope-vision']]) {
    const spec = want[tower];
    if (!spec) {
      assert.equal(await page.$(`[data-testid="${testid}"]`), null, `${file}: no ${tower} axes`);
      continue;
    }
    const columns = hfColumns(spec);
    assert.deepEqual(await stripAxes(page, `${testid}-columns`), columns, `${file} ${tower}: the axis of every cos/sin column`);
    // HF's rungs are the first half of its columns (layout half).
    assert.deepEqual(await stripAxes(page, `${testid}-rungs`), columns.slice(0, spec.dim / 2), `${file} ${tower}: the axis of every rung`);
    const rows = await tableCells(page, testid);
    const names = [...new Set(columns)];
    assert.deepEqual(rows.map((r) => r[0].replace(/^axis\s*|^축\s*/, '')), names.map((n) => axisName[n]), `${file} ${tower}: axis names`);
    rows.forEach((r, a) => {
      assert.equal(Number(r[1].replace(/^\D+/, '')), columns.slice(0, spec.dim / 2).filter((x) => x === names[a]).length, `${file} ${tower} ${names[a]}: rungs`);
      if (tower === 'vision') {
        const [lo, hi] = r[4].replace(/^\D*?(?=\d)/, '').split(' – ').map(num);
        const [wlo, whi] = hfTurns(spec, names[a]);
        assert.ok(Math.abs(lo / wlo - 1) < 5e-3 && Math.abs(hi / whi - 1) < 5e-3, `${file} ${names[a]}: turns ${r[4]} vs ${wlo}–${whi}`);
      }
    });
  }
  const refusal = await page.$('[data-testid="scope-vision-error"]');
  if (want.refused) {
    const shown = await refusal.textContent();
    assert.ok(shown.includes(want.refused), shown);
    if (lang === 'ko') assert.match(shown, /[가-힣]/);
  } else {
    assert.equal(refusal, null, `${file}: no vision refusal`);
  }
}

// The keys j a query at i sees, as the README states a layer record's fields: causal j ≤ i;
// sliding 0 ≤ i − j < window and, bidirectional, 0 < j − i ≤ lookahead; bidirectional full: every j.
function checkKeys(shown, l) {
  if (l.attention === 'full') {
    if (l.bidirectional) assert.match(shown, /^(every j|모든 j)$/);
    else assert.equal(shown, 'j ≤ i');
    return;
  }
  if (l.compressRate !== null) {  // DeepSeek-V4: the window, then the compressed keys' rule
    const c = shown.match(/^i − ([\d\u202f]+) < j ≤ i \+ .*w < ⌊\(i \+ 1\) \/ ([\d\u202f]+)⌋/);
    assert.ok(c, shown);
    assert.deepEqual([num(c[1]), num(c[2])], [l.window, l.compressRate], shown);
    assert.equal(/index|인덱서/.test(shown), l.indexerSlice !== null, shown);
    return;
  }
  if (l.attention !== 'sliding') return;
  const m = shown.match(/^i − ([\d\u202f]+) < j ≤ i(?: \+ ([\d\u202f]+))?$/);
  assert.ok(m, shown);
  assert.equal(num(m[1]), l.window, shown);
  assert.equal(m[2] === undefined ? null : num(m[2]), l.bidirectional ? l.lookahead : null, shown);
}

// Each row of the layer-kind table against the records of its layers: every layer it lists has
// the same record, its attention cell says bidirectional and cross-attention exactly when the
// records do, its keys column is the window's, its rotary cell says −p·θ for an inverse rotator.
function checkKinds(kinds, want) {
  for (const r of kinds) {
    const indices = r[0].replace(/^\D*?(?=\d)/, '').split(', ').flatMap((x) => {
      const [a, b = a] = x.split('–').map(Number);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
    const l = want.records[indices[0]];
    for (const i of indices) assert.deepEqual({ ...want.records[i], index: 0 }, { ...l, index: 0 }, `layer ${i} in the row of ${indices[0]}`);
    const [attention, keys, rope] = [r[2], r[3], r[4]].map((c) => c.replace(/^(attention|어텐션|keys j a query at i sees|위치 i의 쿼리가 보는 키 j|rotary|로터리)/, ''));
    assert.equal(/bidirectional|양방향/.test(attention), l.bidirectional, attention);
    assert.equal(/cross-attention|교차 어텐션/.test(attention), l.crossAttention === 'separate' || l.attention === 'cross', attention);
    assert.equal(/encoder keys|인코더 키/.test(attention), l.crossAttention === 'merged', attention);
    checkKeys(keys, l);
    assert.equal(/−p·θ/.test(rope), want.inverse.includes(l.rope), rope);
  }
}

async function checkShown(page, config, width, stack) {
  const want = expected(config, stack);
  const source = await page.textContent('[data-testid="scope-source"]');
  assert.match(source, new RegExp(`\\b${want.layers}\\b`));
  // The stack choice shows for an encoder-decoder config only, on the stack read.
  assert.equal(await page.$eval('[data-testid="scope-stack-pick"]', (e) => e.hidden), stack === undefined);
  if (stack !== undefined) assert.equal(await page.$eval('[data-testid="scope-stack-pick"] input:checked', (e) => e.value), stack);
  assert.equal(await page.$$eval('[data-testid="scope-strip"] .layer', (c) => c.length), want.layers);
  assert.equal(await page.$$eval('[data-testid="scope-strip"] .layer.k-none', (c) => c.length), want.noRope);
  assert.equal(await page.$$eval('[data-testid="scope-strip"] .layer.bidi', (c) => c.length), want.records.filter((l) => l.bidirectional).length);
  assert.equal(await page.$$eval('[data-testid="scope-strip"] .layer.cross', (c) => c.length), want.records.filter((l) => l.crossAttention !== null).length);
  const kinds = await tableCells(page, 'scope-stack');
  assert.equal(kinds.reduce((s, r) => s + Number(r[1].replace(/^\D+/, '')), 0), want.layers);
  checkKinds(kinds, want);
  const enc = await tableCells(page, 'scope-encodings');
  assert.deepEqual(enc.map((r) => r[0].replace(/^.*?(e\d+)$/, '$1')), want.keys);
  assert.equal(await page.$('[data-testid="scope-mrope"]') !== null, want.mrope);
  assert.equal(await page.$('[data-testid="scope-qscale"]') !== null, want.queryScale);
  for (const r of await tableCells(page, 'scope-errors')) {
    const [f32, ours] = [sci(r[1].replace(/^[^\d]*(?=\d)/, '')), sci(r[2].replace(/^[^\d]*(?=\d)/, ''))];
    assert.ok(ours < 2e-7, `posenc ${r[2]}`);
    assert.ok(f32 > ours, `float32 ${r[1]} vs posenc ${r[2]}`);
  }
  assert.equal(await page.textContent('[data-testid="scope-error"]'), '');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= width, `page ${wide} px wide at ${width}`);
  const over = await page.$$eval('#microscope *', (els) => els.filter((e) => e.getBoundingClientRect().right > innerWidth + 1
    && !e.closest('.table-wrap')).map((e) => e.tagName + '.' + e.className).slice(0, 5));
  assert.deepEqual(over, []);
}

for (const [lang, width] of VIEWS_A) {
  test(`${lang} ${width} px: every bundled config as pe.modelFromConfig reads it`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=18`, { width, height: 900 });
    await page.waitForSelector('[data-testid="scope-errors"]', { timeout: 20000 });
    for (const [key, file] of Object.entries(BUNDLED)) {
      await page.selectOption('select[name="s18.m"]', key);
      await page.waitForFunction((k) => document.querySelector('[data-testid="scope-source"]').textContent.startsWith(`${k}.json`), key);
      await checkShown(page, JSON.parse(readFileSync(fixture(file), 'utf8')), width, STACKED.has(file) ? 'decoder' : undefined);
      await checkAxes(page, file, lang);
      if (key in MOVED) {
        const want = MOVED[key](JSON.parse(readFileSync(fixture(file), 'utf8')));
        const moved = (await tableCells(page, 'scope-encodings'))[0][6];
        assert.equal(moved, want === null ? '—' : `${want} / ${key === 'deepseek-v3' ? 32 : 64}`, `${key}: rungs moved by scaling`);
        // The same rotary unscaled is drawn beside it (a dashed series) when it is scaled.
        const labels = await page.$$eval('#microscope .u-legend .u-label', (ls) => ls.map((l) => l.textContent));
        assert.equal(labels.filter((l) => /without scaling|스케일링 전/.test(l)).length, want === null ? 0 : 1, labels.join(' | '));
      }
      // The link keeps the choice (the default is left out of it).
      if (key !== 'llama-3.1-8b') await page.waitForFunction((k) => location.hash.includes(`s18.m=${k}`), key);
    }
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });
}

for (const [lang, width] of VIEWS_B) {
  test(`${lang} ${width} px: a pasted and a dropped config, and refused ones named`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=18`, { width, height: 900 });
    await page.waitForSelector('[data-testid="scope-errors"]', { timeout: 20000 });
    // Pasted: OLMo 2 (not bundled).
    const olmo = readFileSync(fixture('olmo-2-7b'), 'utf8');
    await page.fill('[data-testid="scope-paste"]', olmo);
    await page.click('[data-testid="scope-read"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('config.json'));
    await checkShown(page, JSON.parse(olmo), width);
    // The picker says it is the learner's own, and the bundled default can be picked again.
    assert.equal(await page.inputValue('select[name="s18.m"]'), '');
    await page.selectOption('select[name="s18.m"]', 'llama-3.1-8b');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('llama-3.1-8b.json'));
    // Dropped: Qwen3-VL 4B, as a file dropped on the zone.
    const qwen = readFileSync(fixture('qwen3-vl-4b-instruct'), 'utf8');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'qwen3-vl.json', { type: 'application/json' }));
      document.querySelector('[data-testid="scope-drop"]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, qwen);
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('qwen3-vl.json'));
    await checkShown(page, JSON.parse(qwen), width);
    await checkAxes(page, 'qwen3-vl-4b-instruct', lang);
    // Pasted: Devstral Small 2 (Pixtral's vision tower).
    await page.fill('[data-testid="scope-paste"]', readFileSync(fixture('devstral-small-2-24b-instruct'), 'utf8'));
    await page.click('[data-testid="scope-read"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('config.json'));
    await checkAxes(page, 'devstral-small-2-24b-instruct', lang);
    // Chosen with the file input: StarCoder2.
    await page.setInputFiles('[data-testid="scope-file"]', fixture('starcoder2-7b'));
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('starcoder2-7b.json'));
    await checkShown(page, JSON.parse(readFileSync(fixture('starcoder2-7b'), 'utf8')), width);
    // Pasted: DeepSeek-V4 — compressed layers, and the rotary on the trailing 64 of 512 dims.
    const v4 = readFileSync(fixture('deepseek-v4-flash.class-defaults.reconstructed'), 'utf8');
    await page.fill('[data-testid="scope-paste"]', v4);
    await page.click('[data-testid="scope-read"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('config.json'));
    await checkShown(page, JSON.parse(v4), width);
    const notes = await page.$$eval('[data-testid="scope-stack-note"]', (ps) => ps.map((p) => p.textContent));
    assert.ok(notes.some((n) => /448–511/.test(n) && /inverse: true/.test(n)), notes.join(' | '));
    // Refused: an unknown family, and a rope_type that needs a key the config lacks.
    const refused = [
      [{ model_type: 'nope_model' }, 'model_type'],
      [{ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 2, rope_scaling: { rope_type: 'dynamic', factor: 2 } }, 'max_position_embeddings'],
      [{ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 2, rope_theta: -1 }, 'rope_theta'],
    ];
    for (const [config, key] of refused) {
      let message;
      try { pe.modelFromConfig(config); } catch (e) { message = e.message; }
      assert.ok(message, 'the package refuses it');
      await page.fill('[data-testid="scope-paste"]', JSON.stringify(config));
      await page.click('[data-testid="scope-read"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="scope-error"]').textContent !== '');
      const shown = await page.textContent('[data-testid="scope-error"]');
      assert.ok(shown.includes(key), shown);
      if (lang === 'en') assert.equal(shown, message.replace(/^posenc: /, ''));
      else {
        assert.match(shown, /[가-힣]/);
        assert.doesNotMatch(shown, /\b(is|must|required|not a family)\b/, shown);
      }
      assert.equal(await page.$('[data-testid="scope-strip"]'), null);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width);
    }
    // Not JSON at all.
    await page.fill('[data-testid="scope-paste"]', '{ "model_type": ');
    await page.click('[data-testid="scope-read"]');
    await page.waitForFunction(() => /JSON/.test(document.querySelector('[data-testid="scope-error"]').textContent));
    // And a bundled one shows again.
    await page.selectOption('select[name="s18.m"]', 'gpt-j-6b');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('gpt-j-6b.json'));
    assert.equal(await page.textContent('[data-testid="scope-error"]'), '');
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });
}

// A config file dropped on the zone, as the browser hands it to the page.
async function dropFile(page, text, name) {
  await page.evaluate(([text, name]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'application/json' }));
    document.querySelector('[data-testid="scope-drop"]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [text, name]);
  await page.waitForFunction((n) => document.querySelector('[data-testid="scope-source"]').textContent.startsWith(n), name);
}

for (const [lang, width] of VIEWS_A) {
  const word = { en: { encoder: 'encoder', decoder: 'decoder' }, ko: { encoder: '인코더', decoder: '디코더' } }[lang];
  test(`${lang} ${width} px: an encoder-decoder config by stack, a bidirectional window, an inverse rotator`, async () => {
    const page = await suite.open(`#lang=${lang}&sec=18`, { width, height: 900 });
    await page.waitForSelector('[data-testid="scope-errors"]', { timeout: 20000 });
    assert.equal(await page.$eval('[data-testid="scope-stack-pick"]', (e) => e.hidden), true);
    // Dropped: T5Gemma 2's wrapper config; the decoder first (the default), then the encoder.
    const t5 = readFileSync(fixture('t5gemma-2-270m-270m.reconstructed'), 'utf8');
    await dropFile(page, t5, 't5gemma-2.json');
    assert.ok((await page.textContent('[data-testid="scope-source"]')).includes(word.decoder));
    await checkShown(page, JSON.parse(t5), width, 'decoder');
    await page.click('[data-testid="scope-stack-pick"] input[value="encoder"] + label');
    await page.waitForFunction((w) => document.querySelector('[data-testid="scope-source"]').textContent.includes(w), word.encoder);
    await checkShown(page, JSON.parse(t5), width, 'encoder');
    await page.waitForFunction(() => location.hash.includes('s18.stack=encoder'));
    if (lang === 'en' && width === 1280) {
      // The golden vectors of the stack on show: `posenc vectors --stack encoder`.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="scope-download"]')]);
      assert.equal(download.suggestedFilename(), 't5gemma-2.encoder.golden.json');
      assert.equal(readFileSync(await download.path(), 'utf8'), cli(fixture('t5gemma-2-270m-270m.reconstructed'), '--stack', 'encoder'));
    }
    // Pasted: T5Gemma's, read with the stack picked (encoder), then its decoder's separate cross-attention.
    const t5v1 = readFileSync(fixture('t5gemma-2b-2b.reconstructed'), 'utf8');
    await page.fill('[data-testid="scope-paste"]', t5v1);
    await page.click('[data-testid="scope-read"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('config.json'));
    await checkShown(page, JSON.parse(t5v1), width, 'encoder');
    await page.click('[data-testid="scope-stack-pick"] input[value="decoder"] + label');
    await page.waitForFunction((w) => document.querySelector('[data-testid="scope-source"]').textContent.includes(w), word.decoder);
    await checkShown(page, JSON.parse(t5v1), width, 'decoder');
    await page.click('[data-testid="scope-stack-pick"] input[value="encoder"] + label');
    await page.waitForFunction(() => location.hash.includes('s18.stack=encoder'));
    // A single-stack bidirectional model: no stack choice; |i − j| ≤ 128 as its window and lookahead.
    await page.selectOption('select[name="s18.m"]', 'privacy-filter');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('privacy-filter.json'));
    // The link carries only what applies: no s18.stack once the config on show has no stacks.
    await page.waitForFunction(() => !location.hash.includes('s18.stack'), undefined, { timeout: 3000 });
    await checkShown(page, JSON.parse(readFileSync(fixture(BUNDLED['privacy-filter']), 'utf8')), width);
    assert.equal((await tableCells(page, 'scope-stack'))[0][3], 'i − 129 < j ≤ i + 128');
    // nanochat: its rotator turns by −p·θ, said in the table and under it.
    await page.selectOption('select[name="s18.m"]', 'nanochat');
    await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('nanochat.json'));
    await checkShown(page, JSON.parse(readFileSync(fixture(BUNDLED.nanochat), 'utf8')), width);
    assert.match((await page.$$eval('[data-testid="scope-stack-note"]', (n) => n.map((x) => x.textContent))).join(' '), /rotate_half/);
    // The link keeps the stack: T5Gemma 2 bundled, its encoder.
    await page.evaluate((l) => { location.hash = `#lang=${l}&sec=18&s18.m=t5gemma-2-270m&s18.stack=encoder`; }, lang);
    await page.waitForFunction((w) => /^t5gemma-2-270m\.json/.test(document.querySelector('[data-testid="scope-source"]')?.textContent) &&
      document.querySelector('[data-testid="scope-source"]').textContent.includes(w), word.encoder);
    await checkShown(page, JSON.parse(t5), width, 'encoder');
    const p = await page.problems();
    assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
    await page.close();
  });
}

function cli(file, ...flags) {
  const r = spawnSync('node', [join(ROOT, 'wasm', 'bin', 'posenc.mjs'), 'vectors', file, ...flags], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('download golden vectors: the JSON of `posenc vectors` for the same config, byte for byte', async () => {
  const page = await suite.open('#lang=ko&sec=18', { width: 390, height: 900 });
  await page.waitForSelector('[data-testid="scope-errors"]', { timeout: 20000 });
  for (const key of ['qwen2.5-vl-7b', 'gemma-4-e2b', 'llama-4-scout']) {
    await page.selectOption('select[name="s18.m"]', key);
    await page.waitForFunction((k) => document.querySelector('[data-testid="scope-source"]').textContent.startsWith(`${k}.json`), key);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="scope-download"]')]);
    assert.equal(download.suggestedFilename(), `${key}.golden.json`);
    const text = readFileSync(await download.path(), 'utf8');
    assert.equal(text, cli(fixture(BUNDLED[key])), key);
  }
  // The vision tower's: `posenc vectors --tower vision`.
  for (const key of ['qwen2.5-vl-7b', 'ministral-3-3b']) {
    await page.selectOption('select[name="s18.m"]', key);
    await page.waitForFunction((k) => document.querySelector('[data-testid="scope-source"]').textContent.startsWith(`${k}.json`), key);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="scope-vision-download"]')]);
    assert.equal(download.suggestedFilename(), `${key}.vision.golden.json`);
    const text = readFileSync(await download.path(), 'utf8');
    assert.equal(text, cli(fixture(BUNDLED[key]), '--tower', 'vision'), `${key} vision`);
    assert.equal(JSON.parse(text).family, 'vision');
  }
  // A pasted config too.
  await page.fill('[data-testid="scope-paste"]', readFileSync(fixture('minicpm3-4b'), 'utf8'));
  await page.click('[data-testid="scope-read"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="scope-source"]').textContent.startsWith('config.json'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="scope-download"]')]);
  assert.equal(readFileSync(await download.path(), 'utf8'), cli(fixture('minicpm3-4b')));
  await page.close();
});

// A config loads asynchronously: a hash change that re-renders the page before the load ends
// disposes the section whose load is in flight: its ladder plot is never inserted, and must not
// keep retrying to draw itself (ui/plot.js: a microtask retry loop would freeze the page).
test('a hash change while a config loads: the page keeps answering and shows the last pick', async () => {
  const page = await suite.open('#lang=en&sec=18', { width: 1280, height: 900 });
  await page.waitForSelector('[data-testid="scope-errors"]', { timeout: 20000 });
  const keys = Object.keys(BUNDLED).reverse();
  const shown = await evaluateWithin(page, 60000, 'hash changes during loads', async (keys) => {
    for (const k of keys) {
      location.hash = `#lang=en&sec=18&s18.m=${k}`;
      await new Promise((res) => setTimeout(res, 0));
    }
    await new Promise((res) => setTimeout(res, 1000));
    return document.querySelector('[data-testid="scope-source"]').textContent;
  }, keys);
  assert.ok(shown.startsWith(`${keys[keys.length - 1]}.json`), shown);
  await page.waitForSelector('#microscope .uplot');
  const p = await page.problems();
  assert.deepEqual([...p.console, ...p.pageErrors, ...p.csp, ...p.foreign], []);
  await page.close();
});
