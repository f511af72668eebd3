// wasm/js/scaling.js — the `scaling` option (HF transformers' rope_scaling, camelCase keys).
//
// Read once into a record (check.js rules), type-checked, and packed into one block of
// doubles that the binding decodes (wasm/src/marshal.cpp scaling_at): FIELDS in this order,
// NaN for an absent key, then the lengths of shortFactor and longFactor and their values.
// The values' ranges and which keys each type needs are the core's business
// (posenc/frequencies.hpp), and its errors name `scaling.<field>`.
import * as check from './check.js';

const FIELDS = [
  ['factor', check.number],
  ['originalMaxPositionEmbeddings', check.integer],
  ['maxPositionEmbeddings', check.integer],
  ['seqLen', check.integer],
  ['attentionFactor', check.number],
  ['betaFast', check.number],
  ['betaSlow', check.number],
  ['mscale', check.number],
  ['mscaleAllDim', check.number],
  ['truncate', (name, v) => (check.boolean(name, v) ? 1 : 0)],
  ['lowFreqFactor', check.number],
  ['highFreqFactor', check.number],
  ['partialRotaryFactor', check.number],
  ['alpha', check.number],
];
const LISTS = ['shortFactor', 'longFactor'];
/** The block's field names in order (ropeFromConfig reads the core's block back by them). */
export const SCALING_FIELDS = Object.freeze(FIELDS.map(([k]) => k));
const KEYS = ['type', ...FIELDS.map(([k]) => k), ...LISTS];
// A factor list holds one value per frequency: at most max_dim / 2 (posenc/frequencies.hpp).
const MAX_FACTORS = 32768;

/** No scaling: the binding sees address 0. */
export const NO_SCALING = Object.freeze({ type: '', block: null });

/** { type, block: Float64Array } for the binding, or NO_SCALING (undefined / null). */
export function scalingArg(value) {
  if (value === undefined || value === null) return NO_SCALING;
  const s = check.options(value, 'scaling', KEYS);
  if (s.type === undefined) {
    throw new TypeError("posenc: scaling.type is required ('default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope' or 'proportional')");
  }
  const type = check.string('scaling.type', s.type);
  const short = s.shortFactor === undefined ? null : check.numberList('scaling.shortFactor', s.shortFactor, MAX_FACTORS);
  const long = s.longFactor === undefined ? null : check.numberList('scaling.longFactor', s.longFactor, MAX_FACTORS);
  const nShort = short === null ? 0 : short.length;
  const nLong = long === null ? 0 : long.length;
  const block = new check.Float64(FIELDS.length + 2 + nShort + nLong);
  for (let i = 0; i < FIELDS.length; i++) {
    const [key, read] = FIELDS[i];
    block[i] = s[key] === undefined ? NaN : read(`scaling.${key}`, s[key]);
  }
  block[FIELDS.length] = nShort;
  block[FIELDS.length + 1] = nLong;
  if (short !== null) check.copyInto(block, short, FIELDS.length + 2);
  if (long !== null) check.copyInto(block, long, FIELDS.length + 2 + nShort);
  return { type, block };
}

/** Bytes the scaling block takes in scratch memory. */
export const scalingBytes = (sc) => (sc.block === null ? 0 : 8 * sc.block.length);

/** call(address of the staged block, or 0) with the block in scratch memory; its result. */
export function withScaling(heap, sc, what, call) {
  if (sc.block === null) return call(0);
  const ptr = heap.acquire(scalingBytes(sc), what);
  try {
    return call(putScaling(heap, ptr, sc));
  } finally {
    heap.release(ptr);
  }
}

/** Stages the block at ptr; the address to hand the binding (0 for no scaling). */
export function putScaling(heap, ptr, sc) {
  if (sc.block === null) return 0;
  heap.put(ptr, sc.block, 'Float64Array');
  return ptr;
}
