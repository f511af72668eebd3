// pe.mropePositions on both binaries against a transcription of Hugging Face transformers'
// get_rope_index (models/qwen2_vl/modeling_qwen2_vl.py Qwen2VLModel.get_rope_index,
// models/qwen2_5_vl/modeling_qwen2_5_vl.py Qwen2_5_VLModel.get_rope_index,
// models/qwen3_vl/modeling_qwen3_vl.py Qwen3VLModel.get_rope_index), which works on token
// ids as HF does; real Qwen2-VL shapes; the ids fed to pe.rope({ mrope }); hostile input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, assertThrows, loadBoth, randomFloats, randomInt } from './support.mjs';

const both = await loadBoth();
const rng = new Random(2424);

const TEXT = 1, VISION_START = 151652, IMAGE = 151655, VIDEO = 151656;

// The prompt's token ids: a text run just before a visual item ends with <|vision_start|>.
function tokenIds(items, m) {
  const ids = [];
  items.forEach((it, i) => {
    if ('text' in it) {
      const next = items[i + 1];
      for (let k = 0; k < it.text; k++) ids.push(next && !('text' in next) && k === it.text - 1 ? VISION_START : TEXT);
    } else {
      const [t, h, w] = it.image ?? it.video;
      for (let k = 0; k < t * (h / m) * (w / m); k++) ids.push(it.image ? IMAGE : VIDEO);
    }
  });
  return ids;
}

// get_rope_index for one unpadded sequence, line by line. model 'qwen2.5-vl': images get
// second_per_grid_t = 0, videos their second_per_grid_ts entry (default 1.0), and
// t_index = (arange(t) * second_per_grid_t * tokens_per_second).long() in float32 (HF's
// current code: truncated after the product). 'qwen3-vl': video_grid_thw is first
// repeat_interleave'd by t with t set to 1, then Qwen2-VL's loop.
function hfGetRopeIndex(inputTokens, imageGridThw, videoGridThw, secondPerGridTs, spatialMergeSize, model, tokensPerSecond) {
  if (model === 'qwen3-vl') {
    videoGridThw = videoGridThw.flatMap(([t, h, w]) => Array.from({ length: t }, () => [1, h, w]));
    secondPerGridTs = null;
  }
  let imageNums = 0, videoNums = 0;
  for (let i = 0; i + 1 < inputTokens.length; i++) {
    if (inputTokens[i] === VISION_START) {
      imageNums += inputTokens[i + 1] === IMAGE;
      videoNums += inputTokens[i + 1] === VIDEO;
    }
  }
  const llmPosIdsList = [];
  const maxOf = (b) => Math.max(...b[0], ...b[1], ...b[2]);
  let st = 0, imageIndex = 0, videoIndex = 0, remainImages = imageNums, remainVideos = videoNums;
  for (let k = 0; k < imageNums + videoNums; k++) {
    const at = (id) => { const j = inputTokens.indexOf(id, st); return j < 0 ? inputTokens.length + 1 : j; };
    const edImage = inputTokens.includes(IMAGE) && remainImages > 0 ? at(IMAGE) : inputTokens.length + 1;
    const edVideo = inputTokens.includes(VIDEO) && remainVideos > 0 ? at(VIDEO) : inputTokens.length + 1;
    let t, h, w, secondPerGridT, ed;
    if (edImage < edVideo) {
      [t, h, w] = imageGridThw[imageIndex];
      secondPerGridT = 0;
      imageIndex += 1; remainImages -= 1; ed = edImage;
    } else {
      [t, h, w] = videoGridThw[videoIndex];
      secondPerGridT = secondPerGridTs ? secondPerGridTs[videoIndex] : 1.0;
      videoIndex += 1; remainVideos -= 1; ed = edVideo;
    }
    const [gt, gh, gw] = [t, Math.floor(h / spatialMergeSize), Math.floor(w / spatialMergeSize)];
    const textLen = ed - st;
    const stIdx = llmPosIdsList.length > 0 ? maxOf(llmPosIdsList.at(-1)) + 1 : 0;
    const text = Array.from({ length: textLen }, (_, p) => p + stIdx);
    llmPosIdsList.push([text, text, text]);
    const vis = [[], [], []];
    for (let ti = 0; ti < gt; ti++) {
      const tIndex = model === 'qwen2.5-vl'
        ? Math.trunc(Math.fround(Math.fround(ti * Math.fround(secondPerGridT)) * Math.fround(tokensPerSecond))) : ti;
      for (let hi = 0; hi < gh; hi++) {
        for (let wi = 0; wi < gw; wi++) {
          vis[0].push(tIndex + textLen + stIdx); vis[1].push(hi + textLen + stIdx); vis[2].push(wi + textLen + stIdx);
        }
      }
    }
    llmPosIdsList.push(vis);
    st = ed + gt * gh * gw;
  }
  if (st < inputTokens.length) {
    const stIdx = llmPosIdsList.length > 0 ? maxOf(llmPosIdsList.at(-1)) + 1 : 0;
    const text = Array.from({ length: inputTokens.length - st }, (_, p) => p + stIdx);
    llmPosIdsList.push([text, text, text]);
  }
  const rows = [0, 1, 2].map((a) => llmPosIdsList.flatMap((b) => b[a]));
  const delta = rows[0].length === 0 ? 0 : Math.max(...rows[0], ...rows[1], ...rows[2]) + 1 - inputTokens.length;
  return { positions: Int32Array.from(rows.flat()), delta };
}

