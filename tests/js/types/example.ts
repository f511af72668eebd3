// A typed use of the package, checked by `tsc --noEmit` (tests/js/package.test.mjs): it
// must compile, and every `@ts-expect-error` line must really be an error under index.d.ts.
import { createPosenc, simdSupported, type Posenc, type Rope, type Scaling, type Tensor } from 'posenc';
import { createTrainer, type PosencTrain, type Trainer, type TrainScore } from 'posenc/train';

const pe: Posenc = await createPosenc({ simd: simdSupported() });
const simd: boolean = pe.simd;

const yarn: Scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 };
const { invFreq, attentionFactor } = pe.inverseFrequencies({ dim: 128, base: 10000, scaling: yarn });
const lambda: Float64Array = pe.wavelengths({ dim: 8, base: 10000 });

const table: Float32Array = pe.sinusoidal({ dim: 8, base: 10000, positions: 4 });
const far: Float32Array = pe.sinusoidal({ dim: 128, positions: 1, start: 1000000 });
const listed: Float32Array = pe.sinusoidal({ dim: 8, positions: [3, 7, 900], layout: 'concat' });
// int64 position ids as transformers.js / onnxruntime hand them out, or bigint[]
const ids: Float32Array = pe.sinusoidal({ dim: 8, positions: new BigInt64Array([3n, 7n]) });
const mixed: Float32Array = pe.sinusoidal({ dim: 8, positions: [3n, 7], layout: 'interleaved' });
const fromBig: Float32Array = pe.sinusoidal({ dim: 8, positions: 2, start: 4000n });
const shifted: Float64Array = pe.applyShift(pe.sinusoidalRow({ dim: 8, position: 5 }), { k: 3 });
const reused: Float32Array = pe.sinusoidal({ dim: 8, positions: 4, out: new Float32Array(32) });
const tableTensor: Tensor = pe.sinusoidal({ dim: 8, positions: [1, 2], out: pe.tensor(16) });
tableTensor.dispose();

const rope: Rope = pe.rope({ headDim: 128, rotaryDim: 64, layout: 'interleaved', scaling: { type: 'linear', factor: 2 }, angles: 'exact' });
const x = new Float32Array(4 * 8 * 128);
const same: Float32Array = rope.apply(x, { tokens: 4, heads: 8, positions: Int32Array.of(0, 1, 2, 3) });
rope.apply(x, { tokens: 4, heads: 8, start: 4000, inverse: true });
rope.invert(x, { tokens: 4, heads: 8, start: 4000 });
const into: Tensor = rope.apply(x, { tokens: 4, heads: 8, start: 7, out: pe.tensor(x.length) });
into.dispose();
const t: Tensor = pe.tensor(x);
const sameTensor: Tensor = rope.shift(t, { tokens: 4, heads: 8, delta: -128 });
const [q2, k2] = rope.applyQK(new Float32Array(4 * 128), t, { tokens: 4, qHeads: 1, kHeads: 8 });
const view: Float32Array = t.array;
t.dispose();
rope.dispose();

const { scores, terms } = pe.scores({ q: new Float32Array(64), k: new Float32Array(64), dim: 64, mode: 'additive' });
const pp: Float32Array | undefined = terms?.positionPosition;
const w = pe.attentionWeights({ modelDim: 16, seed: 1n });
const { output } = pe.selfAttention({ x: new Float32Array(5 * 16), weights: w, modelDim: 16, heads: 2, mode: 'rotary' });
const gap: number = pe.permutationTest({ x: new Float32Array(5 * 16), weights: w, modelDim: 16, seed: 3 });
const decay: Float64Array = pe.decayBound({ dim: 128, maxDistance: 1000 });

// @ts-expect-error: dim is required
pe.inverseFrequencies({ base: 10000 });
// @ts-expect-error: layout names are fixed
pe.rope({ headDim: 64, layout: 'neox' });
// @ts-expect-error: unknown scaling type
pe.inverseFrequencies({ dim: 8, scaling: { type: 'ntk', factor: 2 } });
// @ts-expect-error: apply takes a Float32Array or a tensor, not a number[]
rope.apply([1, 2, 3], { tokens: 1 });
// @ts-expect-error: positions and start together
rope.apply(x, { tokens: 4, positions: [0, 1, 2, 3], start: 5 });
// @ts-expect-error: unsigned 64-bit ids are not positions
pe.sinusoidal({ dim: 8, positions: new BigUint64Array([1n]) });
// @ts-expect-error: a list of positions takes no start
pe.sinusoidal({ dim: 8, positions: [1, 2], start: 3 });
// @ts-expect-error: a table goes into a Float32Array or a tensor
pe.sinusoidal({ dim: 8, positions: 4, out: new Float64Array(32) });
// @ts-expect-error: mode names are fixed
pe.scores({ q: new Float32Array(2), k: new Float32Array(2), dim: 2, mode: 'alibi' });

