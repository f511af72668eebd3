// tests/js/hardening-cases.mjs — the bad-input matrix of the package, as data.
//
// Every exported function and method has an entry: how to build a valid call, and for each
// argument (a path into that call: 'opts.dim', 'x', 'self', …) which of the BAD values the
// API legitimately accepts, with the reason (`ok`), and extra argument-specific bad values
// (`extra`: unknown names, out-of-range parameters). Every other BAD value must be refused
// with a TypeError or RangeError whose message names the argument. Used by
// hardening.test.mjs (the matrix) and exhaustion.test.mjs (the same calls, 100 000 times),
// which also share the helpers below that build and run one call of the table.
//
// A known open finding is marked on the single value with `todo: { value: 'reason' }`.

/** The hostile values, tried on every argument. `like` is the argument's valid value. */
export const BAD = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['string', () => '8'],
  ['NaN', () => NaN],
  ['+Infinity', () => Infinity],
  ['-Infinity', () => -Infinity],
  ['-1', () => -1],
  ['1.5', () => 1.5],
  ['2^31', () => 2 ** 31],
  ['2^53', () => 2 ** 53],
  ['Float64Array', (like) => Float64Array.from(isList(like) ? like : [1, 2, 3, 4])],
  ['too short', (like) => (isList(like) ? like.slice(0, like.length - 1) : new Float32Array(1))],
  ['detached', (like) => detached(ArrayBuffer.isView(like) ? like : new Float32Array(4))],
];

