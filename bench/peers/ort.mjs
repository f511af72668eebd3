// bench/peers/ort.mjs — one process of posenc beside onnxruntime-web's RotaryEmbedding
// (com.microsoft, its WebAssembly SIMD CPU kernel, one thread), side by side: every member
// rotates the same 32 heads × 128 of the same values at the same positions, each sample one
// call, the members' samples interleaved (bench/wasm/paired.mjs). Members:
//   ort          session.run on a one-node model (onnx-graph.mjs) whose cos/sin initializers
//                are posenc's own rows: a Float32Array in, a new Float32Array out
//   posenc       rope.apply(x, { …, out: y }) on plain Float32Arrays: the same contract
//   posencTensor rope.apply(t, …) in place on a zero-copy tensor (posenc's fastest form)
// Prints one JSON object: { "<prefill|decode>/<layout>/<tokens>x32x128": { member: ns,
// start, maxAbsDiff } }, maxAbsDiff = max |posenc − ort| on one out-of-place call.
import * as ort from 'onnxruntime-web';
import { createPosenc } from '../../wasm/dist/inline.js';
import { cpuNow, pairedAsync, randomFill } from '../wasm/paired.mjs';
import { rotaryModel } from './onnx-graph.mjs';

const HEADS = 32, DIM = 128, DECODE_POS = 4000;
ort.env.wasm.numThreads = 1;  // posenc is one thread; ORT's CPU kernel would otherwise split rows
const pe = await createPosenc({ simd: true });
if (!pe.simd) throw new Error('the SIMD binary did not load');

// ORT's cos/sin cache [rows][DIM/2] from posenc's rows of positions 0 … rows − 1.
function ortCache(rows) {
  const rope = pe.rope({ headDim: DIM, cacheLength: rows });
  const { cos, sin } = rope.cosSin({ start: 0, tokens: rows });
  rope.dispose();
  const c = new Float32Array(rows * DIM / 2), s = new Float32Array(rows * DIM / 2);
  for (let t = 0; t < rows; t++) {
    c.set(cos.subarray(t * DIM, t * DIM + DIM / 2), t * DIM / 2);
    s.set(sin.subarray(t * DIM, t * DIM + DIM / 2), t * DIM / 2);
  }
  return { cos: c, sin: s };
}

// A session of the one-node model on `tokens` tokens at `start`, with its feeds over x.
async function ortRun(layout, tokens, start, x) {
  const session = await ort.InferenceSession.create(
    rotaryModel({ tokens, heads: HEADS, headDim: DIM, interleaved: layout === 'interleaved', ...ortCache(start + tokens) }),
    { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  const feeds = { input: new ort.Tensor('float32', x, [1, tokens, HEADS * DIM]),
    position_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(start)), [1]) };
  return { session, run: async () => (await session.run(feeds)).output };
}

async function group(layout, tokens, start) {
  const n = tokens * HEADS * DIM, rows = start + tokens;
  const rope = pe.rope({ headDim: DIM, cacheLength: rows, layout });
  const x = randomFill(new Float32Array(n), 5), y = new Float32Array(n);
  const { session, run } = await ortRun(layout, tokens, start, x);
  const opts = { tokens, heads: HEADS, start };
  const outOpts = { tokens, heads: HEADS, start, out: y };

  const theirs = (await run()).data;
  rope.apply(x, outOpts);
  let maxAbsDiff = 0;
  for (let i = 0; i < n; i++) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(y[i] - theirs[i]));

  const tensor = pe.tensor(randomFill(new Float32Array(n), 5));
  const ns = await pairedAsync({
    ort: async () => (await run()).dispose(),
    posenc: () => rope.apply(x, outOpts),
    posencTensor: () => rope.apply(tensor, opts),
  }, tokens >= 1024 ? { runs: 11, warmNs: 0.3e9 } : { runs: 41, warmNs: 0.2e9, inner: tokens > 1 ? 16 : 256 });
  for (const o of [rope, tensor]) o.dispose();
  await session.release();
  return [`${tokens === 1 ? 'decode' : 'prefill'}/${layout}/${tokens}x32x128`, { ...ns, start, maxAbsDiff }];
}

// V8 compiles onnxruntime's WebAssembly with its baseline compiler first and moves hot
// functions to optimized code later, off the main thread: both layouts' kernels run for
// 0.6 s of CPU time before any group is timed (a group's own 0.2 s warm-up left the first
// group's onnxruntime times 1.5× slow).
for (const layout of ['half', 'interleaved']) {
  const { session, run } = await ortRun(layout, 16, 0, randomFill(new Float32Array(16 * HEADS * DIM), 5));
  for (const t0 = cpuNow(); cpuNow() - t0 < 0.6e9;) (await run()).dispose();
  await session.release();
}

const out = { versions: { onnxruntimeWeb: ort.env.versions.web, node: process.versions.node } };
for (const layout of ['half', 'interleaved'])
  for (const [tokens, start] of [[16, 0], [2048, 0], [1, DECODE_POS]]) {
    const [name, r] = await group(layout, tokens, start);
    out[name] = r;
  }
process.stdout.write(JSON.stringify(out) + '\n');