export const used = [simd, invFreq, attentionFactor, lambda, table, far, listed, ids, mixed, fromBig, shifted, reused, same, sameTensor,
  q2, k2, view, scores, pp, output, gap, decay];
// @ts-expect-error: angle precisions are fixed
pe.rope({ headDim: 64, angles: 'bf16' });

// Multimodal RoPE, 2-D vision rotary and 16-bit storage.
const mrope = pe.rope({ headDim: 128, base: 1e6, mrope: { section: [16, 24, 24], interleaved: false } });
const axes: 1 | 2 | 3 | 4 = mrope.axes;
const sections: readonly number[] | undefined = mrope.mrope?.section;
mrope.apply(new Float32Array(2 * 128), { positions: new Int32Array(6) });
const ernie = pe.rope({ headDim: 128, base: 5e5, layout: 'interleaved', mrope: { section: [20, 22, 22], interleaved: 'hw' } });
const hw: boolean | 'hw' | undefined = ernie.mrope?.interleaved;
// @ts-expect-error — 'hw' is the only string
pe.rope({ headDim: 128, mrope: { section: [20, 22, 22], interleaved: 'wh' } });
const turned = pe.rope({ headDim: 128, direction: 'inverse' });
const turn: 'forward' | 'inverse' = turned.direction;
// @ts-expect-error — a direction is 'forward' or 'inverse'
pe.rope({ headDim: 128, direction: 'backward' });
const vis = pe.rope({ headDim: 80, vision2d: 'pixtral', layout: 'interleaved' });
const kind: 'qwen2-vl' | 'pixtral' | null = vis.vision2d;
const bits: Uint16Array = vis.apply(new Uint16Array(80), { positions: [1, 2], dtype: 'bfloat16' });
const merged = mrope.row([1, 2, 3]).cos;
export const usedMultimodal = [axes, sections, kind, bits, merged];
// @ts-expect-error: vision2d names are fixed
pe.rope({ headDim: 64, vision2d: 'siglip' });
// Image and video models: presets, explicit descriptions, grids, real positions, 2-D tables.
const flux = pe.rope({ headDim: 128, axes: 'flux' });
const fluxName: string | null = flux.axesName;
const grid = pe.axesPositions({ model: 'flux', height: 64, width: 64, textTokens: 512 });
const gridIds: Int32Array | Float64Array = grid.positions;
flux.apply(new Float32Array(grid.tokens * 24 * 128), { heads: 24, positions: grid.positions });
const dino = pe.rope({ headDim: 64, axes: 'dinov3' });
dino.cosSin({ positions: pe.axesPositions({ model: 'dinov3', height: 14, width: 14, prefixTokens: 5 }).positions });
const custom = pe.rope({ headDim: 128, axes: { dims: [16, 56, 56], names: ['t', 'h', 'w'] }, layout: 'interleaved' });
pe.axesPositions({ model: 'flux2', height: 32, width: 32, references: [[16, 16]] });
const dit: Float32Array = pe.sinusoidal2d({ dim: 1152, grid: [16, 16], baseSize: 16 });
// @ts-expect-error: preset names are fixed
pe.rope({ headDim: 128, axes: 'sdxl' });
// @ts-expect-error: grid is [height, width]
pe.sinusoidal2d({ dim: 64, grid: 16 });
// @ts-expect-error: dtypes are 16-bit formats
vis.apply(new Uint16Array(80), { positions: [1, 2], dtype: 'float8' });

// A Hugging Face config.json as published, and the vision tower of a multimodal one.
const hf: Rope = pe.ropeFromConfig(JSON.parse('{"hidden_size": 4096, "num_attention_heads": 32}'), {
  seqLen: 8192, layout: 'half', layerType: 'full_attention', cacheLength: 64 });
const tower: Rope = pe.ropeFromConfig({ model_type: 'qwen2_5_vl', vision_config: { hidden_size: 1280, num_heads: 16 } },
  { tower: 'vision' });