function isList(v) {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/** A typed array of like's type and length whose ArrayBuffer has been transferred away. */
export function detached(like) {
  const a = new like.constructor(like.length);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

// Deterministic test data (no dependency on the code under test).
export const ramp = (n, scale = 0.01) => Float32Array.from({ length: n }, (_, i) => Math.sin(1 + i * 0.7) * (1 + i * scale));

// Shared reasons, so the table reads as a specification.
const OPTIONAL = 'optional: undefined selects the documented default';
const POSITION = 'a position may be any int32 (KV-cache offsets, left padding)';
const SAFE_POS = 'positions, starts and shifts may be negative safe integers';
const NULL_SCALING = 'null scaling means no scaling (like undefined)';
const BASE = { undefined: OPTIONAL, '1.5': 'any finite base > 1', '2^31': 'any finite base > 1', '2^53': 'any finite base > 1' };
const SAFE_OK = { '-1': SAFE_POS, '2^31': 'any safe integer' };
// A shape argument (tokens, heads, strides) that makes x too small is reported as x being
// too small for the shape: naming the buffer is the right explanation there.
const SHAPE = ['x', 'k', 'q'];

// The options object itself: a message may name it ('options', 'unknown option …') or, when
// it is missing, the first required option it lacks.
const OPTIONS = { path: 'opts', name: 'options', aliases: (slots, valid) => ['option', 'tokens', ...Object.keys(valid.opts)] };

// Fresh valid input pieces.
const q8 = () => ramp(16);          // two rows of dim 8
const k8 = () => ramp(24, 0.02);    // three rows of dim 8

/**
 * Entries: { name, make(env) → call slots, call(pe, slots, env) → result, args: [{ path,
 * name?, ok?, todo?, extra? }], inPlace?: path of the slot that is changed in place (must
 * stay unchanged when the call fails) }. `env` holds { pe, rope, tensor } made by the test.
 */
export const CASES = [
  {
    name: 'inverseFrequencies',
    make: () => ({ opts: { dim: 8, base: 10000 } }),
    call: (pe, a) => pe.inverseFrequencies(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 7], ['zero', 0], ['too big', 65538]] },
      { path: 'opts.base', ok: BASE, extra: [['one', 1], ['zero', 0]] },
      { path: 'opts.scaling', ok: { undefined: OPTIONAL, null: NULL_SCALING },
        extra: [['no type', {}], ['unknown type', { type: 'ntk' }], ['unknown key', { type: 'linear', factor: 2, fctor: 2 }]] },
    ],
  },
  ...scalingCases(),
  {
    name: 'wavelengths',
    make: () => ({ opts: { dim: 8, base: 10000 } }),
    call: (pe, a) => pe.wavelengths(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 7], ['zero', 0]] },
      { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
      { path: 'opts.scaling', ok: { undefined: OPTIONAL, null: NULL_SCALING }, extra: [['unknown type', { type: 'x' }]] },
    ],
  },
  {
    name: 'sinusoidal (count)',
    make: () => ({ opts: { dim: 8, positions: 4, start: 0, layout: 'interleaved' } }),
    call: (pe, a) => pe.sinusoidal(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 7], ['zero', 0], ['too big', 65538]] },
      { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
      { path: 'opts.positions' },
      { path: 'opts.start', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half'], ['case', 'Interleaved']] },
    ],
  },
  {
    name: 'sinusoidal (list)',
    make: () => ({ opts: { dim: 8, positions: Int32Array.of(0, 3, -7, 900) } }),
    call: (pe, a) => pe.sinusoidal(a.opts),
    args: [
      { path: 'opts.positions', ok: { 'too short': 'any number of positions' },
        extra: [['element NaN', [1, NaN]], ['element 1.5', [0, 1.5]], ['element 2^31', [2 ** 31]], ['Float32Array', new Float32Array(2)]] },
      { path: 'opts.start', ok: { undefined: OPTIONAL } },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'x']] },
    ],
  },
  {
    name: 'sinusoidal (count, into out)',
    make: () => ({ opts: { dim: 8, positions: 4, start: 2, out: new Float32Array(32) } }),
    call: (pe, a) => pe.sinusoidal(a.opts),
    inPlace: 'opts.out',
    args: [
      { path: 'opts.out', ok: { undefined: 'optional: without out the table is a new Float32Array' },
        extra: [['too long', new Float32Array(33)], ['disposed tensor', (env) => env.disposedTensor], ['view of a disposed tensor', (env) => env.disposedView], ['Int32Array', new Int32Array(32)]] },
      { path: 'opts.dim', extra: [['odd', 7], ['zero', 0]] },
      { path: 'opts.positions', extra: [['one more', 5]] },
    ],
  },
  {
    name: 'sinusoidal (list, into out)',
    make: () => ({ opts: { dim: 8, positions: Int32Array.of(0, 3, -7, 900), out: new Float32Array(32) } }),
    call: (pe, a) => pe.sinusoidal(a.opts),
    inPlace: 'opts.out',
    args: [
      { path: 'opts.out', ok: { undefined: 'optional: without out the table is a new Float32Array' },
        extra: [['too long', new Float32Array(40)], ['disposed tensor', (env) => env.disposedTensor]] },
      { path: 'opts.positions', extra: [['element 1.5', [0, 1.5]]] },
    ],
  },
  {
    name: 'sinusoidalRow',
    make: () => ({ opts: { dim: 8, position: 5, layout: 'concat' } }),
    call: (pe, a) => pe.sinusoidalRow(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 9]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.position', ok: { '-1': SAFE_POS, '2^31': '|position| ≤ 2^40' }, extra: [['2^41', 2 ** 41]] },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half']] },
    ],
  },
  {
    name: 'shiftMatrix',
    make: () => ({ opts: { dim: 8, k: 3 } }),
    call: (pe, a) => pe.shiftMatrix(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 5], ['too big', 2050]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.k', ok: { '-1': SAFE_POS, '2^31': 'k is any safe integer' } },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half']] },
    ],
  },
  {
    name: 'applyShift',
    make: () => ({ row: ramp(8), opts: { k: 3 } }),
    call: (pe, a) => pe.applyShift(a.row, a.opts),
    args: [
      { path: 'row', ok: {} , extra: [['odd length', new Float32Array(7)], ['empty', new Float32Array(0)]] },
      OPTIONS,
      { path: 'opts.k', ok: { '-1': SAFE_POS, '2^31': 'k is any safe integer' } },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'x']] },
    ],
  },
  {
    name: 'peDotByDistance',
    make: () => ({ opts: { dim: 8, position: 2, kFirst: -3, kCount: 10 } }),
    call: (pe, a) => pe.peDotByDistance(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.position', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.kFirst', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.kCount' },
    ],
  },
  {
    name: 'peDotClosedForm',
    make: () => ({ opts: { dim: 8, kFirst: -3, kCount: 10 } }),
    call: (pe, a) => pe.peDotClosedForm(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.kFirst', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.kCount' },
    ],
  },
  {
    name: 'peNorms',
    make: () => ({ opts: { dim: 32, start: 10, count: 5 } }),
    call: (pe, a) => pe.peNorms(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.start', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.count' },
    ],
  },
  {
    name: 'peMinDistance',
    make: () => ({ opts: { dim: 8, start: 0, count: 50 } }),
    call: (pe, a) => pe.peMinDistance(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.start', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.count', extra: [['one', 1]] },
    ],
  },
  {
    name: 'rope',
    make: () => ({ opts: { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half', direction: 'forward', cacheStart: 0, cacheLength: 16 } }),
    call: (pe, a) => {
      const r = pe.rope(a.opts);
      try {
        return [r.headDim, r.rotaryDim, r.attentionFactor, ...r.invFreq, ...r.row(3).cos];
      } finally {
        r.dispose();
      }
    },
    args: [
      OPTIONS,
      { path: 'opts.headDim', extra: [['zero', 0], ['too big', 65537]] },
      { path: 'opts.rotaryDim', ok: { undefined: OPTIONAL, zero: '0 means headDim in the core (index.d.ts says [2, headDim]: reported)' },
        extra: [['odd', 3], ['zero', 0], ['> headDim', 10]] },
      { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'concat'], ['case', 'HALF']] },
      { path: 'opts.direction', ok: { undefined: OPTIONAL }, extra: [['unknown', 'backward'], ['case', 'INVERSE']] },
      { path: 'opts.scaling', ok: { undefined: OPTIONAL, null: NULL_SCALING }, extra: [['unknown type', { type: 'alibi' }], ['linear factor 0', { type: 'linear', factor: 0 }]] },
      { path: 'opts.cacheStart', ok: { undefined: OPTIONAL, ...SAFE_OK } },
      { path: 'opts.cacheLength', ok: { undefined: OPTIONAL } },
    ],
  },
  ...ropeMethodCases(),
  {
    name: 'scores',
    make: () => ({ opts: { q: q8(), k: k8(), dim: 8, qPositions: [0, 5], kPositions: Int32Array.of(-1, 3, 9),
      mode: 'rotary', layout: 'half', base: 10000, rotaryDim: 8, scale: false } }),
    call: (pe, a) => pe.scores(a.opts).scores,
    args: scoreArgs(),
  },
  {
    name: 'scores (additive)',
    make: () => ({ opts: { q: q8(), k: k8(), dim: 8, mode: 'additive', peLayout: 'concat' } }),
    call: (pe, a) => {
      const { scores, terms } = pe.scores(a.opts);
      return [...scores, ...terms.content, ...terms.queryPosition, ...terms.positionKey, ...terms.positionPosition];
    },
    args: [
      { path: 'opts.peLayout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half']] },
    ],
  },
  {
    name: 'shiftInvariance',
    make: () => ({ opts: { q: q8(), k: k8(), dim: 8, shift: 1000 } }),
    call: (pe, a) => [pe.shiftInvariance(a.opts)],
    args: [
      OPTIONS,
      { path: 'opts.q', extra: [['not a multiple of dim', new Float32Array(9)]] },
      { path: 'opts.k', extra: [['not a multiple of dim', new Float32Array(9)]] },
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.shift', ok: { '-1': SAFE_POS } },
    ],
  },
  {
    name: 'relativeKernel',
    make: () => ({ opts: { q: ramp(8), k: ramp(8, 0.5), delta: 3, layout: 'interleaved' } }),
    call: (pe, a) => Object.values(pe.relativeKernel(a.opts)),
    args: [
      OPTIONS,
      { path: 'opts.q', extra: [['odd length', new Float32Array(7)]] },
      { path: 'opts.k' },
      { path: 'opts.delta', ok: { '-1': SAFE_POS, '2^31': 'delta is any safe integer' } },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'concat']] },
    ],
  },
  {
    name: 'decayBound',
    make: () => ({ opts: { dim: 16, maxDistance: 20 } }),
    call: (pe, a) => pe.decayBound(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.dim', extra: [['odd', 3]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.maxDistance' },
    ],
  },
  {
    name: 'attentionWeights',
    make: () => ({ opts: { modelDim: 4, seed: 7 } }),
    call: (pe, a) => { const w = pe.attentionWeights(a.opts); return [...w.wq, ...w.wk, ...w.wv, ...w.wo]; },
    args: [
      OPTIONS,
      { path: 'opts.modelDim', extra: [['zero', 0], ['too big', 4097]] },
      { path: 'opts.seed', ok: { '2^31': 'a seed is any safe integer ≥ 0' }, extra: [['BigInt 2^64', 2n ** 64n], ['BigInt −1', -1n]] },
    ],
  },
  {
    name: 'selfAttention',
    make: (env) => ({ opts: { x: ramp(24), weights: env.weights(), modelDim: 8, heads: 2, mode: 'rotary', causal: true,
      positions: [0, 1, 5] } }),
    call: (pe, a) => { const r = pe.selfAttention(a.opts); return [...r.output, ...r.weights]; },
    args: [
      OPTIONS,
      { path: 'opts.x', extra: [['not a multiple of modelDim', new Float32Array(25)]] },
      { path: 'opts.weights' },
      { path: 'opts.weights.wq', name: 'weights.wq' },
      { path: 'opts.weights.wo', name: 'weights.wo' },
      { path: 'opts.modelDim', extra: [['zero', 0], ['not divisible by heads', 6]] },
      { path: 'opts.tokens', ok: { undefined: OPTIONAL } },
      { path: 'opts.heads', ok: { undefined: 'optional: one head' }, extra: [['zero', 0], ['3 ∤ 8', 3]] },
      { path: 'opts.mode', ok: { undefined: OPTIONAL }, extra: [['unknown', 'alibi']] },
      { path: 'opts.causal', ok: { undefined: OPTIONAL }, extra: [['number', 1]] },
      { path: 'opts.base', ok: BASE },
      { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'concat']] },
      { path: 'opts.peLayout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half']] },
      { path: 'opts.positions', ok: { undefined: OPTIONAL }, extra: [['element NaN', [0, NaN, 2]], ['too long', [0, 1, 2, 3]]] },
    ],
  },
  {
    name: 'permutationTest',
    make: (env) => ({ opts: { x: ramp(24), weights: env.weights(), modelDim: 8, heads: 2, seed: 3 } }),
    call: (pe, a) => [pe.permutationTest(a.opts)],
    args: [
      OPTIONS,
      { path: 'opts.x' },
      { path: 'opts.weights.wk', name: 'weights.wk' },
      { path: 'opts.modelDim', extra: [['zero', 0]] },
      { path: 'opts.heads', ok: { undefined: 'optional: one head' }, extra: [['zero', 0]] },
      { path: 'opts.seed', ok: { '2^31': 'a seed is any safe integer ≥ 0' } },
    ],
  },
  {
    name: 'fillUniform',
    make: () => ({ out: new Float32Array(10), opts: { seed: 5, lo: -2, hi: 3 } }),
    call: (pe, a) => pe.fillUniform(a.out, a.opts),
    inPlace: 'out',
    args: [
      { path: 'out', ok: { 'too short': 'any length is fine (fills what it is given)' }, extra: [['disposed tensor', (env) => env.disposedTensor], ['view of a disposed tensor', (env) => env.disposedView]] },
      OPTIONS,
      { path: 'opts.seed', ok: { '2^31': 'a seed is any safe integer ≥ 0' }, extra: [['BigInt 2^64', 2n ** 64n]] },
      { path: 'opts.lo', ok: { undefined: OPTIONAL, '-1': 'any finite lo < hi', '1.5': 'any finite lo < hi' }, extra: [['lo > hi', 5]] },
      { path: 'opts.hi', ok: { undefined: OPTIONAL, '-1': 'any finite hi > lo (lo = −2)', '1.5': 'any finite hi > lo', '2^31': 'any finite hi > lo', '2^53': 'any finite hi > lo' } },
    ],
  },
  {
    name: 'permutation',
    make: () => ({ opts: { n: 12, seed: 9 } }),
    call: (pe, a) => pe.permutation(a.opts),
    args: [
      OPTIONS,
      { path: 'opts.n', extra: [] },
      { path: 'opts.seed', ok: { '2^31': 'a seed is any safe integer ≥ 0' } },
    ],
  },
  ...configCases(),
  ...familyCases(),
  {
    name: 'tensor',
    make: () => ({ len: 6 }),
    call: (pe, a) => { const t = pe.tensor(a.len); try { return [t.length, ...t.array]; } finally { t.dispose(); } },
    args: [{ path: 'len', name: 'length', aliases: ['tensor'], ok: { 'too short': 'a Float32Array is copied (any length)' } }],
  },
  {
    name: 'tensor.array',
    make: (env) => ({ self: env.liveTensor }),
    call: (pe, a) => a.self.array,
    args: [{ path: 'self', name: 'tensor', only: true, extra: [['disposed tensor', (env) => env.disposedTensor]] }],
  },
];