function reference(items, { spatialMerge = 2, model, tokensPerSecond = 0 }) {
  const images = items.filter((it) => it.image).map((it) => it.image);
  const videos = items.filter((it) => it.video);
  return hfGetRopeIndex(tokenIds(items, spatialMerge), images, videos.map((it) => it.video),
    videos.map((it) => it.secondsPerGrid ?? 1.0), spatialMerge, model, tokensPerSecond);
}

// A Qwen3-VL prompt: each frame of a video its own item, after a 3-token timestamp and
// <|vision_end|> <|vision_start|> (the processor's layout).
const framesOf = (items) => items.flatMap((it) => (it.video === undefined ? [it]
  : Array.from({ length: it.video[0] }, (_, f) => [...(f > 0 ? [{ text: 5 }] : []), { video: [1, it.video[1], it.video[2]] }]).flat()));

function assertMatchesHf(pe, items, opts) {
  if (opts.model === 'qwen3-vl') items = framesOf(items);
  const got = pe.mropePositions({ items, ...opts });
  const want = reference(items, opts);
  assert.ok(got.positions instanceof Int32Array);
  assert.equal(got.tokens, want.positions.length / 3);
  assert.deepEqual(got.positions, want.positions);
  assert.equal(got.delta, want.delta);
  return got;
}

// Real shapes: a 448 × 448 Qwen2-VL image is 32 × 32 patches of 14 px (16 × 16 tokens); a
// 4-frame 336 × 252 video with temporal patch 2 is grid (2, 24, 18); 1.0 s per grid at 2 fps.
const IMAGE_448 = [{ text: 15 }, { image: [1, 32, 32] }, { text: 9 }];
const VIDEO_4 = [{ text: 4 }, { video: [2, 24, 18], secondsPerGrid: 1.0 }, { text: 6 }];
const MIXED = [{ text: 3 }, { video: [2, 24, 18], secondsPerGrid: 0.5 }, { text: 2 }, { image: [1, 8, 44] },
  { text: 4 }, { video: [5, 4, 2], secondsPerGrid: 1.5 }, { text: 1 }];

