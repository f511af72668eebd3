// Resources: too-large requests fail cleanly, memory growth keeps tensors usable, no leaks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createPosenc } from '../../wasm/index.js';
import { assertThrows } from './support.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const pe = await createPosenc();

test('requests too large for WebAssembly memory raise RangeError and the next call works', () => {
  const checks = [
    // JS-side allocation (malloc returns 0 instead of aborting)
    () => pe.tensor(6e8),
    () => pe.tensor(2 ** 40),
    // C++-side allocation (std::bad_alloc / length_error caught by the binding)
    () => pe.sinusoidal({ dim: 8192, positions: 80000 }),
    () => pe.sinusoidal({ dim: 8, positions: 2 ** 40 }),
    () => pe.rope({ headDim: 65536, cacheLength: 2 ** 31 - 1 }), // over the cache cap or memory
    () => pe.sinusoidal({ dim: 65536, positions: 40000 }),
  ];
  for (const f of checks) {
    assertThrows(f, RangeError, /memory|exceeds|overflow|must be <=/);
    assert.throws(f, (e) => ['bad_alloc', 'length_error'].includes(e.kind), 'error kind');
    assert.deepEqual(Array.from(pe.sinusoidal({ dim: 2, positions: [0] })), [0, 1], 'module still works');
  }
  const stats = pe.memoryStats();
  assert.ok(stats.memoryBytes < 2 ** 31, `memory stayed below the maximum: ${stats.memoryBytes}`);
});

test('a tensor survives memory growth: its view is re-made, contents and zero-copy calls intact', () => {
  const t = pe.tensor(Float32Array.from({ length: 1024 }, (_, i) => i));
  const before = t.array;
  const memory = pe.memoryStats().memoryBytes;
  const big = pe.tensor(memory / 4 + (1 << 20)); // forces growth
  assert.ok(pe.memoryStats().memoryBytes > memory, 'memory grew');
  assert.equal(before.length, 0, 'old views detach on growth (documented: re-read .array)');
  assert.equal(t.array.length, 1024);
  assert.equal(t.array[1023], 1023);
  const rope = pe.rope({ headDim: 8 });
  rope.apply(t, { tokens: 128, heads: 1, start: 0 });
  rope.invert(t, { tokens: 128, heads: 1, start: 0 });
  assert.ok(Math.abs(t.array[1023] - 1023) < 1e-3);
  big.dispose();
  t.dispose();
  rope.dispose();
});

// One round of mixed calls touching every allocation path (scratch, temporary blocks,
// C++ vectors, rope caches, tensors, error values with caught C++ exceptions).
const q = new Float32Array(3 * 16).fill(0.5);
const k = new Float32Array(4 * 16).fill(-0.25);
const weights = pe.attentionWeights({ modelDim: 8, seed: 1 });
const tokens = pe.fillUniform(new Float32Array(4 * 8), { seed: 2 });

function mixedRound(i, x, big) {
  switch (i % 15) {
    case 0: pe.inverseFrequencies({ dim: 64, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } }); break;
    case 1: pe.sinusoidal({ dim: 32, positions: 16, start: i }); break;
    case 2: pe.sinusoidal({ dim: 16, positions: [i, 3, -i] }); break;
    case 3: { const r = pe.rope({ headDim: 16, cacheLength: 32 }); r.apply(x, { tokens: 4, heads: 2, positions: [1, 2, 3, i] }); r.dispose(); break; }
    case 4: { const t = pe.tensor(x); t.dispose(); break; }
    case 5: try { pe.sinusoidal({ dim: 7, positions: 3 }); } catch { /* expected */ } break;
    case 6: try { pe.rope({ headDim: 8, scaling: { type: 'linear' } }); } catch { /* expected */ } break;
    case 7: pe.fillUniform(x, { seed: i }); break;
    case 8: pe.permutation({ n: 50, seed: i }); break;
    case 9: pe.shiftMatrix({ dim: 16, k: i }); pe.peNorms({ dim: 8, count: 20 }); break;
    case 10: try { pe.tensor(1e9); } catch { /* expected */ } break;
    case 11: if (i % 1500 === 11) pe.sinusoidal({ dim: 64, positions: 5000 }); // > scratch: temporary block
      else pe.wavelengths({ dim: 8 }); break;
    case 12: pe.scores({ q, k, dim: 16, mode: ['none', 'additive', 'rotary'][i % 3] }); break;
    case 13: pe.selfAttention({ x: tokens, weights, modelDim: 8, heads: 2, mode: 'rotary', causal: true }); break;
    case 14: try { pe.scores({ q, k, dim: 16, mode: 'alibi' }); } catch { /* expected */ } break;
  }
  if (i % 100 === 0) pe.fillUniform(big, { seed: i }); // copying path beyond the scratch size
}

test('100 000 mixed calls leave memory size and allocator in-use bytes unchanged', () => {
  const x = new Float32Array(128);
  const big = new Float32Array(400000);
  for (let i = 0; i < 3000; i++) mixedRound(i, x, big); // warm-up: scratch at its size
  const before = pe.memoryStats();
  for (let i = 0; i < 100000; i++) mixedRound(i, x, big);
  const after = pe.memoryStats();
  assert.deepEqual(after, before);
});

test('forgotten tensors and ropes are freed by the FinalizationRegistry', async () => {
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await settle();
  const before = pe.memoryStats().heapInUse;
  (() => {
    for (let i = 0; i < 50; i++) {
      pe.tensor(10000);
      pe.rope({ headDim: 64, cacheLength: 1000 });
    }
  })();
  assert.ok(pe.memoryStats().heapInUse > before + 50 * 40000, 'allocated');
  await settle();
  assert.equal(pe.memoryStats().heapInUse, before);
});