// Scaling parameters out of range, one entry per scaling type (through inverseFrequencies).
function scalingCases() {
  const entry = (type, scaling, params) => ({
    name: `inverseFrequencies scaling ${type}`,
    make: () => ({ opts: { dim: 16, scaling: { type, ...scaling } } }),
    call: (pe, a) => { const r = pe.inverseFrequencies(a.opts); return [...r.invFreq, r.attentionFactor]; },
    args: params.map(([field, p = {}]) => ({ path: `opts.scaling.${field}`, name: `scaling.${field}`, ...p })),
  });
  const BIG = 'any finite value ≥ 1 is a valid factor';
  return [
    entry('linear', { factor: 4 }, [['type', { extra: [['unknown', 'Linear'], ['rope name', 'ntk']] }],
      ['factor', { ok: { '2^31': BIG, '2^53': BIG, '1.5': BIG }, extra: [['zero', 0], ['below 1', 0.5]] }]]),
    entry('dynamic', { factor: 2, maxPositionEmbeddings: 2048, seqLen: 4096 }, [
      ['factor', { ok: { '2^31': BIG, '2^53': BIG, '1.5': BIG }, extra: [['below 1', 0.5]] }],
      ['maxPositionEmbeddings', { extra: [['zero', 0]] }],
      ['seqLen', { ok: { undefined: 'optional: HF uses max_position_embeddings' }, extra: [['zero', 0]] }]]),
    entry('yarn', { factor: 4, originalMaxPositionEmbeddings: 4096, betaFast: 32, betaSlow: 1, mscale: 1, mscaleAllDim: 0, truncate: true }, [
      ['factor', { ok: { '2^31': BIG, '2^53': BIG, '1.5': BIG }, extra: [['below 1', 0.5]] }],
      ['originalMaxPositionEmbeddings', { extra: [['zero', 0]] }],
      ['betaFast', { ok: { undefined: OPTIONAL, '1.5': 'finite ≥ betaSlow', '2^31': 'finite ≥ betaSlow', '2^53': 'finite ≥ betaSlow' }, extra: [['below betaSlow', 0.5]] }],
      ['betaSlow', { ok: { undefined: OPTIONAL, '1.5': 'finite ≤ betaFast' }, extra: [['above betaFast', 64]] }],
      ['mscale', { ok: { undefined: OPTIONAL, '1.5': 'finite ≥ 0', '2^31': 'finite ≥ 0', '2^53': 'finite ≥ 0' } }],
      // With mscale 1, a huge mscaleAllDim makes the attention factor (their ratio) < 1e-4.
      ['mscaleAllDim', { ok: { undefined: OPTIONAL, '1.5': 'finite ≥ 0' } }],
      ['attentionFactor', { ok: { undefined: OPTIONAL, '1.5': 'in (0, 1e4]' }, extra: [['zero', 0], ['beyond 1e4', 1e5]] }],
      ['truncate', { ok: { undefined: OPTIONAL }, extra: [['number', 1]] }]]),
    entry('llama3', { factor: 8, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4 }, [
      ['factor', { ok: { '2^31': BIG, '2^53': BIG, '1.5': BIG } }],
      ['originalMaxPositionEmbeddings', { extra: [['zero', 0]] }],
      // Equal factors are Llama 4's (transformers accepts them); above highFreqFactor is refused.
      ['lowFreqFactor', { aliases: ['scaling.highFreqFactor'], ok: { undefined: 'optional: Llama 3.1 default', '1.5': 'finite in (0, highFreqFactor]' }, extra: [['zero', 0], ['> highFreqFactor', 5]] }],
      ['highFreqFactor', { ok: { undefined: 'optional: Llama 3.1 default', '1.5': 'finite ≥ lowFreqFactor', '2^31': 'finite ≥ lowFreqFactor', '2^53': 'finite ≥ lowFreqFactor' }, extra: [['< lowFreqFactor', 0.5]] }]]),
    entry('longrope', { factor: 4, originalMaxPositionEmbeddings: 4096, seqLen: 8192,
      shortFactor: [1, 1, 1, 1, 1, 1, 1, 1], longFactor: Float64Array.of(1, 1.5, 2, 3, 4, 6, 8, 16) }, [
      ['shortFactor', { ok: { Float64Array: 'any array of numbers' }, extra: [['element 0', [0, 1, 1, 1, 1, 1, 1, 1]], ['element NaN', [NaN, 1, 1, 1, 1, 1, 1, 1]], ['too long', new Array(9).fill(1)]] }],
      ['longFactor', { ok: { Float64Array: 'the valid value is one' }, extra: [['element −1', [-1, 1, 1, 1, 1, 1, 1, 1]]] }],
      ['seqLen', { ok: { undefined: 'optional: then the short factors apply' }, extra: [['zero', 0]] }],
      ['attentionFactor', { ok: { undefined: OPTIONAL, '1.5': 'in (0, 1e4]' }, extra: [['zero', 0], ['beyond 1e4', 1e5]] }]]),
  ];
}

