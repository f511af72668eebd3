// wasm/js/mrope_positions.js — M-RoPE position ids of a text + image + video sequence as
// Hugging Face's get_rope_index computes them (core: posenc/mrope_positions.hpp). Every item
// is read and type-checked here (own properties once); ranges are the core's. The items
// travel as 5 doubles each (kind, three integers, seconds per grid) in one staged block,
// whose one extra double receives delta.
import * as check from './check.js';
import { unwrap } from './errors.js';

export const MROPE_MODELS = ['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl'];
const KEYS = ['items', 'spatialMerge', 'model', 'tokensPerSecond'];
const ITEM_KEYS = ['text', 'image', 'video', 'secondsPerGrid'];
/** The most items one call takes (a frame per item for Qwen3-VL videos stays far below). */
export const MAX_ITEMS = 2 ** 20;
const STRIDE = 5;
const KIND = { text: 0, image: 1, video: 2 };

// An integer the core range-checks (a number, or a BigInt as transformers.js grids are).
function int64(name, v) {
  if (typeof v === 'bigint') return check.int64(name, v > 2n ** 53n ? 2 ** 53 : v < -(2n ** 53n) ? -(2 ** 53) : Number(v));
  return check.int64(name, v);
}

// grid_thw (t, h, w): an array of 3, or an Int32Array / BigInt64Array of 3 (HF's rows).
function grid(name, v, out, at) {
  const tag = check.tagOf(v);
  if (tag === 'Int32Array' || tag === 'BigInt64Array') {
    const g = check.typedArray(name, v, tag);
    if (check.lengthOf(g) !== 3) throw new RangeError(`posenc: ${name} must hold 3 values (t, h, w), got ${check.lengthOf(g)}`);
    for (let a = 0; a < 3; a++) out[at + a] = int64(`${name}[${a}]`, g[a]);
    return;
  }
  if (tag !== undefined) throw new TypeError(`posenc: ${name} must be an array of 3 integers (t, h, w), got ${check.describe(v)}`);
  const n = check.eachElement(name, v, 3, (e, a) => { out[at + a] = int64(`${name}[${a}]`, e); });
  if (n !== 3) throw new RangeError(`posenc: ${name} must hold 3 values (t, h, w), got ${n}`);
}

// Item i → its 5 doubles at out[STRIDE·i].
function item(v, i, out) {
  const name = `items[${i}]`;
  const o = check.options(v, `mropePositions() (${name})`, ITEM_KEYS);
  let kind;
  for (const k of ['text', 'image', 'video']) {
    if (o[k] === undefined) continue;
    if (kind !== undefined) throw new TypeError(`posenc: ${name} must have one of text, image or video, got ${kind} and ${k}`);
    kind = k;
  }
  if (kind === undefined) throw new TypeError(`posenc: ${name} must have one of text, image or video, got none`);
  const at = STRIDE * i;
  out[at] = KIND[kind];
  if (kind === 'text') out[at + 1] = int64(`${name}.text`, o.text);
  else grid(`${name}.${kind}`, o[kind], out, at + 1);
  if (o.secondsPerGrid !== undefined && kind !== 'video') {
    throw new TypeError(`posenc: ${name}.secondsPerGrid belongs to a video item, not ${kind}`);
  }
  out[at + 4] = o.secondsPerGrid === undefined ? 1 : check.number(`${name}.secondsPerGrid`, o.secondsPerGrid);
}

export function mropePositionsApi({ module, heap }) {
  return {
    /**
     * HF get_rope_index: { positions: Int32Array [3][tokens] (t row, h row, w row), tokens,
     * delta (HF rope_deltas: decode token n at position n + delta) }. index.d.ts has the contract.
     */
    mropePositions(opts) {
      const o = check.options(opts, 'mropePositions()', KEYS);
      if (o.items === undefined) throw new TypeError('posenc: mropePositions() needs items (text runs, images and videos in token order)');
      if (o.model === undefined) throw new TypeError(`posenc: mropePositions() needs model (${MROPE_MODELS.map((m) => `'${m}'`).join(' or ')})`);
      let block = new check.Float64(0);
      const n = check.eachElement('items', o.items, MAX_ITEMS, (v, i, count) => {
        if (i === 0) block = new check.Float64(STRIDE * count);
        item(v, i, block);
      });
      const model = check.oneOf('model', o.model, MROPE_MODELS);
      const merge = o.spatialMerge === undefined ? 2 : check.integer('spatialMerge', o.spatialMerge);
      const tps = o.tokensPerSecond === undefined ? 0 : check.number('tokensPerSecond', o.tokensPerSecond);
      const p = heap.acquire(8 * (STRIDE * n + 1), 'mropePositions()');
      let r, delta;
      try {
        heap.put(p, block, 'Float64Array');
        r = module.mropePositions(p, n, merge, model, tps);
        delta = module.HEAPF64[(p >>> 3) + STRIDE * n];
      } finally {
        heap.release(p);
      }
      const positions = heap.take(unwrap(module, r, undefined, () => `mropePositions() returns 3 × tokens int32 ` +
        `position ids for the ${n} items`), 'Int32Array');
      return { positions, tokens: check.lengthOf(positions) / 3, delta };
    },
  };
}
