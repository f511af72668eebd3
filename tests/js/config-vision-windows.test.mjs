// The token order a windowed vision layer's `patchWindow` describes, checked against
// transformers' own: vision_utils.get_vision_window_index (c49429ed; what
// Qwen2_5_VisionTransformerPretrainedModel.get_window_index and Qwen2_5OmniVisionEncoder.forward
// call) re-implemented below step by step, on grids with whole and partial windows (right and
// bottom edges), several frames and several images.
//
// posenc has no helper that reorders tokens; a port builds the order from `patchWindow`
// ({ side, merge }) as the typings and README describe it, which `documentedOrder` follows:
// per image and frame, merged tokens (merge × merge patches, consecutive in the input) on a
// (h / merge) × (w / merge) grid, cut from the top-left corner into side × side windows
// (partial at the right and bottom), taken window by window (windows row-major, tokens
// row-major inside each), the rotary positions moved with their tokens; each window is one
// attention segment of the windowed layers (cu_window_seqlens), and the merger's output is put
// back in the input order afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadBoth, repoRoot } from './support.mjs';

const both = await loadBoth();
const load = (name) => JSON.parse(readFileSync(`${repoRoot}tests/fixtures/hf-configs/${name}.json`, 'utf8'));

// get_vision_window_index: → { windowIndex (merged tokens), cuWindowSeqlens (patches) }.
function hfWindowIndex(gridThw, spatialMergeSize, windowSize, patchSize) {
  const windowIndex = [];
  const cu = [0];
  let windowIndexId = 0;
  const vitMergerWindowSize = Math.floor(Math.floor(windowSize / spatialMergeSize) / patchSize);
  const spatialMergeUnit = spatialMergeSize ** 2;
  for (const [gridT, gridH, gridW] of gridThw) {
    const llmGridH = Math.floor(gridH / spatialMergeSize);
    const llmGridW = Math.floor(gridW / spatialMergeSize);
    // index = arange(t · h · w).reshape(t, h, w); F.pad(…, (0, pad_w, 0, pad_h), value -100)
    const padH = vitMergerWindowSize - (llmGridH % vitMergerWindowSize);
    const padW = vitMergerWindowSize - (llmGridW % vitMergerWindowSize);
    const numWindowsH = (llmGridH + padH) / vitMergerWindowSize;
    const numWindowsW = (llmGridW + padW) / vitMergerWindowSize;
    const padded = (t, y, x) => (y < llmGridH && x < llmGridW ? (t * llmGridH + y) * llmGridW + x : -100);
    // reshape(t, nh, s, nw, s).permute(0, 1, 3, 2, 4): windows row-major, rows then columns inside.
    const seqlens = [];
    for (let t = 0; t < gridT; t++) {
      for (let wh = 0; wh < numWindowsH; wh++) {
        for (let ww = 0; ww < numWindowsW; ww++) {
          let n = 0;
          for (let i = 0; i < vitMergerWindowSize; i++) {
            for (let j = 0; j < vitMergerWindowSize; j++) {
              const v = padded(t, wh * vitMergerWindowSize + i, ww * vitMergerWindowSize + j);
              if (v !== -100) {
                windowIndex.push(v + windowIndexId);
                n++;
              }
            }
          }
          seqlens.push(n);
        }
      }
    }
    let sum = 0;
    const last = cu[cu.length - 1];
    for (const n of seqlens) cu.push((sum += n) * spatialMergeUnit + last); // seqlens.cumsum(0) · unit + cu[-1]
    windowIndexId += gridT * llmGridH * llmGridW;
  }
  const cuWindowSeqlens = cu.filter((v, i) => i === 0 || v !== cu[i - 1]); // torch.unique_consecutive
  return { windowIndex, cuWindowSeqlens };
}