// pe.ropeFromConfig: the options, and the config object (a parsed config.json) by its keys.
function configCases() {
  const llama = () => ({ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 500000, max_position_embeddings: 8192,
    rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4,
      original_max_position_embeddings: 1024 } });
  const call = (pe, a) => {
    const r = pe.ropeFromConfig(a.config, a.opts);
    try {
      return [r.headDim, r.rotaryDim, r.attentionFactor, ...r.invFreq];
    } finally {
      r.dispose();
    }
  };
  // A config key's value: the core names the key path (snake_case, as published).
  const key = (path, ok = {}, extra = []) => ({ path: `config.${path}`, name: path, ok, extra });
  const ABSENT = 'absent keys take HF defaults';
  return [
    {
      name: 'ropeFromConfig',
      make: () => ({ config: llama(), opts: { seqLen: 4096, layout: 'half', layerType: 'full_attention', tower: 'text', cacheLength: 16,
        stack: 'decoder' } }),
      call,
      args: [
        { path: 'config', ok: {}, extra: [['array', []], ['cycle', (() => { const c = llama(); c.rope_scaling.self = c; return c; })()]],
          aliases: ['self', 'key path'] },
        { ...OPTIONS, ok: { undefined: 'optional: every option has a default' } },
        { path: 'opts.seqLen', ok: { undefined: OPTIONAL }, extra: [['zero', 0]] },
        { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'concat']] },
        { path: 'opts.layerType', ok: { undefined: OPTIONAL }, extra: [['unknown', 'global']] },
        { path: 'opts.tower', ok: { undefined: OPTIONAL }, extra: [['unknown', 'audio']] },
        { path: 'opts.stack', ok: { undefined: OPTIONAL }, extra: [['unknown', 'middle'], ['the other stack', 'encoder']] },
        { path: 'opts.cacheLength', ok: { undefined: OPTIONAL } },
        key('hidden_size', {}, [['zero', 0]]),
        key('num_attention_heads', {}, [['zero', 0]]),
        // null is refused by name: transformers needs a number there.
        key('rope_theta', { undefined: ABSENT, '1.5': 'any finite base > 1', '2^31': 'any finite base > 1', '2^53': 'any finite base > 1' }, [['one', 1]]),
        key('rope_scaling', { undefined: 'no rope_scaling: default rotary', null: 'null rope_scaling: default rotary' }, [['string', 'llama3'], ['unknown type', { rope_type: 'ntk' }]]),
        key('rope_scaling.factor', { '2^31': 'any finite factor ≥ 1', '2^53': 'any finite factor ≥ 1', '1.5': 'any finite factor ≥ 1' }, [['below 1', 0.5]]),
        // Without rope_type the type is 'default', which takes no factor: the refusal names that key.
        { ...key('rope_scaling.rope_type', {}, [['unknown', 'ntk']]), aliases: ['rope_scaling.factor'] },
      ],
    },
  ];
}

