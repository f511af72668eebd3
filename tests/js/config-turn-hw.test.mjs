// Two conventions a config now names, on both binaries: nanochat's opposite turn (pe.rope's
// `direction: 'inverse'`) and ERNIE 4.5 VL's M-RoPE 'hw' (`mrope.interleaved: 'hw'`), each
// rotation checked against its model's code evaluated here in float64:
//  - nanochat (models/nanochat): NanoChatRotaryEmbedding's cos/sin of cat(freqs, freqs) and
//    apply_rotary_pos_emb's q·cos + rotate_half(q)·sin with rotate_half = cat((x2, -x1));
//  - ERNIE 4.5 VL (models/ernie4_5_vl_moe): Ernie4_5_VLMoeTextRotaryEmbedding's inv_freq_3d
//    and recomposition_to_3d, then q·cos + rotate_half_text(q)·sin (adjacent pairs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Random, assertClose, assertThrows, loadBoth, randomFloats, repoRoot } from './support.mjs';

const both = await loadBoth();
const load = (name) => JSON.parse(readFileSync(`${repoRoot}tests/fixtures/hf-configs/${name}.json`, 'utf8'));
const hfDefault = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));
const POSITIONS = [0, 1, 7, 4095, 65536, 131071];

// nanochat: out[i] = a·cos + b·sin, out[i + d/2] = b·cos − a·sin (a = x[i], b = x[i + d/2]).
function nanochat(x, d, theta, positions) {
  const out = new Float64Array(x.length);
  positions.forEach((p, t) => {
    for (let i = 0; i < d / 2; i++) {
      const a = x[t * d + i];
      const b = x[t * d + i + d / 2];
      const c = Math.cos(p * theta[i]);
      const s = Math.sin(p * theta[i]);
      out[t * d + i] = a * c + b * s;
      out[t * d + i + d / 2] = b * c - a * s;
    }
  });
  return out;
}

