// The onnxruntime-web peer of `npm run bench -- --peers` runs the one-node model that
// bench/peers/onnx-graph.mjs writes: onnxruntime must accept it, and with posenc's own cos/sin
// rows as its caches it must rotate as posenc does (onnxruntime's RotaryEmbedding contrib
// kernel, onnxruntime/contrib_ops/cpu/bert/rotary_embedding.cc: out = x·cos ∓ y·sin per pair,
// pairs (i, i + d/2) or (2i, 2i + 1) with `interleaved`, token s at position_ids[0] + s).
// Runs only where the peers are installed (scripts/bootstrap.sh peers); skipped otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rotaryModel } from '../../bench/peers/onnx-graph.mjs';
import { createPosenc } from '../../wasm/dist/inline.js';

const ortEntry = new URL('../../bench/peers/node_modules/onnxruntime-web/dist/ort.node.min.mjs', import.meta.url);
const installed = existsSync(ortEntry);

test('onnxruntime-web runs the bench graph and agrees with posenc, both layouts',
  { skip: !installed && 'onnxruntime-web is not installed in bench/peers (scripts/bootstrap.sh peers)' }, async () => {
    const ort = await import(ortEntry.href);
    ort.env.wasm.numThreads = 1;
    const pe = await createPosenc();
    const tokens = 3, heads = 2, dim = 8, start = 5, rows = start + tokens;
    const table = pe.rope({ headDim: dim, cacheLength: rows }).cosSin({ start: 0, tokens: rows });
    const pick = (t) => Float32Array.from({ length: rows * dim / 2 }, (_, i) => t[Math.floor(i / (dim / 2)) * dim + i % (dim / 2)]);
    const x = Float32Array.from({ length: tokens * heads * dim }, (_, i) => Math.sin(i + 1));
    for (const layout of ['half', 'interleaved']) {
      const model = rotaryModel({ tokens, heads, headDim: dim, interleaved: layout === 'interleaved', cos: pick(table.cos), sin: pick(table.sin) });
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      const { output } = await session.run({ input: new ort.Tensor('float32', x, [1, tokens, heads * dim]),
        position_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(start)), [1]) });
      const ours = new Float32Array(x.length);
      pe.rope({ headDim: dim, cacheLength: rows, layout }).apply(x, { tokens, heads, start, out: ours });
      assert.deepEqual(output.dims, [1, tokens, heads * dim]);
      for (let i = 0; i < x.length; i++) assert.ok(Math.abs(output.data[i] - ours[i]) <= 1e-6, `${layout} [${i}]: ${output.data[i]} vs ${ours[i]}`);
      await session.release();
    }
  });

test('the graph builder refuses cos/sin tables of the wrong shape', () => {
  assert.throws(() => rotaryModel({ tokens: 1, heads: 1, headDim: 8, interleaved: false, cos: new Float32Array(6), sin: new Float32Array(6) }),
    /cos and sin must both be \[rows\]\[4\]/);
});