// The other families of the methods table, positionAngles / addSinusoidal, and the image
// and video grids / 2-D sinusoidal table.
function familyCases() {
  const POSITIVE = { undefined: OPTIONAL, '1.5': 'any finite value > 0', '2^31': 'any finite value > 0', '2^53': 'any finite value > 0' };
  return [
    {
      name: 'axesPositions',
      make: () => ({ opts: { model: 'flux2', height: 4, width: 6, textTokens: 2, references: [[2, 3]] } }),
      call: (pe, a) => [...pe.axesPositions(a.opts).positions],
      args: [
        OPTIONS,
        { path: 'opts.model', extra: [['unknown', 'sdxl'], ['no grid', 'stable-audio']] },
        { path: 'opts.height', extra: [['zero', 0]] },
        { path: 'opts.width', extra: [['2^20 + 1', 2 ** 20 + 1]] },
        { path: 'opts.textTokens', ok: { undefined: OPTIONAL } },
        { path: 'opts.references', ok: { undefined: OPTIONAL, 'too short': 'no reference images' },
          extra: [['element of 1', [[2]]], ['element 0', [[0, 3]]]] },
        { path: 'opts.frames', ok: { undefined: OPTIONAL }, extra: [['video frames for an image model', 2]] },
      ],
    },
    {
      name: 'sinusoidal2d',
      make: () => ({ opts: { dim: 8, grid: [2, 3], baseSize: 4, interpolationScale: 2, maxSize: 4, extraTokens: 1 } }),
      call: (pe, a) => pe.sinusoidal2d(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.dim', extra: [['six', 6], ['zero', 0]] },
        { path: 'opts.grid', extra: [['larger than maxSize', [5, 3]]], aliases: ['maxSize'] },
        { path: 'opts.baseSize', ok: POSITIVE, extra: [['zero', 0]] },
        { path: 'opts.interpolationScale', ok: POSITIVE, extra: [['zero', 0]] },
        { path: 'opts.maxSize', ok: { undefined: OPTIONAL }, aliases: ['grid'], extra: [['below the grid', 2]] },
        { path: 'opts.extraTokens', ok: { undefined: OPTIONAL } },
      ],
    },
    {
      name: 'positionAngles',
      make: () => ({ opts: { dim: 8, base: 10000, positions: [0, 5, -3] } }),
      call: (pe, a) => pe.positionAngles(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.dim', extra: [['odd', 7], ['zero', 0]] },
        { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
        { path: 'opts.positions', ok: { 'too short': 'any number of positions' }, extra: [['element 1.5', [1.5]], ['element 2^31', [2 ** 31]]] },
      ],
    },
    {
      name: 'addSinusoidal',
      make: () => ({ opts: { e: ramp(16), dim: 8, positions: [3, 9], scale: 2, layout: 'interleaved' } }),
      call: (pe, a) => pe.addSinusoidal(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.e', extra: [['one row short', new Float32Array(8)]], aliases: ['positions'] },
        { path: 'opts.dim', extra: [['odd', 7], ['zero', 0]], aliases: ['e'] },
        { path: 'opts.positions', aliases: ['e'], extra: [['element NaN', [1, NaN]]] },
        { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
        { path: 'opts.scale', ok: { undefined: OPTIONAL, '-1': 'any finite scale', '1.5': 'any finite scale', '2^31': 'any finite scale', '2^53': 'any finite scale' } },
        { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'half']] },
      ],
    },
    {
      name: 'alibiSlopes',
      make: () => ({ opts: { heads: 12 } }),
      call: (pe, a) => pe.alibiSlopes(a.opts),
      args: [OPTIONS, { path: 'opts.heads', extra: [['zero', 0], ['too many', 65537]] }],
    },
    {
      name: 'alibiBias',
      make: () => ({ opts: { heads: 3, queries: 2, keys: 4, causal: true } }),
      call: (pe, a) => pe.alibiBias(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.heads', extra: [['zero', 0]] },
        { path: 'opts.queries', ok: { undefined: 'optional: keys' }, extra: [['> keys', 5]] },
        { path: 'opts.keys', aliases: ['queries'] },
        { path: 'opts.causal', ok: { undefined: OPTIONAL }, extra: [['number', 1]] },
      ],
    },
    {
      name: 't5Buckets',
      make: () => ({ opts: { queries: 3, keys: 5, bidirectional: false, numBuckets: 8, maxDistance: 16 } }),
      call: (pe, a) => pe.t5Buckets(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.queries' },
        { path: 'opts.keys', ok: { undefined: 'optional: queries' } },
        { path: 'opts.bidirectional', ok: { undefined: OPTIONAL }, extra: [['number', 0]] },
        // Its default 32 needs maxDistance > 16: with this call's 16 the refusal names maxDistance.
        { path: 'opts.numBuckets', extra: [['one', 1]], aliases: ['maxDistance'] },
        { path: 'opts.maxDistance', ok: { undefined: OPTIONAL }, extra: [['= numBuckets/2', 4]], aliases: ['numBuckets'] },
      ],
    },
    {
      name: 'clippedDistances',
      make: () => ({ opts: { queries: 3, keys: 4, maxDistance: 2 } }),
      call: (pe, a) => pe.clippedDistances(a.opts),
      args: [
        OPTIONS,
        { path: 'opts.queries' },
        { path: 'opts.keys', ok: { undefined: 'optional: queries' } },
        { path: 'opts.maxDistance' },
      ],
    },
    {
      name: 'learnedTable',
      make: () => ({ opts: { positions: 8, dim: 4, seed: 1 }, list: [0, 7] }),
      call: (pe, a) => [...pe.learnedTable(a.opts).lookup(a.list)],
      args: [
        OPTIONS,
        { path: 'opts.positions', extra: [['zero', 0]] },
        { path: 'opts.dim', extra: [['zero', 0]] },
        { path: 'opts.seed', ok: { undefined: 'optional: seed 0', '2^31': 'a seed is any safe integer ≥ 0' } },
        { path: 'list', name: 'positions', ok: { 'too short': 'any number of rows' }, extra: [['past the table', [8]], ['element 1.5', [1.5]]] },
      ],
    },
  ];
}