for (const [flavour, pe] of Object.entries(both)) {
  test(`${flavour}: a 448×448 image and a 4-frame video as HF's get_rope_index`, () => {
    const r = assertMatchesHf(pe, IMAGE_448, { model: 'qwen2-vl', spatialMerge: 2 });
    assert.equal(r.tokens, 15 + 256 + 9);
    assert.deepEqual([r.positions[15], r.positions[280 + 15 + 17], r.positions[560 + 15 + 17]], [15, 16, 16]);
    assert.equal(r.positions[279], 15 + 16 + 8); // the text after the image: 31 … 39
    assert.equal(r.delta, 40 - 280);
    for (const model of ['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']) {
      for (const items of [IMAGE_448, VIDEO_4, MIXED]) assertMatchesHf(pe, items, { model, tokensPerSecond: 2 });
    }
    // Qwen2.5-VL: 2 tokens per second, 1 s per grid → frames 2 apart; a 0.5-s grid → 1 apart.
    const v = pe.mropePositions({ items: VIDEO_4, model: 'qwen2.5-vl', tokensPerSecond: 2 });
    assert.deepEqual([v.positions[4], v.positions[4 + 12 * 9]], [4, 6]);
  });

  test(`${flavour}: random sequences, every model, against the transcription`, () => {
    for (let trial = 0; trial < 60; trial++) {
      const items = [];
      for (let n = randomInt(rng, 0, 6); n > 0; n--) {
        items.push({ text: randomInt(rng, 1, 5) }); // … <|vision_start|>
        const grid = [randomInt(rng, 1, 4), 2 * randomInt(rng, 1, 5), 2 * randomInt(rng, 1, 5)];
        if (rng.below(2) === 0) items.push({ image: grid });
        else items.push({ video: grid, secondsPerGrid: [0.5, 1, 1.5, 2 / 3, 0.083][rng.below(5)] });
        if (rng.below(2) === 0) items.push({ text: randomInt(rng, 0, 3) });
      }
      const model = ['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl'][trial % 3];
      assertMatchesHf(pe, items, { model, tokensPerSecond: [2, 4, 25, 0.7][trial % 4] });
    }
  });

  test(`${flavour}: Qwen3-VL frames, text only, empty`, () => {
    const frames = [{ text: 2 }, { video: [1, 4, 4] }, { text: 3 }, { video: [1, 4, 4] }, { text: 2 }];
    const r = pe.mropePositions({ items: frames, model: 'qwen3-vl' });
    assert.deepEqual(Array.from(r.positions.subarray(0, 15)), [0, 1, 2, 2, 2, 2, 4, 5, 6, 7, 7, 7, 7, 9, 10]);
    assertThrows(() => pe.mropePositions({ items: [{ text: 1 }, { video: [3, 4, 4] }], model: 'qwen3-vl' }), RangeError,
      /items\[1\]\.video\[0\] \(t\) must be 1 for qwen3-vl, got 3/);
    const text = pe.mropePositions({ items: [{ text: 4 }], model: 'qwen2-vl' });
    assert.deepEqual(Array.from(text.positions), [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    assert.equal(text.delta, 0);
    const empty = pe.mropePositions({ items: [], model: 'qwen2.5-vl' });
    assert.deepEqual([empty.positions.length, empty.tokens, empty.delta], [0, 0, 0]);
    // grid rows as transformers.js hands them out (int64) and BigInt text counts
    const big = pe.mropePositions({ items: [{ text: 2n }, { image: new BigInt64Array([1n, 4n, 4n]) }, { image: Int32Array.of(1, 2, 2) }],
      model: 'qwen2-vl' });
    assert.deepEqual(big.positions, reference([{ text: 2 }, { image: [1, 4, 4] }, { image: [1, 2, 2] }], { model: 'qwen2-vl' }).positions);
  });

  test(`${flavour}: the ids drive pe.rope({ mrope }): text tokens as plain RoPE, all as HF's ids`, () => {
    const headDim = 128, heads = 2;
    const { positions, tokens, delta } = pe.mropePositions({ items: MIXED, model: 'qwen2.5-vl', tokensPerSecond: 2 });
    const x = randomFloats(rng, tokens * heads * headDim);
    const mrope = pe.rope({ headDim, base: 1e6, mrope: { section: [16, 24, 24] } });
    const plain = pe.rope({ headDim, base: 1e6 });
    try {
      const viaIds = mrope.apply(Float32Array.from(x), { heads, positions });
      const viaHf = mrope.apply(Float32Array.from(x), { heads, positions: reference(MIXED, { model: 'qwen2.5-vl', tokensPerSecond: 2 }).positions });
      assert.deepEqual(viaIds, viaHf);
      const last = tokens - 1; // a text token: (p, p, p)
      const row = x.subarray(last * heads * headDim, tokens * heads * headDim);
      const one = plain.apply(Float32Array.from(row), { heads, positions: [positions[last]] });
      assert.deepEqual(viaIds.subarray(last * heads * headDim), one);
      // Decoding continues at tokens + delta on every axis: the next id after the last one.
      assert.equal(tokens + delta, positions[last] + 1);
    } finally {
      mrope.dispose();
      plain.dispose();
    }
  });

  test(`${flavour}: refused input names the JS argument, allocates nothing, module keeps working`, () => {
    const before = pe.memoryStats().heapInUse;
    const call = (o) => () => pe.mropePositions(o);
    const ok = { items: IMAGE_448, model: 'qwen2-vl' };
    assertThrows(call(undefined), TypeError, /needs items/);
    assertThrows(call({ items: IMAGE_448 }), TypeError, /needs model/);
    assertThrows(call({ ...ok, model: 'qwen2_vl' }), RangeError, /model must be 'qwen2-vl' or 'qwen2.5-vl' or 'qwen3-vl'/);
    assertThrows(call({ ...ok, extra: 1 }), TypeError, /unknown option 'extra'/);
    assertThrows(call({ ...ok, spatialMerge: 0 }), RangeError, /spatialMerge must be an integer in \[1, 1024\], got 0/);
    assertThrows(call({ ...ok, spatialMerge: 1.5 }), RangeError, /spatialMerge/);
    assertThrows(call({ ...ok, items: { length: 1, 0: { text: 1 } } }), TypeError, /items must be an array/);
    assertThrows(call({ ...ok, items: [{ text: 1 }, , { text: 1 }] }), TypeError, /items\[1\] is missing/); // eslint-disable-line no-sparse-arrays
    assertThrows(call({ ...ok, items: [null] }), TypeError, /items\[0\]/);
    assertThrows(call({ ...ok, items: [{}] }), TypeError, /items\[0\] must have one of text, image or video, got none/);
    assertThrows(call({ ...ok, items: [{ text: 1, image: [1, 2, 2] }] }), TypeError, /got text and image/);
    assertThrows(call({ ...ok, items: [{ text: 1, secondsPerGrid: 1 }] }), TypeError, /items\[0\]\.secondsPerGrid belongs to a video/);
    assertThrows(call({ ...ok, items: [{ text: -1 }] }), RangeError, /items\[0\]\.text must be an integer in \[0, 67108864\]/);
    assertThrows(call({ ...ok, items: [{ text: '3' }] }), TypeError, /items\[0\]\.text must be an integer/);
    assertThrows(call({ ...ok, items: [{ image: [1, 32] }] }), RangeError, /items\[0\]\.image must hold 3 values/);
    assertThrows(call({ ...ok, items: [{ image: [1, 32, 32, 1] }] }), RangeError, /items\[0\]\.image holds 4 values/);
    assertThrows(call({ ...ok, items: [{ image: new Float32Array(3) }] }), TypeError, /items\[0\]\.image must be an array of 3 integers/);
    assertThrows(call({ ...ok, items: [{ image: [1, 33, 32] }] }), RangeError, /items\[0\]\.image\[1\] \(h\) must be a multiple of spatialMerge \(2\), got 33/);
    assertThrows(call({ ...ok, items: [{ text: 1 }, { video: [0, 2, 2] }] }), RangeError, /items\[1\]\.video\[0\] \(t\) must be an integer in \[1, 2147483647\], got 0/);
    assertThrows(call({ ...ok, items: [{ image: [1, 2, 2 ** 31] }] }), RangeError, /items\[0\]\.image\[2\]/);
    assertThrows(call({ ...ok, items: [{ image: [1, 2, 2n ** 70n] }] }), RangeError, /items\[0\]\.image\[2\]/);
    assertThrows(call({ ...ok, items: [{ image: [1, 2 ** 15, 2 ** 15] }], spatialMerge: 1 }), RangeError, /more than 67108864 \(2\^26\) tokens/);
    assertThrows(call({ ...ok, items: [{ video: [2, 2, 2] }], model: 'qwen2.5-vl' }), RangeError, /tokensPerSecond \(2 in the released Qwen2.5-VL checkpoints\) is required/);
    assertThrows(call({ ...ok, items: [{ video: [2, 2, 2], secondsPerGrid: -1 }], model: 'qwen2.5-vl', tokensPerSecond: 2 }), RangeError, /items\[0\]\.secondsPerGrid must be a finite number in \[0, 2\^24\]/);
    assertThrows(call({ ...ok, items: [{ video: [2, 2, 2], secondsPerGrid: NaN }], model: 'qwen2.5-vl', tokensPerSecond: 2 }), RangeError, /items\[0\]\.secondsPerGrid/);
    assertThrows(call({ ...ok, tokensPerSecond: Infinity }), RangeError, /tokensPerSecond must be a finite number/);
    assertThrows(call({ ...ok, items: [{ video: [2, 2, 2], secondsPerGrid: 2 ** 24 }], model: 'qwen2.5-vl', tokensPerSecond: 256 }), RangeError,
      /items\[0\] takes positions past 2147483647/);
    assert.equal(pe.memoryStats().heapInUse, before);
    assertMatchesHf(pe, IMAGE_448, ok);
  });

  test(`${flavour}: options and items are read once, own properties only`, () => {
    const reads = [];
    const item = { get text() { reads.push('text'); return 3; } };
    const items = [item, { image: [1, 4, 4] }];
    const opts = { get items() { reads.push('items'); return items; }, model: 'qwen2-vl' };
    const r = pe.mropePositions(opts);
    assert.deepEqual(reads, ['items', 'text']);
    assert.deepEqual(r.positions, reference([{ text: 3 }, { image: [1, 4, 4] }], { model: 'qwen2-vl' }).positions);
    // A Proxy item: one ownKeys and one getOwnPropertyDescriptor per key, never get.
    const traps = [];
    const proxy = new Proxy({ video: [2, 4, 4], secondsPerGrid: 1 }, {
      ownKeys(t) { traps.push('ownKeys'); return Reflect.ownKeys(t); },
      getOwnPropertyDescriptor(t, k) { traps.push(`gopd ${String(k)}`); return Reflect.getOwnPropertyDescriptor(t, k); },
      get() { traps.push('get'); return undefined; },
    });
    pe.mropePositions({ items: [proxy], model: 'qwen2.5-vl', tokensPerSecond: 2 });
    assert.deepEqual(traps, ['ownKeys', 'gopd video', 'gopd secondsPerGrid']);
    // Inherited keys are never read: a polluted Object.prototype changes nothing.
    Object.prototype.secondsPerGrid = 100; Object.prototype.video = [1, 2, 2]; Object.prototype.tokensPerSecond = 50;
    try {
      const p = pe.mropePositions({ items: [{ text: 2 }, { image: [1, 2, 2] }], model: 'qwen2.5-vl' });
      assert.deepEqual(Array.from(p.positions), [0, 1, 2, 0, 1, 2, 0, 1, 2]);
    } finally {
      delete Object.prototype.secondsPerGrid; delete Object.prototype.video; delete Object.prototype.tokensPerSecond;
    }
    // Subclassed arrays and shadowed lengths: the own elements and the own length count.
    class Items extends Array {}
    const sub = Items.from([{ text: 2 }]);
    assert.equal(pe.mropePositions({ items: sub, model: 'qwen2-vl' }).tokens, 2);
    // A getter that calls posenc itself runs to completion before the outer call stages memory.
    const reentrant = { get text() { return pe.mropePositions({ items: [{ text: 5 }], model: 'qwen2-vl' }).tokens; } };
    assert.equal(pe.mropePositions({ items: [reentrant, { image: [1, 2, 2] }], model: 'qwen2-vl' }).tokens, 6);
    // A getter that throws: its error comes through, nothing is left allocated.
    const before = pe.memoryStats().heapInUse;
    assert.throws(() => pe.mropePositions({ items: [{ get image() { throw new Error('boom'); } }], model: 'qwen2-vl' }), /boom/);
    assert.equal(pe.memoryStats().heapInUse, before);
  });
}
