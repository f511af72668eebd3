// Section 15 (RoPE on image patches and video) in English and Korean: the scores the page
// prints are recomputed here with the package in Node (rotations by the package, the dot
// product in float64 by the test); moving the window or the query keeps the scores around
// the query; switching Qwen2-VL ↔ Pixtral changes them; M-RoPE text tokens equal plain RoPE
// bit for bit; section 14's RoPE-with-scaling map stays exactly relative.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, tableCells, num, setNumber } from './helpers.mjs';
import { createPosenc } from '../../wasm/index.js';

const LANGS = ['en', 'ko'];
let suite;
let pe;
before(async () => {
  suite = await startSuite();
  pe = await createPosenc();
});
after(async () => { await suite?.close(); });

async function clean(page) {
  const p = await page.problems();
  assert.deepEqual([...p.pageErrors, ...p.console, ...p.csp, ...p.foreign], []);
}

const sciValue = (t) => num(t.replace(' × 10', 'e').replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/, (s) => s.replace(/./g, (c) => '0123456789-'['⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.indexOf(c)])));
/** The first number of a read-out such as "9.5 × 10⁻⁷ (float32 rounding)" (or a plain 0). */
const gapOf = (t) => {
  const m = t.match(/[\d.]+ × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|(?<![\d.])0(?![\d.])/);
  assert.ok(m, `no number in "${t}"`);
  return sciValue(m[0]);
};
const nearValues = async (page) => (await tableCells(page, 'patch-near')).map((r) => r.slice(1).map((c) => (c === '·' ? null : num(c))));

/** The section's content vectors: the package's seeded floats, as the page draws them. */
function contents(seed, dim) {
  const all = pe.fillUniform(new Float32Array(2 * dim), { seed, lo: -1, hi: 1 });
  return [all.subarray(0, dim), all.subarray(dim)];
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** ⟨R(query)q, R(key)k⟩ with the package's rotator (positions one value per axis). */
function score(options, q, k, query, key) {
  const rope = pe.rope(options);
  try {
    const rq = rope.apply(Float32Array.from(q), { tokens: 1, heads: 1, positions: query });
    const rk = rope.apply(Float32Array.from(k), { tokens: 1, heads: 1, positions: key });
    return dot(rq, rk);
  } finally {
    rope.dispose();
  }
}

/** The 5 × 5 scores around the query (Δ = −2 … 2) for a window at `offset`, query at `query`. */
function expectedNear(vision2d, { dim = 64, query, offset, size = 12 }) {
  const [q, k] = contents(15, dim);
  const at = [offset[0] + query[0], offset[1] + query[1]];
  return [-2, -1, 0, 1, 2].map((dr) => [-2, -1, 0, 1, 2].map((dc) => {
    const r = query[0] + dr; const c = query[1] + dc;
    if (r < 0 || c < 0 || r >= size || c >= size) return null;
    return score({ headDim: dim, base: 10000, vision2d }, q, k, at, [at[0] + dr, at[1] + dc]);
  }));
}

function assertNear(got, want, tol, what) {
  assert.equal(got.length, want.length, what);
  got.forEach((row, i) => row.forEach((v, j) => {
    if (want[i][j] === null) assert.equal(v, null, `${what} [${i}][${j}] should be outside the window`);
    else assert.ok(Math.abs(v - want[i][j]) <= tol, `${what} [${i}][${j}]: page ${v}, expected ${want[i][j]}`);
  }));
}

for (const lang of LANGS) {
  test(`§15 ${lang}: the section renders with its maps, in the page's language`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    const sec = page.locator('section#multiaxis');
    assert.equal(await sec.getAttribute('data-section'), '15');
    for (const id of ['patch-window-map', 'patch-relative-map', 'video-map']) {
      assert.equal(await page.locator(`[data-testid="${id}"] canvas.heat-canvas`).count(), 1, id);
    }
    assert.equal(await page.locator('section#multiaxis .note.warn').count(), 0);
    const text = await sec.textContent();
    if (lang === 'ko') {
      for (const term of ['이미지와 비디오의 RoPE', '패치', '회전', '내적', '상대 위치', '차원쌍', '주파수 사다리']) {
        assert.ok(text.includes(term), `Korean term ${term}`);
      }
    } else {
      assert.match(text, /RoPE on images and video/);
    }
    // The table of contents lists it, and the speed section moved to 16.
    assert.equal(await page.locator('#toc a[data-sec="15"]').textContent(), await page.locator('#s15-title').evaluate((e) => e.lastChild.textContent));
    assert.equal(await page.locator('section#speed').getAttribute('data-section'), '16');
    await clean(page);
    await page.close();
  });

  test(`§15 ${lang}: patch scores are the package's, and moving the window or the query keeps them`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    const first = await nearValues(page);
    assertNear(first, expectedNear('qwen2-vl', { query: [4, 7], offset: [20, 37] }), 2e-4, 'default window');
    assert.ok(gapOf(await page.textContent('[data-testid="patch-window-gap"]')) < 1e-5);
    assert.ok(gapOf(await page.textContent('[data-testid="patch-relative-gap"]')) < 1e-5);

    // The window far into a large image: the same scores around the query.
    await setNumber(page, 's15.or', 5000);
    await setNumber(page, 's15.oc', 91234);
    await page.waitForFunction(() => /s15\.oc=91234/.test(location.hash));
    const moved = await nearValues(page);
    assertNear(moved, first.map((r) => r.map((v) => v)), 2e-4, 'window moved');
    assertNear(moved, expectedNear('qwen2-vl', { query: [4, 7], offset: [5000, 91234] }), 2e-4, 'window moved (package)');
    assert.ok(gapOf(await page.textContent('[data-testid="patch-window-gap"]')) < 1e-5);

    // Drag the query on the map from patch (4, 7) to (6, 5): the sliders and the hash follow,
    // and the scores around it are the same (all 25 cells still inside the window).
    const canvas = page.locator('[data-testid="patch-window-map"] canvas.heat-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const cell = (r, c) => [box.x + ((c + 0.5) * box.width) / 12, box.y + ((r + 0.5) * box.height) / 12];
    await page.mouse.move(...cell(4, 7));
    await page.mouse.down();
    await page.mouse.move(...cell(5, 6), { steps: 4 });
    await page.mouse.move(...cell(6, 5), { steps: 4 });
    await page.mouse.up();
    assert.equal(await page.inputValue('input[type="number"][name="s15.qr"]'), '6');
    assert.equal(await page.inputValue('input[type="number"][name="s15.qc"]'), '5');
    await page.waitForFunction(() => /s15\.qr=6/.test(location.hash) && /s15\.qc=5/.test(location.hash));
    assertNear(await nearValues(page), first, 2e-4, 'query dragged');
    assert.ok(gapOf(await page.textContent('[data-testid="patch-relative-gap"]')) < 1e-5);

    // Drag the image under the window instead: the patch under the pointer follows it, so
    // dragging from (8, 9) to (5, 4) moves the window by (+3, +5) — and the scores stay.
    await page.click('[data-param="s15.drag"] label >> nth=1');
    const before = [Number(await page.inputValue('input[type="number"][name="s15.or"]')), Number(await page.inputValue('input[type="number"][name="s15.oc"]'))];
    await page.mouse.move(...cell(8, 9));
    await page.mouse.down();
    await page.mouse.move(...cell(6, 6), { steps: 4 });
    await page.mouse.move(...cell(5, 4), { steps: 4 });
    await page.mouse.up();
    assert.equal(await page.inputValue('input[type="number"][name="s15.or"]'), String(before[0] + 3));
    assert.equal(await page.inputValue('input[type="number"][name="s15.oc"]'), String(before[1] + 5));
    assert.equal(await page.inputValue('input[type="number"][name="s15.qr"]'), '6');
    assertNear(await nearValues(page), first, 2e-4, 'window dragged');
    assertNear(await nearValues(page), expectedNear('qwen2-vl', { query: [6, 5], offset: [before[0] + 3, before[1] + 5] }), 2e-4, 'window dragged (package)');
    assert.ok(gapOf(await page.textContent('[data-testid="patch-window-gap"]')) < 1e-5);

    // At the window's edge the cells outside are marked, the others unchanged.
    await setNumber(page, 's15.qr', 0);
    const edge = await nearValues(page);
    assert.deepEqual(edge.slice(0, 2).flat(), Array(10).fill(null));
    assertNear(edge.slice(2), first.slice(2), 2e-4, 'query at the top edge');
    await clean(page);
    await page.close();
  });

  test(`§15 ${lang}: switching Qwen2-VL ↔ Pixtral changes the map and the ladder split`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    const qwen = await nearValues(page);
    const qwenRungs = await tableCells(page, 'patch-rungs');
    await page.click('[data-param="s15.conv"] label:has-text("Pixtral")');
    await page.waitForFunction(() => /s15\.conv=pixtral/.test(location.hash));
    const pix = await nearValues(page);
    assertNear(pix, expectedNear('pixtral', { query: [4, 7], offset: [20, 37] }), 2e-4, 'pixtral');
    const change = Math.max(...pix.flat().map((v, i) => Math.abs(v - qwen.flat()[i])));
    assert.ok(change > 0.05, `the convention changes the scores (by ${change})`);
    assert.ok(num(await page.textContent('[data-testid="patch-conv-gap"]')) >= change - 1e-4);
    // Qwen2-VL: rows 0–15 and columns 16–31 share one ladder; Pixtral: the column takes the odd rungs.
    const pixRungs = await tableCells(page, 'patch-rungs');
    assert.deepEqual(qwenRungs.map((r) => r[1]), ['0–15', '16–31']);
    assert.equal(qwenRungs[0][2], qwenRungs[1][2]);
    assert.equal(pixRungs[0][2].split(', ')[0], '1');
    assert.equal(pixRungs[1][2].split(', ')[0], '0.75');  // θ₁ = 10000^(−2/64)
    assert.match(await page.textContent('[data-testid="patch-conv-text"]'), /Pixtral/);
    await clean(page);
    await page.close();
  });

  test(`§15 ${lang}: M-RoPE text tokens are plain RoPE bit for bit; the (Δt, Δh, Δw) scores are the package's`, async () => {
    const page = await suite.open(`#lang=${lang}`);
    // The position table: HF's Qwen2-VL ids for 3 text tokens, 4 frames of 6 × 6 merged
    // patches (grid 4 × 12 × 12) and 2 text tokens: frame f at t = 3 + f, h, w = 3 … 8, the
    // text after the video from 3 + max(4, 6) = 9 on.
    const ids = await tableCells(page, 'video-positions');
    assert.deepEqual(ids.map((r) => r.slice(1)), [['0', '0', '0'], ['1', '1', '1'], ['2', '2', '2'],
      ...[3, 4, 5, 6].map((t) => [String(t), '3 … 8', '3 … 8']), ['9', '9', '9'], ['10', '10', '10']]);
    assert.match(ids[7][0], /147/); // the first text token after 3 + 4·36 patches
    for (const interleaved of [false, true]) {
      if (interleaved) await page.click('input[name="s15.inter"]');
      const out = page.locator('[data-testid="video-text-match"]');
      const [same, total] = [Number(await out.getAttribute('data-same')), Number(await out.getAttribute('data-total'))];
      assert.ok(total === 5 * 2 * 64 && same === total, `text tokens: ${same} of ${total} identical`);
      assert.match(await out.textContent(), new RegExp(`${total}.*${total}|${total}.*${same}`));
      assert.ok(gapOf(await page.textContent('[data-testid="video-gap"]')) < 1e-5);
      // Along each axis from the query (3, 6, 6), recomputed with the package's M-RoPE rotator.
      const section = interleaved ? [12, 10, 10] : [8, 12, 12];
      assert.match(await page.textContent('[data-testid="video-section"]'), new RegExp(`\\[${section.join(', ')}\\]`));
      const [q, k] = contents(152, 64);
      const options = { headDim: 64, base: 1e6, mrope: { section, interleaved } };
      const rows = await tableCells(page, 'video-axes');
      for (let d = 0; d < 6; d++) {
        for (let axis = 0; axis < 3; axis++) {
          const key = [3, 6, 6].map((p, a) => p + (a === axis ? d : 0));
          const want = score(options, q, k, [3, 6, 6], key);
          assert.ok(Math.abs(num(rows[d][axis + 1]) - want) <= 2e-4, `Δ${'thw'[axis]} = ${d}: page ${rows[d][axis + 1]}, expected ${want}`);
        }
      }
      // The prose's claim: contiguous sections leave w the slowest rungs (spread < 10⁻³) and t
      // the fastest (> 1); interleaved sections make every axis move.
      const spread = rows[6].slice(1).map(num);
      if (!interleaved) assert.ok(spread[2] < 1e-3 && spread[0] > 1, `contiguous spreads ${spread}`);
      else assert.ok(spread.every((s) => s > 0.1), `interleaved spreads ${spread}`);
    }
    await clean(page);
    await page.close();
  });
}

test('§15: Δt adds one amount to every cell of the video map; bad hash values fall back with a note', async () => {
  const page = await suite.open('#lang=en&s15.dt=0');
  const canvas = page.locator('[data-testid="video-map"] canvas.heat-canvas');
  const readout = page.locator('[data-testid="video-map"] .heat-readout');
  const valueOf = async () => num((await readout.textContent()).split(': score ')[1]);
  const legend = () => page.locator('[data-testid="video-map"] .legend-min').textContent();
  // Cell A (Δh −5, Δw −5) and cell B (Δh −3, Δw −2), read with the keyboard.
  const readAB = async (forward) => {
    await canvas.focus();
    const first = await valueOf();
    for (const key of forward ? ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown'] : ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowUp']) await canvas.press(key);
    const second = await valueOf();
    return forward ? [first, second] : [second, first];
  };
  const [a0, b0] = await readAB(true);
  const legend0 = await legend();
  await setNumber(page, 's15.dt', 3);
  const [a3, b3] = await readAB(false);
  assert.notEqual(await legend(), legend0);
  assert.ok(Math.abs(a3 - a0) > 0.1, `Δt changes the scores (${a0} → ${a3})`);
  assert.ok(Math.abs((a3 - a0) - (b3 - b0)) <= 3e-4, `the same amount at every cell: ${a3 - a0} vs ${b3 - b0}`);
  assert.ok(gapOf(await page.textContent('[data-testid="video-gap"]')) < 1e-5);
  // Δt is clamped to the frames there are: 4 frames allow |Δt| ≤ 3.
  await setNumber(page, 's15.dt', 7);
  assert.equal(await page.inputValue('input[type="number"][name="s15.dt"]'), '3');
  const bad = await suite.open('#lang=en&s15.d=20&s15.conv=vit');
  assert.equal(await bad.locator('[data-testid="hash-note"] li').count(), 2);
  assert.equal(await bad.locator('section#multiaxis .note.warn').count(), 0);
  await clean(page);
  await clean(bad);
  await page.close();
  await bad.close();
});

test('§14: RoPE with scaling stays exactly relative; the sinusoidal map drifts', async () => {
  for (const lang of LANGS) {
    const page = await suite.open(`#lang=${lang}`);
    const scaledNote = await page.textContent('[data-testid="fam-rope-scaled-note"]');
    const gap = gapOf(scaledNote);
    assert.ok(gap < 1e-4, `scaled RoPE diagonal change ${scaledNote}`);
    const sinNote = await page.textContent('[data-testid="fam-sin-note"]');
    const drift = num(sinNote.match(/(\d+\.\d+)\)/)[1]);
    assert.ok(drift > 0.1, `sinusoidal drift ${sinNote}`);
    assert.match(await page.locator('div.family:has([data-testid="fam-rope-scaled"]) h4').textContent(), /yarn/);
    await page.click('[data-param="s14.scale"] label:has-text("linear")');
    await page.waitForFunction(() => /s14\.scale=linear/.test(location.hash));
    assert.match(await page.locator('div.family:has([data-testid="fam-rope-scaled"]) h4').textContent(), /linear/);
    await clean(page);
    await page.close();
  }
});
