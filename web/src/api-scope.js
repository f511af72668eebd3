// The model microscope's numbers, all from the package: pe.modelFromConfig's layers and
// rotators (the text tower, and the vision tower with tower: 'vision'), rope.cosSin at the
// model's last position, the axis each rung and column turns on (rope.row / rope.cosSin at a
// unit position on one axis), pe.queryScale, and the golden-vectors document of
// `npx posenc vectors` (goldenVectors). The only arithmetic here is the labelled yardstick
// (cos/sin of p·θ in JS double) that both posenc's angles and float32 angles are measured by.
import { goldenVectors } from 'posenc';
import { version } from '../../package.json';

/** The configs the repository tests with that the page offers (tests/fixtures/hf-configs/). */
export const BUNDLED = {
  'llama-3.1-8b': ['Llama 3.1 8B', () => import('../../tests/fixtures/hf-configs/llama-3.1-8b.json')],
  'qwen2.5-vl-7b': ['Qwen2.5-VL 7B Instruct', () => import('../../tests/fixtures/hf-configs/qwen2.5-vl-7b-instruct.json')],
  'qwen3-vl-4b': ['Qwen3-VL 4B Instruct', () => import('../../tests/fixtures/hf-configs/qwen3-vl-4b-instruct.json')],
  'ministral-3-3b': ['Ministral 3 3B (Pixtral vision)', () => import('../../tests/fixtures/hf-configs/ministral-3-3b-2512.json')],
  'gemma-3-27b': ['Gemma 3 27B it', () => import('../../tests/fixtures/hf-configs/gemma-3-27b-it.json')],
  'gemma-4-e2b': ['Gemma 4 E2B it (reconstructed)', () => import('../../tests/fixtures/hf-configs/gemma-4-e2b-it.reconstructed.json')],
  'llama-4-scout': ['Llama 4 Scout 17B-16E (reconstructed)', () => import('../../tests/fixtures/hf-configs/llama-4-scout-17b-16e.reconstructed.json')],
  'deepseek-v3': ['DeepSeek-V3', () => import('../../tests/fixtures/hf-configs/deepseek-v3.json')],
  'phi-3.5-mini': ['Phi-3.5-mini-instruct', () => import('../../tests/fixtures/hf-configs/phi-3.5-mini-instruct.json')],
  'smollm3-3b': ['SmolLM3 3B', () => import('../../tests/fixtures/hf-configs/smollm3-3b.json')],
  'command-r': ['Cohere Command-R v01', () => import('../../tests/fixtures/hf-configs/c4ai-command-r-v01.json')],
  'gpt-j-6b': ['GPT-J 6B', () => import('../../tests/fixtures/hf-configs/gpt-j-6b.json')],
  't5gemma-2-270m': ['T5Gemma 2 270M-270M (reconstructed)', () => import('../../tests/fixtures/hf-configs/t5gemma-2-270m-270m.reconstructed.json')],
  'privacy-filter': ['OpenAI Privacy Filter (class defaults)', () => import('../../tests/fixtures/hf-configs/openai-privacy-filter.class-defaults.reconstructed.json')],
  'nanochat': ['nanochat (class defaults)', () => import('../../tests/fixtures/hf-configs/nanochat.class-defaults.reconstructed.json')],
  'modernbert-base': ['ModernBERT base (class defaults)', () => import('../../tests/fixtures/hf-configs/modernbert-base.class-defaults.reconstructed.json')],
};

/** The positions `npx posenc vectors` writes by default. */
export const GOLDEN_POSITIONS = [0, 1, 4095, 131071];

const CONTEXT_KEYS = ['max_position_embeddings', 'n_positions', 'seq_length'];

// An own property of an object, else undefined (nothing inherited is read).
const own = (o, key) => (o !== null && typeof o === 'object' && Object.hasOwn(o, key) ? o[key] : undefined);

/**
 * The context length the config states, and the key it came from: the stack's config first
 * (`encoder.text_config`, `encoder`) when a stack is read, then text_config, then the top level.
 */
export function contextLength(config, stack) {
  const places = [[own(config, 'text_config'), 'text_config.'], [config, '']];
  if (stack !== undefined) {
    const s = own(config, stack);
    places.unshift([own(s, 'text_config'), `${stack}.text_config.`], [s, `${stack}.`]);
  }
  for (const [where, prefix] of places) {
    for (const key of CONTEXT_KEYS) {
      const v = own(where, key);
      if (Number.isSafeInteger(v) && v > 1) return { length: v, key: `${prefix}${key}` };
    }
  }
  return null;
}

/**
 * Whether the package reads this config only with a stack (an encoder-decoder config): read
 * without one, its error names `stack` as required.
 */
