// wasm/js/scaling.js — the `scaling` option (HF transformers' rope_scaling, camelCase keys).
//
// Checks key names and value types; the values' ranges and which keys each type needs are
// the core's business (posenc/frequencies.hpp), and its errors name `scaling.<field>`.
import * as check from './check.js';

const NUMBERS = ['factor', 'attentionFactor', 'betaFast', 'betaSlow', 'mscale', 'mscaleAllDim',
  'lowFreqFactor', 'highFreqFactor'];
const INTEGERS = ['originalMaxPositionEmbeddings', 'maxPositionEmbeddings', 'seqLen'];
const ARRAYS = ['shortFactor', 'longFactor'];
const KEYS = ['type', ...NUMBERS, ...INTEGERS, 'truncate', ...ARRAYS];

/** The scaling object handed to C++ (wasm/src/marshal.cpp), or undefined for none. */
export function scalingArg(value) {
  if (value === undefined || value === null) return undefined;
  const s = check.options(value, 'scaling', KEYS);
  if (s.type === undefined) throw new TypeError("posenc: scaling.type is required ('default', 'linear', 'dynamic', 'yarn', 'llama3' or 'longrope')");
  const out = { type: check.string('scaling.type', s.type) };
  for (const k of NUMBERS) if (s[k] !== undefined) out[k] = check.number(`scaling.${k}`, s[k]);
  for (const k of INTEGERS) if (s[k] !== undefined) out[k] = check.integer(`scaling.${k}`, s[k]);
  if (s.truncate !== undefined) out.truncate = check.boolean('scaling.truncate', s.truncate);
  for (const k of ARRAYS) if (s[k] !== undefined) out[k] = check.float64Array(`scaling.${k}`, s[k]);
  return out;
}

export const SCALING_KEYS = KEYS;