// The rotator's methods on one shared rope (headDim 8, 2 tokens × 2 heads), plus a disposed one.
function ropeMethodCases() {
  const self = { path: 'self', name: 'rope', only: true, extra: [['disposed rope', (env) => env.disposedRope]] };
  const x = (extraOk = {}) => ({ path: 'x', ok: extraOk,
    extra: [['disposed tensor', (env) => env.disposedTensor], ['view of a disposed tensor', (env) => env.disposedView], ['Int32Array', new Int32Array(32)]] });
  const strides = (p = '') => [
    { path: `opts.${p}tokenStride`, name: `${p}tokenStride`, ok: { undefined: OPTIONAL }, aliases: SHAPE, extra: [['overlapping rows', 4]] },
    { path: `opts.${p}headStride`, name: `${p}headStride`, ok: { undefined: OPTIONAL }, aliases: SHAPE, extra: [['overlapping heads', 4]] },
  ];
  const common = [
    OPTIONS,
    { path: 'opts.heads', ok: { undefined: 'optional: one head (x may be longer than needed)' }, aliases: SHAPE,
      extra: [['2^29 + 1 (size_t wrap)', 2 ** 29 + 1], ['2^32 + 1', 2 ** 32 + 1]] },
    ...strides(),
  ];
  return [
    {
      name: 'rope.apply (start)',
      make: (env) => ({ self: env.rope, x: ramp(32), opts: { tokens: 2, heads: 2, start: 5 } }),
      call: (pe, a) => a.self.apply(a.x, a.opts),
      inPlace: 'x',
      args: [self, x(), ...common,
        { path: 'opts.tokens', aliases: SHAPE },
        { path: 'opts.start', ok: { undefined: OPTIONAL, '-1': SAFE_POS, '2^31': 'start is any safe integer' } },
        { path: 'opts.inverse', ok: { undefined: OPTIONAL }, extra: [['number', 1]] },
        { path: 'opts.positions', ok: { undefined: OPTIONAL } }],
    },
    {
      name: 'rope.apply (positions)',
      make: (env) => ({ self: env.rope, x: ramp(32), opts: { heads: 2, positions: Int32Array.of(3, -7) } }),
      call: (pe, a) => a.self.apply(a.x, a.opts),
      inPlace: 'x',
      args: [self, x(),
        { path: 'opts.positions', ok: { 'too short': 'one position: one token', Float64Array: 'real-valued positions (image and video models)' }, aliases: ['x', 'tokens'],
          extra: [['element NaN', [1, NaN]], ['element 2^31', [1, 2 ** 31]], ['too long for x', [1, 2, 3]],
            ['real element NaN', Float64Array.of(1, NaN)]] },
        { path: 'opts.tokens', ok: { undefined: 'optional: positions.length' }, extra: [['≠ positions.length', 1]] }],
    },
    {
      name: 'rope.invert',
      make: (env) => ({ self: env.rope, x: ramp(32), opts: { tokens: 2, heads: 2, start: -4 } }),
      call: (pe, a) => a.self.invert(a.x, a.opts),
      inPlace: 'x',
      args: [self, x(), ...common, { path: 'opts.tokens', aliases: SHAPE },
        { path: 'opts.inverse', ok: { undefined: OPTIONAL }, extra: [['true', true]] }],
    },
    {
      name: 'rope.applyQK',
      make: (env) => ({ self: env.rope, q: ramp(32), k: ramp(16, 0.1), opts: { positions: [4, 9], qHeads: 2, kHeads: 1 } }),
      call: (pe, a) => { const [q, k] = a.self.applyQK(a.q, a.k, a.opts); return [...q, ...k]; },
      inPlace: 'q',
      args: [self,
        { path: 'q', extra: [['disposed tensor', (env) => env.disposedTensor]] },
        { path: 'k', extra: [['view of a disposed tensor', (env) => env.disposedView]] },
        OPTIONS,
        { path: 'opts.positions', ok: { 'too short': 'one position: one token', Float64Array: 'real-valued positions (image and video models)' }, aliases: ['tokens'],
          extra: [['element 1.5', [1.5, 2]], ['real element ∞', Float64Array.of(Infinity, 2)]] },
        { path: 'opts.qHeads', name: 'qHeads', ok: { undefined: 'optional: one head' }, aliases: ['q'], extra: [['2^29 + 1 (size_t wrap)', 2 ** 29 + 1]] },
        { path: 'opts.kHeads', name: 'kHeads', ok: { undefined: 'optional: one head' }, aliases: ['k'], extra: [['2^29 + 1 (size_t wrap)', 2 ** 29 + 1]] },
        { path: 'opts.qTokenStride', name: 'qTokenStride', ok: { undefined: OPTIONAL }, aliases: ['q'] },
        { path: 'opts.kHeadStride', name: 'kHeadStride', ok: { undefined: OPTIONAL, '2^31': 'unused with kHeads = 1' }, aliases: ['k'] }],
    },
    {
      name: 'rope.shift',
      make: (env) => ({ self: env.rope, x: ramp(32), opts: { tokens: 2, heads: 2, delta: -128 } }),
      call: (pe, a) => a.self.shift(a.x, a.opts),
      inPlace: 'x',
      args: [self, { ...x(), name: 'k' }, ...common, { path: 'opts.tokens', aliases: SHAPE },
        { path: 'opts.delta', ok: { '-1': SAFE_POS, '2^31': 'delta is any safe integer' } }],
    },
    {
      name: 'rope.row',
      make: (env) => ({ self: env.rope, position: 1000 }),
      call: (pe, a) => { const r = a.self.row(a.position); return [...r.cos, ...r.sin]; },
      args: [self, { path: 'position', ok: { '-1': SAFE_POS, '2^31': 'any safe integer' } }],
    },
    {
      name: 'rope.cosSin (start)',
      make: (env) => ({ self: env.rope, opts: { start: 5, tokens: 3 } }),
      call: (pe, a) => { const r = a.self.cosSin(a.opts); return [...r.cos, ...r.sin]; },
      args: [self, OPTIONS,
        { path: 'opts.start', ok: { undefined: OPTIONAL, '-1': SAFE_POS, '2^31': 'start is any safe integer' } },
        { path: 'opts.tokens', extra: [['2^28 (8 GiB of rows)', 2 ** 28]] }],
    },
    {
      name: 'rope.cosSin (positions)',
      make: (env) => ({ self: env.rope, opts: { positions: Int32Array.of(3, -7, 4000) } }),
      call: (pe, a) => { const r = a.self.cosSin(a.opts); return [...r.cos, ...r.sin]; },
      args: [self,
        { path: 'opts.positions', ok: { 'too short': 'any number of positions', Float64Array: 'real-valued positions (image and video models)' }, aliases: ['tokens'],
          extra: [['element NaN', [1, NaN]], ['element 2^31', [2 ** 31]], ['real element NaN', Float64Array.of(1, NaN, 2)]] },
        { path: 'opts.tokens', ok: { undefined: 'optional: positions.length' }, extra: [['≠ positions.length', 2]] }],
    },
    {
      name: 'rope.dispose',
      make: (env) => ({ self: env.rope }),
      call: (pe, a) => { const r = pe.rope({ headDim: 4 }); r.dispose(); r.dispose(); return [Number(r.disposed)]; },
      args: [],
    },
  ];
}