// The order `patchWindow` documents, in patches: → { order, segments }. `columnsFirst` walks
// each window column by column instead: not the documented rule (the check must catch it).
function documentedOrder(gridThw, { side, merge }, columnsFirst = false) {
  const order = [];
  const segments = [0];
  let base = 0; // patches before this image and frame
  for (const [t, h, w] of gridThw) {
    const rows = h / merge;
    const cols = w / merge;
    for (let frame = 0; frame < t; frame++) {
      for (let wy = 0; wy < rows; wy += side) {
        for (let wx = 0; wx < cols; wx += side) {
          for (let y = wy; y < Math.min(wy + side, rows); y++) {
            for (let x = wx; x < Math.min(wx + side, cols); x++) {
              const [r, c] = columnsFirst ? [wy + (x - wx), wx + (y - wy)] : [y, x];
              if (r >= rows || c >= cols) continue;
              const first = base + (r * cols + c) * merge * merge; // the merged token's patches stay together
              for (let k = 0; k < merge * merge; k++) order.push(first + k);
            }
          }
          segments.push(order.length);
        }
      }
      base += rows * cols * merge * merge;
    }
  }
  return { order, segments };
}

// HF's patch order: hidden_states.reshape(seq_len // unit, unit, -1)[window_index].
const hfPatchOrder = (windowIndex, merge) => windowIndex.flatMap((m) => Array.from({ length: merge * merge }, (_, k) => m * merge * merge + k));

const GRIDS = [
  [[1, 16, 16]], // 8 × 8 merged tokens: whole 4 × 4 windows (HF pads a row and a column of empty ones)
  [[1, 22, 30]], // 11 × 15: partial windows at the right and bottom
  [[1, 2, 2]], // a single merged token, smaller than a window
  [[3, 10, 6]], // three frames of 5 × 3
  [[1, 4, 36], [2, 18, 14], [1, 34, 2]], // several images, frames, a one-column one
];

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: patchWindow's documented order is get_vision_window_index's`, () => {
    const cases = [];
    const q25 = load('qwen2.5-vl-7b-instruct');
    cases.push(['qwen2.5-vl-7b-instruct', q25, q25.vision_config]);
    const narrow = structuredClone(q25);
    Object.assign(narrow.vision_config, { window_size: 84 }); // 84 // 2 // 14 = 3
    cases.push(['qwen2.5-vl window 84', narrow, narrow.vision_config]);
    const unmerged = structuredClone(q25);
    Object.assign(unmerged.vision_config, { spatial_merge_size: 1, window_size: 70 }); // 70 // 1 // 14 = 5
    cases.push(['qwen2.5-vl merge 1', unmerged, unmerged.vision_config]);
    const omni = load('qwen2.5-omni-7b.reconstructed');
    cases.push(['qwen2.5-omni-7b', omni, { spatial_merge_size: 2, ...omni.thinker_config.vision_config }]);
    let checked = 0;
    for (const [label, config, vc] of cases) {
      const model = pe.modelFromConfig(config, { tower: 'vision' });
      const pw = model.layers.find((l) => l.attention === 'windowed').patchWindow;
      const patchWindow = { side: pw.side, merge: pw.merge };
      model.dispose();
      for (const grid of GRIDS) {
        if (grid.some(([, h, w]) => h % patchWindow.merge || w % patchWindow.merge)) continue;
        const hf = hfWindowIndex(grid, vc.spatial_merge_size, vc.window_size, vc.patch_size);
        const doc = documentedOrder(grid, patchWindow);
        const what = `${label} ${JSON.stringify(grid)}`;
        assert.deepEqual(doc.order, hfPatchOrder(hf.windowIndex, patchWindow.merge), `${what}: order`);
        assert.deepEqual(doc.segments, hf.cuWindowSeqlens, `${what}: windows`);
        checked++;
      }
    }
    assert.equal(checked, cases.length * GRIDS.length);
    // The check can fail: walking each window columns first is not HF's order.
    const grid = [[1, 16, 16]];
    const hf = hfPatchOrder(hfWindowIndex(grid, 2, 112, 14).windowIndex, 2);
    assert.notDeepEqual(documentedOrder(grid, { side: 4, merge: 2 }, true).order, hf);
    assert.deepEqual(documentedOrder(grid, { side: 4, merge: 2 }).order, hf);
  });
}
