// Errors that name their argument, both binaries: an array detached by a getter of a later
// option after it was checked, a Proxy whose ownKeys lists a key twice, dims named as the
// caller wrote them with their own range, and a caller's strings quoted short and escaped
// (never a 1 MiB message, a newline, an ANSI escape or a NUL from the caller).
import test from 'node:test';
import assert from 'node:assert/strict';
import { assertThrows, loadBoth, Random, randomFloats } from './support.mjs';

const detach = (a) => structuredClone(a.buffer, { transfer: [a.buffer] });

// An array of positions whose element `at` is a getter that runs `effect` first.
function positionsWith(n, at, effect) {
  const list = Array.from({ length: n }, (_, i) => i);
  Object.defineProperty(list, at, { get() { effect(); return at; }, enumerable: true });
  return list;
}

// No control character, bidirectional or separator character, and a bounded size.
function assertSafe(message, what) {
  assert.ok(message.length < 400, `${what}: a message of ${message.length} characters`);
  assert.doesNotMatch(message, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/, what);
}

for (const flavour of ['simd', 'scalar']) {
  test(`${flavour}: an array detached by a later getter, after it was checked, is named (nothing written)`, async () => {
    const pe = (await loadBoth())[flavour];
    const rng = new Random(4);
    const canary = pe.tensor(randomFloats(rng, 64));
    const canaryBits = canary.array.slice();
    {
      const q = randomFloats(rng, 4 * 8);
      const k = randomFloats(rng, 4 * 8);
      assertThrows(() => pe.scores({ q, k, dim: 8, kPositions: positionsWith(4, 2, () => detach(q)) }), TypeError,
        /posenc: q is a detached Float32Array/);
      const k2 = randomFloats(rng, 4 * 8);
      assertThrows(() => pe.scores({ q: randomFloats(rng, 32), k: k2, dim: 8, kPositions: positionsWith(4, 1, () => detach(k2)) }),
        TypeError, /posenc: k is a detached Float32Array/);
      const qp = new Int32Array([0, 1, 2, 3]);
      assertThrows(() => pe.scores({ q: randomFloats(rng, 32), k: randomFloats(rng, 32), dim: 8, qPositions: qp,
        kPositions: positionsWith(4, 3, () => detach(qp)) }), TypeError, /posenc: qPositions is a detached Int32Array/);
    }
    {
      const e = randomFloats(rng, 4 * 8);
      assertThrows(() => pe.addSinusoidal({ e, dim: 8, positions: positionsWith(4, 0, () => detach(e)) }), TypeError,
        /posenc: e is a detached Float32Array/);
    }
    {
      const w = pe.attentionWeights({ modelDim: 8, seed: 1 });
      const x = randomFloats(rng, 4 * 8);
      assertThrows(() => pe.selfAttention({ x, weights: w, modelDim: 8, positions: positionsWith(4, 1, () => detach(x)) }),
        TypeError, /posenc: x is a detached Float32Array/);
      const wq = w.wq.slice();
      const weights = { wq, wk: w.wk, wv: w.wv, get wo() { detach(wq); return w.wo; } };
      assertThrows(() => pe.selfAttention({ x: randomFloats(rng, 32), weights, modelDim: 8 }), TypeError,
        /posenc: weights\.wq is a detached Float32Array/);
    }
    assert.deepEqual(canary.array, canaryBits, 'canary unchanged');
    // Still working.
    assert.ok(Math.abs(pe.sinusoidal({ dim: 8, positions: [1] })[0] - 0.841471) < 1e-6);
    canary.dispose();
  });

  test(`${flavour}: a Proxy whose ownKeys lists a key twice is a TypeError naming the options`, async () => {
    const pe = (await loadBoth())[flavour];
    const twice = new Proxy({ dim: 8 }, { ownKeys: () => ['dim', 'dim'] });
    assertThrows(() => pe.sinusoidal(twice), TypeError, /the options of sinusoidal\(\) are a Proxy whose ownKeys trap fails/);
    const rope = pe.rope({ headDim: 8 });
    assertThrows(() => rope.apply(new Float32Array(8), new Proxy({ tokens: 1 }, { ownKeys: () => ['tokens', 'tokens'] })),
      TypeError, /rope\.apply\(\)/);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    assertThrows(() => pe.sinusoidal({ dim: 8, positions: proxy }), TypeError, /positions .*got a revoked Proxy/);
    rope.dispose();
  });

  test(`${flavour}: headDim errors name headDim and its range`, async () => {
    const pe = (await loadBoth())[flavour];
    for (const [headDim, type] of [[7, RangeError], [7.5, RangeError], [0, RangeError], [2 ** 40, RangeError],
      [NaN, RangeError], ['64', TypeError], [65538, RangeError]]) {
      assert.throws(() => pe.rope({ headDim }), (e) => {
        assert.ok(e instanceof type, `${headDim}: ${e?.constructor?.name}: ${e?.message}`);
        assert.match(e.message, /^posenc: headDim\b/, `${headDim}`);
        assert.match(e.message, /integer in \[2, 65536\]/, `${headDim}`);
        assert.doesNotMatch(e.message, /rotaryDim|2147483647/, `${headDim}`);
        return true;
      });
    }
    // rotaryDim given: its own range, named as the caller wrote it.
    assertThrows(() => pe.rope({ headDim: 64, rotaryDim: 7 }), RangeError, /^posenc: rotaryDim .*\[2, 64\]/);
    assertThrows(() => pe.rope({ headDim: 64, rotaryDim: 7.5 }), RangeError, /^posenc: rotaryDim must be an even integer in \[2, 65536\], got 7\.5/);
    assertThrows(() => pe.sinusoidal({ dim: 7.5, positions: 2 }), RangeError, /^posenc: dim must be an even integer in \[2, 65536\]/);
  });

  test(`${flavour}: a caller's strings are quoted short and escaped in every message`, async () => {
    const pe = (await loadBoth())[flavour];
    const long = 'x'.repeat(2 ** 20);
    const nasty = 'a\nb\u001b[31mred\u0000\u202e\u2028end';
    const cases = [
      ['an option value', () => pe.sinusoidal({ dim: 8, positions: 2, layout: long })],
      ['an option value with controls', () => pe.sinusoidal({ dim: 8, positions: 2, layout: nasty })],
      ['an option key', () => pe.sinusoidal({ dim: 8, positions: 2, [long]: 1 })],
      ['an option key with controls', () => pe.sinusoidal({ dim: 8, positions: 2, [nasty]: 1 })],
      ['a dtype', () => pe.rope({ headDim: 8 }).apply(new Uint16Array(8), { tokens: 1, dtype: nasty })],
      ['a scaling type', () => pe.rope({ headDim: 8, scaling: { type: long } })],
      ['a config value', () => pe.ropeFromConfig({ model_type: 'llama', head_dim: 64, rope_theta: long, num_attention_heads: 1, hidden_size: 64 })],
      ['a config key', () => pe.ropeFromConfig({ model_type: 'llama', head_dim: 64, rope_scaling: { [nasty]: 1, rope_type: 'linear', factor: 2 },
        num_attention_heads: 1, hidden_size: 64 })],
      ['a config rope_type', () => pe.ropeFromConfig({ model_type: 'llama', head_dim: 64, rope_scaling: { rope_type: long + nasty },
        num_attention_heads: 1, hidden_size: 64 })],
      ['mropePositions model', () => pe.mropePositions({ model: nasty, items: [] })],
    ];
    for (const [what, call] of cases) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof TypeError || e instanceof RangeError, `${what}: ${e?.constructor?.name}: ${e?.message}`);
        assertSafe(e.message, what);
        return true;
      });
    }
    // What a message shows: the escaped excerpt and the length.
    assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2, layout: nasty }), RangeError,
      /got the string 'a\\nb\\u001b\[31mred\\u0000\\u202e\\u2028end'/);
    assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2, layout: long }), RangeError, /'x{40}…' \(1048576 characters\)/);
  });
}