export function hasStacks(pe, config) {
  let model;
  try { model = pe.modelFromConfig(config, { cacheLength: 0 }); } catch (err) {
    return err instanceof RangeError && /^posenc: stack is required\b/.test(err.message);
  }
  model.dispose();
  return false;
}

// The layers grouped by kind (same rotator, attention, window, chunk, sense, cross-attention),
// in order of first use: [{ layer, indices, ranges: [[from, to], …] }].
function kinds(layers) {
  const out = new Map();
  for (const l of layers) {
    const key = `${l.rope}|${l.attention}|${l.window}|${l.chunk}|${l.bidirectional}|${l.lookahead}|${l.crossAttention}`;
    if (!out.has(key)) out.set(key, { layer: l, indices: [], ranges: [] });
    const k = out.get(key);
    const last = k.ranges[k.ranges.length - 1];
    if (last && last[1] === l.index - 1) last[1] = l.index;
    else k.ranges.push([l.index, l.index]);
    k.indices.push(l.index);
  }
  return [...out.values()];
}

// Column c of a HF-shaped cos/sin row uses rung c mod (d/2) (half) or ⌊c/2⌋ (interleaved).
const rungOf = (layout, rotaryDim) => (layout === 'interleaved' ? (c) => c >> 1 : (c) => c % (rotaryDim / 2));

/**
 * At position p, max over the columns of |value − yardstick| for posenc's cos/sin (rope) and for
 * the same rotary with float32 angles (rope32: the package's angles 'float32', HF's
 * `inv_freq.float() @ position_ids.float()` then cos/sin), both scaled by attentionFactor.
 */
export function angleErrors(rope, rope32, p) {
  const positions = new Array(rope.axes).fill(p);
  const exact = rope.cosSin({ positions });
  const port = rope32.cosSin({ positions });
  const rung = rungOf(rope.layout, rope.rotaryDim);
  const f = rope.attentionFactor;
  const worst = ({ cos, sin }, c, angle) => Math.max(Math.abs(cos[c] - f * Math.cos(angle)), Math.abs(sin[c] - f * Math.sin(angle)));
  let pe = 0, f32 = 0;
  for (let c = 0; c < rope.rotaryDim; c++) {
    const angle = p * rope.invFreq[rung(c)]; // yardstick: JS double
    pe = Math.max(pe, worst(exact, c, angle));
    f32 = Math.max(f32, worst(port, c, angle));
  }
  return { posenc: pe, float32: f32 };
}

// The names of a config's multi-axis rotator's axes, in the order its positions are given
// (pe.modelFromConfig builds M-RoPE or a vision tower's 2-D rotary, no other kind; Muse
// Glimmer's is the axes preset 'muse-glimmer', columns first).
function axisNames(rope) {
  if (rope.mrope !== null) return ['t', 'h', 'w'];
  if (rope.vision2d !== null) return ['row', 'col'];
  if (rope.axesName === 'muse-glimmer') return ['col', 'row'];
  throw new Error(`a rotator with ${rope.axes} axes that is neither M-RoPE nor a vision tower's`);
}

// Which axis turns each entry of a row: the package's row at position 1 on axis a and 0 on
// the others turns exactly that axis' entries; −1 for an entry no axis turns (θ = 0).
function turnedBy(rope, length, rowAt) {
  const out = new Array(length).fill(-1);
  for (let a = 0; a < rope.axes; a++) {
    const unit = new Array(rope.axes).fill(0);
    unit[a] = 1;
    const sin = rowAt(unit);
    for (let i = 0; i < length; i++) if (sin[i] !== 0) out[i] = a;
  }
  return out;
}

/**
 * A multi-axis rotator's axes as the package rotates them (null for one axis): the axis of
 * every rung (rope.row) and of every HF cos/sin column (rope.cosSin), and per axis its rungs,
 * columns and the shortest and longest turn (2π/θ, in positions of that axis).
 */
export function axesOf(rope) {
  if (rope.axes === 1) return null;
  const half = rope.rotaryDim / 2;
  const rungs = turnedBy(rope, half, (unit) => rope.row(unit).sin);
  const columns = turnedBy(rope, rope.rotaryDim, (unit) => rope.cosSin({ positions: unit }).sin);
  const axes = axisNames(rope).map((name, a) => {
    const own = rungs.flatMap((x, i) => (x === a ? [i] : []));
    const turns = own.map((i) => (2 * Math.PI) / rope.invFreq[i]);
    return { name, rungs: own, columns: columns.flatMap((x, c) => (x === a ? [c] : [])),
      shortest: own.length ? Math.min(...turns) : null, longest: own.length ? Math.max(...turns) : null };
  });
  return {
    kind: rope.mrope !== null ? 'mrope' : rope.vision2d !== null ? 'vision2d' : 'columnsFirst',
    mrope: rope.mrope === null ? null : { section: [...rope.mrope.section], interleaved: rope.mrope.interleaved },
    vision2d: rope.vision2d, rungs, columns, axes,
  };
}