// @ts-expect-error: layerType names an attention type
pe.ropeFromConfig({}, { layerType: 'global' });
// @ts-expect-error: the config is an object
pe.ropeFromConfig('config.json');
hf.dispose();
tower.dispose();
// Zero-copy 16-bit tensors: the dtype flows into the tensor and its view.
const bt = pe.tensor(80, { dtype: 'bfloat16' });
const btBits: Uint16Array = bt.array;
const btDtype: 'bfloat16' = bt.dtype;
const rotated16: Tensor<'bfloat16'> = vis.apply(bt, { positions: [1, 2] });
const out16: Uint16Array = vis.apply(bt, { positions: [1, 2], out: new Uint16Array(80) });
const copied16: Tensor<'float16'> = pe.tensor(new Uint16Array(4), { dtype: 'float16' });
const f32t: Float32Array = pe.tensor(4).array;
export const usedHalfTensors = [btBits, btDtype, rotated16, out16, copied16, f32t];
// @ts-expect-error: a float32 out does not take a 16-bit x
vis.apply(bt, { positions: [1, 2], out: new Float32Array(80) });
// @ts-expect-error: bits need their dtype
pe.tensor(new Uint16Array(4));
// @ts-expect-error: tensor() copies, it does not convert
pe.tensor(new Float32Array(4), { dtype: 'bfloat16' });
// M-RoPE position ids as HF's get_rope_index makes them, fed to the M-RoPE rotator.
const ropeIds = pe.mropePositions({
  model: 'qwen2.5-vl', tokensPerSecond: 2,
  items: [{ text: 4 }, { image: [1, 32, 32] }, { text: 2n }, { video: new BigInt64Array([2n, 8n, 8n]), secondsPerGrid: 1 }, { text: 1 }],
});
const idRows: Int32Array = ropeIds.positions;
const decodeAt: number = ropeIds.tokens + ropeIds.delta;
mrope.apply(new Float32Array(ropeIds.tokens * 128), { positions: idRows });
export const usedMropeIds = [decodeAt];
// @ts-expect-error: the models are fixed
pe.mropePositions({ model: 'qwen2-vl-7b', items: [] });
// @ts-expect-error: secondsPerGrid belongs to videos
pe.mropePositions({ model: 'qwen2.5-vl', items: [{ image: [1, 2, 2], secondsPerGrid: 1 }] });
// A config's decoder layers; a layer without RoPE is null.
const llama4Config: object = { model_type: 'llama4' };
const model = pe.modelFromConfig(llama4Config, { seqLen: 8192 });
const layerRope: Rope | null = pe.ropeFromConfig(llama4Config, { layer: 3 });
const wholeRope: Rope = pe.ropeFromConfig(llama4Config, { family: 'llama', part: 'attention' });
const key: string | null = model.layers[0].rope;
const scales: Float64Array = model.layers[3].queryScale ? pe.queryScale(model.layers[3].queryScale, [0, 8191]) : new Float64Array();
const proportional = pe.rope({ headDim: 512, base: 1e6, scaling: { type: 'proportional', partialRotaryFactor: 0.25 } });
const ntkAlpha = pe.rope({ headDim: 128, base: 1e4, scaling: { type: 'dynamic', alpha: 1000 } });
export const usedModel = [layerRope, wholeRope, key, scales, proportional, ntkAlpha, model.encodings.e0];
// @ts-expect-error: with `layer` the result may be null
const notNull: Rope = pe.ropeFromConfig(llama4Config, { layer: 0 });
// An encoder-decoder's stacks: the encoder attends both ways, the decoder cross-attends.
const t5Encoder = pe.modelFromConfig(llama4Config, { stack: 'encoder' }).layers[0];
const bothWays: boolean = t5Encoder.bidirectional;
const ahead: number | null = t5Encoder.lookahead;
const cross: 'separate' | 'merged' | null = t5Encoder.crossAttention;
const visionLayer = pe.modelFromConfig(llama4Config, { tower: 'vision' }).layers[0];
const windowed: boolean = visionLayer.attention === 'windowed';
const windowSide: number | undefined = visionLayer.patchWindow?.side;
export const usedTower = [windowed, windowSide, visionLayer.patchWindow?.merge];
export const usedStacks = [bothWays, ahead, cross, pe.ropeFromConfig(llama4Config, { stack: 'decoder', layer: 1 })];
// @ts-expect-error: two stacks only
pe.modelFromConfig(llama4Config, { stack: 'both' });
// "Train short, test long": a trainer stepped by hand, from its own entry.
const pt: PosencTrain = await createTrainer({ simd });
const trainer: Trainer = pt.train({ task: 'recall', encoding: 'rope-half', seed: 1n, evalLengths: [64, 128] });
const stepped: Float64Array = trainer.step(10).loss;
const scored: TrainScore[] = trainer.evaluate({ extension: 'yarn' });
const map: Float32Array = trainer.attention({ tokens: [1, 2, 3] }).weights;
export const usedTrainer = [stepped, scored, map, trainer.alphabet, trainer.memoryBytes];
trainer.dispose();
// @ts-expect-error: encoding is required
pt.train({ task: 'copy' });
// @ts-expect-error: not an encoding
pt.train({ encoding: 'rope' });
// @ts-expect-error: the package's entry only points to 'posenc/train' (it returns never)
export const moved = pe.train({ encoding: 'none' }).step(1);