function scoreArgs() {
  return [
    OPTIONS,
    { path: 'opts.q', extra: [['not a multiple of dim', new Float32Array(9)]] },
    { path: 'opts.k', extra: [['disposed tensor', (env) => env.disposedTensor]] },
    { path: 'opts.dim', extra: [['odd', 3], ['zero', 0]] },
    { path: 'opts.qPositions', ok: { undefined: 'optional: 0 … Tq−1' }, extra: [['element NaN', [0, NaN]], ['wrong count', [0, 1, 2]]] },
    { path: 'opts.kPositions', ok: { undefined: 'optional: 0 … Tk−1' }, extra: [['element 2^31', [0, 1, 2 ** 31]]] },
    { path: 'opts.mode', ok: { undefined: OPTIONAL }, extra: [['unknown', 'alibi'], ['case', 'Rotary']] },
    { path: 'opts.layout', ok: { undefined: OPTIONAL }, extra: [['unknown', 'concat']] },
    { path: 'opts.peLayout', ok: { undefined: 'unused in rotary mode, default applies' }, extra: [['unknown', 'half']] },
    { path: 'opts.base', ok: BASE, extra: [['one', 1]] },
    { path: 'opts.rotaryDim', ok: { undefined: OPTIONAL }, extra: [['odd', 3], ['> dim', 10]] },
    { path: 'opts.scaling', ok: { undefined: OPTIONAL, null: NULL_SCALING }, extra: [['bad factor', { type: 'linear', factor: -2 }]] },
    { path: 'opts.scale', ok: { undefined: OPTIONAL }, extra: [['number', 1]] },
  ];
}