// θ of the same rotary without its scaling (pe.rope with the same dims, base and layout): the
// ladder the scaling started from, so the page shows which rungs it moved and by how much.
function unscaled(pe, r) {
  const plain = pe.rope({ headDim: r.headDim, rotaryDim: r.rotaryDim, base: r.base, layout: r.layout });
  try { return Array.from(plain.invFreq); } finally { plain.dispose(); }
}

/**
 * Everything the section draws for one parsed config (`stack`: 'encoder' | 'decoder' for an
 * encoder-decoder config, else undefined). Throws the package's error.
 */
export function inspect(pe, config, stack) {
  const opts = stack === undefined ? {} : { stack };
  // No row cache: the page asks each rotator for a handful of rows, one at the model's last
  // position, and an automatic cache would be built up to 4 MiB for it on every redraw.
  const model = pe.modelFromConfig(config, { ...opts, cacheLength: 0 });
  let model32; // the same rotators with float32 angles (HF's form), for the error beside posenc's
  try {
    model32 = pe.modelFromConfig(config, { ...opts, cacheLength: 0, angles: 'float32' });
    const ctxLen = contextLength(config, stack);
    const last = (ctxLen?.length ?? 131072) - 1;
    const encodings = Object.keys(model.encodings).map((key) => {
      const r = model.encodings[key];
      const invFreq = Array.from(r.invFreq);
      const plain = model.scaling[key].type === 'default' || r.axes !== 1 ? null : unscaled(pe, r);
      return {
        unscaled: plain,
        moved: plain === null ? null : invFreq.filter((v, i) => Math.abs(v - plain[i]) > 1e-12 * plain[i]).length,
        key, headDim: r.headDim, rotaryDim: r.rotaryDim, base: r.base, layout: r.layout, direction: r.direction,
        scaling: model.scaling[key], attentionFactor: r.attentionFactor, invFreq,
        zeroPairs: invFreq.filter((v) => v === 0).length,
        passThrough: r.headDim - r.rotaryDim,
        axes: axesOf(r),
        errors: angleErrors(r, model32.encodings[key], last),
      };
    });
    const scaled = model.layers.find((l) => l.queryScale !== null);
    const qs = scaled ? queryScaleCurve(pe, scaled.queryScale, last) : null;
    return {
      modelType: model.modelType, family: model.family, layers: model.layers.map((l) => ({ ...l })),
      kinds: kinds(model.layers), encodings, context: ctxLen, last, queryScale: qs,
    };
  } finally {
    model.dispose();
    model32?.dispose();
  }
}

/**
 * The vision tower of a config with a `vision_config` (null without one): pe.modelFromConfig
 * with tower 'vision' — its layer count and each rotary with its axes — or { error } when the
 * package refuses it (a tower without a rotary posenc knows, such as SigLIP's learned table).
 */
export function inspectVision(pe, config) {
  const vc = Object.hasOwn(config, 'vision_config') ? config.vision_config : null;
  if (vc === null || typeof vc !== 'object' || Array.isArray(vc)) return null;
  let model;
  try { model = pe.modelFromConfig(config, { tower: 'vision', cacheLength: 0 }); } catch (error) { return { error }; }
  try {
    const encodings = Object.keys(model.encodings).map((key) => {
      const r = model.encodings[key];
      return { key, headDim: r.headDim, rotaryDim: r.rotaryDim, base: r.base, layout: r.layout, vision2d: r.vision2d ?? r.axesName, axes: axesOf(r) };
    });
    return { modelType: model.modelType, family: model.family, layers: model.layers.length, encodings };
  } finally {
    model.dispose();
  }
}

function queryScaleCurve(pe, scale, last) {
  const positions = [];
  for (let p = 1; p <= last; p *= 2) positions.push(p - 1);
  positions.push(last);
  return { scale: { ...scale }, positions, values: Array.from(pe.queryScale(scale, positions)) };
}

/**
 * The text `npx posenc vectors [--tower vision] [--stack S]` writes for this config at the
 * default positions.
 */
export function goldenText(pe, config, tower = 'text', stack = undefined) {
  const opts = { version, positions: GOLDEN_POSITIONS };
  if (tower !== 'text') opts.tower = tower;
  if (stack !== undefined) opts.stack = stack;
  return `${JSON.stringify(goldenVectors(pe, config, opts), null, 1)}\n`;
}