// Ernie4_5_VLMoeTextRotaryEmbedding: the angle of each dim of a token at (t, h, w) with HF's
// mrope_section [h, w, t]: inv_freq_3d = even rungs then odd rungs of the first h + w, then
// the rest; chunk 0 (h rungs) on axis 1, chunk 1 (w) on axis 2, chunk 2 on axis 0; h and w
// stacked, then repeat_interleave(2).
function ernieAngles(d, base, [sh, sw, st], [t, h, w]) {
  const inv = hfDefault(d, base);
  const hw = sh + sw;
  const inv3 = [...inv.slice(0, hw).filter((_, i) => i % 2 === 0), ...inv.slice(0, hw).filter((_, i) => i % 2 === 1),
    ...inv.slice(hw)];
  assert.equal(inv3.length, sh + sw + st);
  const row = [];
  for (let k = 0; k < sh; k++) row.push(h * inv3[k], w * inv3[sh + k]);
  for (let j = hw; j < d / 2; j++) row.push(t * inv3[j]);
  return row.flatMap((a) => [a, a]);
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: nanochat's config turns each pair by −p·θ, as its rotate_half = cat((x2, -x1))`, () => {
    const rope = pe.ropeFromConfig(load('nanochat.class-defaults.reconstructed'));
    const d = 128;
    assert.deepEqual([rope.headDim, rope.layout, rope.direction, rope.base], [d, 'half', 'inverse', 10000]);
    const x = randomFloats(new Random(3), POSITIONS.length * d);
    const want = nanochat(x, d, hfDefault(d, 10000), POSITIONS);
    assertClose(rope.apply(x.slice(), { positions: POSITIONS }), want, 2e-6, 'nanochat apply');
    // Forward (Llama's turn) is another rotation; invert undoes nanochat's.
    const llama = pe.ropeFromConfig(load('nanochat.class-defaults.reconstructed'), { family: 'llama' });
    assert.equal(llama.direction, 'forward');
    assert.ok(Math.max(...llama.apply(x.slice(), { positions: POSITIONS }).map((v, i) => Math.abs(v - want[i]))) > 0.1);
    assertClose(rope.invert(rope.apply(x.slice(), { positions: POSITIONS }), { positions: POSITIONS }), x, 1e-6, 'invert');
    // Its cos/sin are its rotary embedding's: cos/sin(p·θ), sin positive at p = 1.
    assert.ok(Math.abs(rope.cosSin({ positions: [1] }).sin[0] - Math.sin(1)) < 1e-7);
    // Keys at 5 shifted by 95 are keys at 100, in nanochat's sense.
    const k = rope.apply(x.slice(0, d), { positions: [5] });
    assertClose(rope.shift(k, { tokens: 1, delta: 95 }), nanochat(x.slice(0, d), d, hfDefault(d, 10000), [100]), 2e-6, 'shift');
    const model = pe.modelFromConfig(load('nanochat.class-defaults.reconstructed'));
    assert.equal(model.encodings.e0.direction, 'inverse');
    model.dispose();
    for (const r of [rope, llama]) r.dispose();
  });

  test(`${name}: rope({ direction }) is checked like the other options`, () => {
    const inv = pe.rope({ headDim: 8, direction: 'inverse' });
    const fwd = pe.rope({ headDim: 8 });
    assert.equal(fwd.direction, 'forward');
    const x = randomFloats(new Random(5), 8);
    // −p·θ at p is +p·θ at −p.
    assertClose(inv.apply(x.slice(), { positions: [9] }), fwd.apply(x.slice(), { positions: [-9] }), 1e-6, 'turn');
    assertThrows(() => pe.rope({ headDim: 8, direction: 'backward' }), RangeError, /direction must be 'forward' or 'inverse'/);
    assertThrows(() => pe.rope({ headDim: 8, direction: -1 }), TypeError, /direction/);
    for (const r of [inv, fwd]) r.dispose();
  });

  test(`${name}: ERNIE 4.5 VL: h the even, w the odd rungs of the first h + w, t the rest`, () => {
    const config = load('ernie-4.5-vl-28b-a3b.class-defaults.reconstructed');
    const rope = pe.ropeFromConfig(config);
    const d = 128;
    assert.deepEqual([rope.headDim, rope.layout, rope.base, rope.axes], [d, 'interleaved', 500000, 3]);
    assert.deepEqual({ ...rope.mrope, section: [...rope.mrope.section] }, { section: [20, 22, 22], interleaved: 'hw' });
    const x = randomFloats(new Random(7), 4 * d);
    // Text tokens (t = h = w): the plain ernie4_5 rotary, bit for bit.
    const plain = pe.ropeFromConfig({ ...config.text_config, model_type: 'ernie4_5' });
    const p = [0, 1, 4095, 131071];
    assert.deepEqual(rope.apply(x.slice(), { positions: [...p, ...p, ...p] }), plain.apply(x.slice(), { positions: p }));
    // 3-D positions: out[2k] = a cos − b sin, out[2k + 1] = b cos + a sin.
    const thw = [[7, 3, 5], [4095, 0, 131071], [0, 1000, 2], [131071, 64, 4095]];
    const want = new Float64Array(x.length);
    const cosWant = [];
    thw.forEach((pos, t) => {
      const ang = ernieAngles(d, 500000, [22, 22, 20], pos);
      cosWant.push(...ang.map(Math.cos));
      for (let k = 0; k < d / 2; k++) {
        const a = x[t * d + 2 * k];
        const b = x[t * d + 2 * k + 1];
        want[t * d + 2 * k] = a * Math.cos(ang[2 * k]) - b * Math.sin(ang[2 * k]);
        want[t * d + 2 * k + 1] = b * Math.cos(ang[2 * k + 1]) + a * Math.sin(ang[2 * k + 1]);
      }
    });
    const ids = [0, 1, 2].flatMap((a) => thw.map((pos) => pos[a]));
    assertClose(rope.apply(x.slice(), { positions: ids }), want, 2e-6, 'ERNIE 3-D apply');
    assertClose(rope.cosSin({ positions: ids }).cos, cosWant, 4e-7, 'ERNIE cos');
    // The same rotator from pe.rope's options.
    const direct = pe.rope({ headDim: d, base: 500000, layout: 'interleaved', mrope: { section: [20, 22, 22], interleaved: 'hw' } });
    assert.deepEqual(direct.apply(x.slice(), { positions: ids }), rope.apply(x.slice(), { positions: ids }));
    for (const r of [rope, plain, direct]) r.dispose();
  });

  test(`${name}: M-RoPE 'hw' options and ERNIE's mrope_section are checked, naming the key`, () => {
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [20, 22, 22], interleaved: 'wh' } }), RangeError,
      /mrope.interleaved must be true, false or 'hw'/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [20, 22, 22], interleaved: 1 } }), TypeError,
      /mrope.interleaved must be true, false or 'hw'/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [20, 20, 24], interleaved: 'hw' } }), RangeError,
      /mrope.section .* needs section\[1\] == section\[2\]/);
    const config = load('ernie-4.5-vl-28b-a3b.class-defaults.reconstructed');
    const withSection = (s) => ({ ...config,
      text_config: { ...config.text_config, rope_parameters: { rope_type: 'default', rope_theta: 500000, mrope_section: s } } });
    const r = pe.ropeFromConfig(withSection([16, 16, 32]));
    assert.deepEqual([...r.mrope.section], [32, 16, 16]);
    r.dispose();
    for (const bad of [[20, 24, 20], [32, 32, 0]]) {
      assertThrows(() => pe.ropeFromConfig(withSection(bad)), RangeError,
        /text_config.rope_parameters.mrope_section = \[.*\] is \(h, w, t\) for ERNIE 4.5 VL/);
    }
    const scaled = withSection([22, 22, 20]);
    scaled.text_config.rope_parameters = { ...scaled.text_config.rope_parameters, rope_type: 'linear', factor: 2 };
    assertThrows(() => pe.ropeFromConfig(scaled), RangeError, /text_config.rope_parameters.rope_type/);
  });
}