// ---- running the table: shared by the matrix and the replay ------------------------------

/** Sets `path` ('opts.scaling.factor') in the call slots; undefined removes the key. */
export function setPath(slots, path, value) {
  const keys = path.split('.');
  let obj = slots;
  for (const k of keys.slice(0, -1)) {
    obj[k] = Array.isArray(obj[k]) || ArrayBuffer.isView(obj[k]) ? obj[k] : { ...obj[k] };
    obj = obj[k];
  }
  const last = keys.at(-1);
  if (value === undefined) delete obj[last];
  else obj[last] = value;
}

/** The value at `path` in the call slots (undefined when a key on the way is missing). */
export function getPath(slots, path) {
  return path.split('.').reduce((o, k) => o?.[k], slots);
}

/** Every number a result holds, in order (typed arrays, arrays, objects, numbers). */
export function numbers(r) {
  if (typeof r === 'number' || typeof r === 'boolean') return [Number(r)];
  if (ArrayBuffer.isView(r) || Array.isArray(r)) return Array.from(r, Number);
  if (r && typeof r === 'object') return Object.values(r).flatMap(numbers);
  return [];
}

export function sameNumbers(a, b) {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

export const argName = (arg) => arg.name ?? arg.path.split('.').at(-1);

/** The values tried on `arg`: [label, value-or-(env → value)]. */
export function valuesFor(entry, arg, env) {
  const like = getPath(entry.make(env), arg.path);
  const universal = arg.only ? [] : BAD.map(([label, make]) => [label, () => make(like)]);
  return [...universal, ...(arg.extra ?? []).map(([label, v]) => [label, typeof v === 'function' ? v : () => v])];
}

// ---- the environment: fixtures shared by the cases ---------------------------------------

/** The fixtures the cases draw on (one module instance): rope, tensors, weights, sentinel. */
export function makeEnv(pe) {
  const weights = pe.attentionWeights({ modelDim: 8, seed: 1 });
  const disposedRope = pe.rope({ headDim: 8 });
  disposedRope.dispose();
  const sentinel = pe.tensor(ramp(4096));
  return {
    pe,
    rope: pe.rope({ headDim: 8, cacheStart: -2, cacheLength: 16 }),
    weights: () => ({ wq: weights.wq.slice(), wk: weights.wk.slice(), wv: weights.wv.slice(), wo: weights.wo.slice() }),
    liveTensor: pe.tensor(ramp(8)),
    disposedRope,
    get disposedTensor() {
      const t = pe.tensor(32);
      t.dispose();
      return t;
    },
    get disposedView() {
      const t = pe.tensor(32);
      const v = t.array;
      t.dispose();
      return v;
    },
    sentinel,
    sentinelValues: ramp(4096),
  };
}


// ---- open findings, each on the single value it concerns -------------------------
// [case, argument path, value labels, reason]. The runner reports them as `todo` subtests.
// Closed (every value now refused cleanly on both binaries, so their marks were removed):
//   F1 32-bit size_t wrap in check_view / the rotary cache count (core/src/tensor.cpp);
//   F2 detached typed arrays (wasm/js/check.js); F3 messages naming the core's argument
//   (dim, tokens, layout, cache size, row count) instead of the JS one; F4 createPosenc wasm.
//   Outside the table (tests of their own): F6 tensor() not zeroed, F7 another instance's tensor.
export const FINDINGS = [];

for (const [name, path, labels, reason] of FINDINGS) {
  const arg = CASES.find((c) => c.name === name)?.args.find((a) => a.path === path);
  if (!arg) throw new Error(`hardening-cases: finding on unknown ${name} ${path}`);
  arg.todo = { ...arg.todo, ...Object.fromEntries(labels.map((l) => [l, reason])) };
}
