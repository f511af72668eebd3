// Hostile but legal JavaScript against the package, on both binaries: objects whose
// properties are shadowed, typed arrays that lie about themselves, getters that dispose
// handles or re-enter the package, Proxies, a polluted Object.prototype, ranges that would
// give non-finite numbers, overlapping and WebAssembly-viewing arguments, int64 positions.
// Every case is a row of CASES (class, what, the hostile call, and either the error it must
// raise — type and the argument its message names — or a check of its correct result).
// After every case: a canary tensor filled with a pattern before the call is byte-identical,
// a call that failed left its arguments unchanged, and a correct call returns the right
// numbers (against the float64 reference). Prints the number of cases per class.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPosenc } from '../../wasm/index.js';
import * as ref from './reference.mjs';
import { assertClose, loadBoth } from './support.mjs';

const both = await loadBoth();
const HEAD = 8;
const TOKENS = 2;
const HEADS = 2;
const N = TOKENS * HEADS * HEAD;
const ramp = (n, phase = 0) => Float32Array.from({ length: n }, (_, i) => Math.sin(1 + phase + i * 0.7) * (1 + i * 0.01));
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);

// The reference rotation of `input` (Float32Array) with the env's rotator (headDim 8).
function expected(input, opts) {
  return ref.ropeApply(input, { headDim: HEAD, tokens: TOKENS, heads: HEADS, ...opts });
}

function assertRotated(actual, input, opts, what = 'result') {
  assertClose(Array.from(actual), Array.from(expected(input, opts)), 2e-6, what);
}

/** A fresh environment: a rotator, a plain array, a tensor and a canary tensor. */
function makeEnv(pe) {
  const canary = pe.tensor(4096);
  const c = canary.array;
  for (let i = 0; i < c.length; i++) c[i] = (i % 251) * 0.25 - 17;
  const t = pe.tensor(ramp(N, 3));
  return { pe, rope: pe.rope({ headDim: HEAD, cacheLength: 64 }), x: ramp(N), t, canary, cleanup: [] };
}

// A getter-counting options object: each key's getter counts its calls in `counts`.
function counted(values, counts) {
  const o = {};
  for (const [k, v] of Object.entries(values)) {
    counts[k] = 0;
    Object.defineProperty(o, k, { enumerable: true, get() { counts[k]++; return v; } });
  }
  return o;
}

// Temporarily defines `key` on `target` (restored by the env's cleanup).
function patch(env, target, key, descriptor) {
  const old = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { configurable: true, ...descriptor });
  env.cleanup.push(() => (old ? Object.defineProperty(target, key, old) : delete target[key]));
}

const START = { tokens: TOKENS, heads: HEADS, start: 5 };

// One result of each kind of binding (rotator facts, rows, ladders, tables, scores,
// attention), as plain numbers: compared between a hostile setting and a clean one.
function everyResult(pe) {
  const r = pe.rope({ headDim: HEAD, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 } });
  const row = r.row(7);
  const f = pe.inverseFrequencies({ dim: 8, scaling: { type: 'linear', factor: 2 } });
  const w = pe.attentionWeights({ modelDim: 4, seed: 3 });
  const out = [r.rotaryDim, r.attentionFactor, r.invFreq, row.cos, row.sin, f.invFreq, f.attentionFactor,
    pe.sinusoidal({ dim: 8, positions: [1, 2] }), pe.sinusoidal({ dim: 8, positions: 3 }),
    pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8, mode: 'additive' }).terms.positionKey,
    w.wo, pe.selfAttention({ x: ramp(8), weights: w, modelDim: 4 }).weights, pe.peMinDistance({ dim: 8, count: 5 }).q,
    pe.permutation({ n: 5, seed: 1 }), pe.fillUniform(new Float32Array(3), { seed: 2 })];
  r.dispose();
  return out.map((v) => (typeof v === 'number' ? v : Array.from(v)));
}
const fails = (type, ...names) => ({ type, names });

// ---- the cases ----------------------------------------------------------------------------
// run(env) makes the hostile call; `error` is what it must throw; otherwise `ok(env, r)`
// checks the result. `keep` lists env arrays (x, t) a failed call must leave unchanged.

const CASES = [
  // 1. Trusting overridable properties of our own objects.
  { cls: 1, what: 'tensor with an own length larger than it is', error: fails(RangeError, 'x'),
    run: (e) => { Object.defineProperty(e.t, 'length', { value: 1 << 20 }); e.rope.apply(e.t, { tokens: 64, heads: HEADS }); } },
  { cls: 1, what: 'tensor with an own length smaller than it is',
    run: (e) => { const input = e.t.array.slice(); Object.defineProperty(e.t, 'length', { value: 1 }); e.rope.apply(e.t, START); return input; },
    ok: (e, input) => assertRotated(e.t.array, input, START) },
  { cls: 1, what: 'tensor with an own ptr aimed at the canary',
    run: (e) => { const input = e.t.array.slice(); Object.defineProperty(e.t, 'ptr', { value: 8 }); e.rope.apply(e.t, START); return input; },
    ok: (e, input) => assertRotated(e.t.array, input, START) },
  { cls: 1, what: 'object made with Object.create(Tensor.prototype)', error: fails(TypeError, 'x'),
    run: (e) => e.rope.apply(Object.create(Object.getPrototypeOf(e.t)), START) },
  { cls: 1, what: 'Tensor.prototype.length patched', error: fails(RangeError, 'x'),
    run: (e) => { patch(e, Object.getPrototypeOf(e.t), 'length', { get: () => 1 << 20 }); e.rope.apply(e.t, { tokens: 64, heads: HEADS }); } },
  { cls: 1, what: 'disposed tensor with own disposed: false and ownedBy/assertLive shadowed', error: fails(TypeError, 'x'),
    run: (e) => {
      const d = e.pe.tensor(N);
      d.dispose();
      Object.defineProperties(d, { disposed: { value: false }, ownedBy: { value: () => true }, assertLive: { value: () => {} } });
      e.rope.apply(d, START);
    } },
  { cls: 1, what: 'a Proxy around a tensor', error: fails(TypeError, 'x'), run: (e) => e.rope.apply(new Proxy(e.t, {}), START) },
  { cls: 1, what: 'tensor as out with an own length larger than it is', error: fails(RangeError, 'out'),
    run: (e) => { const o = e.pe.tensor(4); Object.defineProperty(o, 'length', { value: N }); e.rope.apply(e.x, { ...START, out: o }); } },
  { cls: 1, what: 'sinusoidal out tensor with an own length', error: fails(RangeError, 'out'),
    run: (e) => { const o = e.pe.tensor(8); Object.defineProperty(o, 'length', { value: 32 }); e.pe.sinusoidal({ dim: 8, positions: 4, out: o }); } },
  { cls: 1, what: 'tensor whose array getter is shadowed by another array',
    run: (e) => { const input = e.t.array.slice(); Object.defineProperty(e.t, 'array', { value: new Float32Array(N) }); e.rope.apply(e.t, START); return input; },
    ok: (e, input) => assertRotated(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(e.t), 'array').get.call(e.t), input, START) },
  { cls: 1, what: 'rope.apply called on a non-rope', error: fails(TypeError, 'rope'),
    run: (e) => e.rope.apply.call({ headDim: HEAD }, e.x, START) },
  { cls: 1, what: 'rope.apply called on Object.create(rope)', error: fails(TypeError, 'rope'),
    run: (e) => e.rope.apply.call(Object.create(e.rope), e.x, START) },
  { cls: 1, what: 'fillUniform into a fake tensor', error: fails(TypeError, 'out'),
    run: (e) => e.pe.fillUniform({ length: 16, ptr: 8, array: new Float32Array(16) }, { seed: 1 }) },
  { cls: 1, what: 'shift of a tensor with an own length', error: fails(RangeError, 'k'),
    run: (e) => { Object.defineProperty(e.t, 'length', { value: 1 << 20 }); e.rope.shift(e.t, { tokens: 64, heads: HEADS, delta: 1 }); } },

  // 2. Trusting overridable properties of typed arrays.
  { cls: 2, what: 'Float32Array with an own length larger than it is', error: fails(RangeError, 'x'),
    run: (e) => { Object.defineProperty(e.x, 'length', { value: 1 << 20 }); e.rope.apply(e.x, { tokens: 64, heads: HEADS }); } },
  { cls: 2, what: 'Float32Array with an own length smaller than it is',
    run: (e) => { const input = e.x.slice(); Object.defineProperty(e.x, 'length', { value: 2 }); e.rope.apply(e.x, START); return input; },
    ok: (e, input) => assertRotated(e.x, input, START) },
  { cls: 2, what: 'Float32Array with own byteLength / byteOffset',
    run: (e) => { const input = e.x.slice(); Object.defineProperties(e.x, { byteLength: { value: 1 << 22 }, byteOffset: { value: 64 } }); e.rope.apply(e.x, START); return input; },
    ok: (e, input) => assertRotated(e.x, input, START) },
  { cls: 2, what: 'Float32Array with an own buffer: the WebAssembly memory',
    run: (e) => { const input = e.x.slice(); Object.defineProperty(e.x, 'buffer', { value: e.canary.array.buffer }); e.rope.apply(e.x, START); return input; },
    ok: (e, input) => assertRotated(e.x, input, START) },
  { cls: 2, what: 'Float32Array with an own constructor: Float64Array',
    run: (e) => { const input = e.x.slice(); Object.defineProperty(e.x, 'constructor', { value: Float64Array }); e.rope.apply(e.x, { ...START, tokens: 1, heads: 1 }); e.rope.apply(e.x, START); return input; },
    ok: (e, input) => {
      const once = expected(input, { ...START, tokens: 1, heads: 1 });
      assertClose(Array.from(e.x), Array.from(expected(Float32Array.from(once), START)), 4e-6);
    } },
  { cls: 2, what: 'Float32Array subclass with length / buffer getters',
    run: (e) => {
      class Sneaky extends Float32Array { get length() { return 1 << 20; } get buffer() { return new ArrayBuffer(8); } }
      const s = new Sneaky(e.x);
      e.rope.apply(s, START);
      return s;
    },
    ok: (e, s) => assertRotated(Float32Array.from(s), e.x, START) },
  { cls: 2, what: 'a Float64Array', error: fails(TypeError, 'x'), run: (e) => e.rope.apply(new Float64Array(N), START) },
  { cls: 2, what: 'a Float64Array with Float32Array.prototype and an own toStringTag', error: fails(TypeError, 'x'),
    run: (e) => {
      const f = Object.setPrototypeOf(new Float64Array(N), Float32Array.prototype);
      Object.defineProperty(f, Symbol.toStringTag, { value: 'Float32Array' });
      e.rope.apply(f, START);
    } },
  { cls: 2, what: 'a Proxy around a Float32Array', error: fails(TypeError, 'x'), run: (e) => e.rope.apply(new Proxy(e.x, {}), START) },
  { cls: 2, what: 'an object shaped like a Float32Array', error: fails(TypeError, 'x'),
    run: (e) => e.rope.apply({ length: N, byteLength: 4 * N, buffer: new ArrayBuffer(4 * N), byteOffset: 0 }, START) },
  { cls: 2, what: 'pe.tensor(data) of a disguised Float64Array', error: fails(TypeError, 'data'),
    run: (e) => e.pe.tensor(Object.setPrototypeOf(new Float64Array(8), Float32Array.prototype)) },
  { cls: 2, what: 'pe.tensor(data) with an own length copies all of data',
    run: (e) => { const d = ramp(16); Object.defineProperty(d, 'length', { value: 1 }); return [d, e.pe.tensor(d)]; },
    ok: (e, [d, t]) => assert.deepEqual(Array.from(t.array), Array.from(Float32Array.prototype.slice.call(d))) },
  { cls: 2, what: 'pe.tensor(n) is zeroed after a freed tensor held floats',
    run: (e) => { const a = e.pe.tensor(ramp(64)); a.dispose(); return e.pe.tensor(64); },
    ok: (e, t) => assert.ok(t.array.every((v) => v === 0), 'zeroed') },
  { cls: 2, what: 'Int32Array positions with an own length',
    run: (e) => { const input = e.x.slice(); const p = new Int32Array([3, 9]); Object.defineProperty(p, 'length', { value: 7 }); e.rope.apply(e.x, { heads: HEADS, positions: p }); return input; },
    ok: (e, input) => assertRotated(e.x, input, { positions: [3, 9] }) },
  { cls: 2, what: 'shortFactor Float64Array with an own length',
    run: (e) => {
      const f = new Float64Array([1, 1.5, 2, 3]);
      Object.defineProperty(f, 'length', { value: 1 << 30 });
      return e.pe.inverseFrequencies({ dim: 8, scaling: { type: 'longrope', factor: 2, originalMaxPositionEmbeddings: 4096, shortFactor: f, longFactor: [1, 1, 1, 1] } });
    },
    ok: (e, r) => assertClose(Array.from(r.invFreq), [1, 0.1 / 1.5, 0.01 / 2, 0.001 / 3], 1e-15) },
  { cls: 2, what: '%TypedArray%.prototype length / byteOffset getters patched after load',
    run: (e) => {
      const input = e.x.slice();
      patch(e, TypedArrayPrototype, 'length', { get: () => 1 << 20 });
      patch(e, TypedArrayPrototype, 'byteOffset', { get: () => 8 });
      patch(e, TypedArrayPrototype, 'buffer', { get: () => new ArrayBuffer(64) });
      e.rope.apply(e.x, START);
      const made = everyResult(e.pe);
      return [input, made];
    },
    ok: (e, [input, made]) => { assertRotated(e.x, input, START); assert.deepEqual(made, everyResult(e.pe)); } },
  { cls: 2, what: '%TypedArray%.prototype.set and Float32Array species patched after load',
    run: (e) => {
      const input = e.x.slice();
      patch(e, TypedArrayPrototype, 'set', { value() { throw new Error('patched set called'); } });
      patch(e, Float32Array.prototype, 'constructor', { value: Float64Array });
      e.rope.apply(e.x, START);
      e.rope.apply(e.t, { ...START, positions: undefined });
      return input;
    },
    ok: (e, input) => { e.cleanup.splice(0).reverse().forEach((f) => f()); assertRotated(e.x, input, START); } },
  { cls: 2, what: 'scores q / k with own lengths',
    run: (e) => {
      const q = ramp(16); const k = ramp(16, 1);
      Object.defineProperty(q, 'length', { value: 4 }); Object.defineProperty(k, 'length', { value: 1 << 20 });
      return [e.pe.scores({ q, k, dim: 8 }).scores, e.pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8 }).scores];
    },
    ok: (e, [a, b]) => assert.deepEqual(Array.from(a), Array.from(b)) },
  { cls: 2, what: 'a detached Float32Array', error: fails(TypeError, 'x'),
    run: (e) => { const d = new Float32Array(N); structuredClone(d.buffer, { transfer: [d.buffer] }); e.rope.apply(d, START); } },

  // 3. Options read after the handle is taken: getters that dispose handles.
  { cls: 3, what: 'apply: get inverse() disposes the rope', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { ...START, get inverse() { e.rope.dispose(); return false; } }) },
  { cls: 3, what: 'apply on a tensor: get start() disposes the rope', error: fails(TypeError, 'rope'), keep: ['t'],
    run: (e) => e.rope.apply(e.t, { tokens: TOKENS, heads: HEADS, get start() { e.rope.dispose(); return 5; } }) },
  { cls: 3, what: 'invert: a non-enumerable getter disposes the rope', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => { const o = { ...START }; Object.defineProperty(o, 'heads', { get() { e.rope.dispose(); return HEADS; } }); e.rope.invert(e.x, o); } },
  { cls: 3, what: 'applyQK: get positions() disposes the rope', error: fails(TypeError, 'rope'), keep: ['x', 't'],
    run: (e) => e.rope.applyQK(e.x, e.t, { get positions() { e.rope.dispose(); return [1, 2]; }, qHeads: HEADS, kHeads: HEADS }) },
  { cls: 3, what: 'shift: get delta() disposes the rope', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => e.rope.shift(e.x, { tokens: TOKENS, heads: HEADS, get delta() { e.rope.dispose(); return 3; } }) },
  { cls: 3, what: 'apply: get tokens() disposes x', error: fails(TypeError, 'x'),
    run: (e) => e.rope.apply(e.t, { heads: HEADS, start: 1, get tokens() { e.t.dispose(); return TOKENS; } }) },
  { cls: 3, what: 'apply: get out() disposes the out tensor it returns', error: fails(TypeError, 'out'), keep: ['x'],
    run: (e) => { const o = e.pe.tensor(N); e.rope.apply(e.x, { ...START, get out() { o.dispose(); return o; } }); } },
  { cls: 3, what: 'apply: get heads() disposes out', error: fails(TypeError, 'out'), keep: ['x'],
    run: (e) => { const o = e.pe.tensor(N); e.rope.apply(e.x, { tokens: TOKENS, start: 1, out: o, get heads() { o.dispose(); return HEADS; } }); } },
  { cls: 3, what: 'applyQK: get kHeads() disposes k', error: fails(TypeError, 'k'), keep: ['x'],
    run: (e) => e.rope.applyQK(e.x, e.t, { tokens: TOKENS, qHeads: HEADS, get kHeads() { e.t.dispose(); return HEADS; } }) },
  { cls: 3, what: 'applyQK: get tokens() disposes q', error: fails(TypeError, 'q'), keep: ['x'],
    run: (e) => e.rope.applyQK(e.t, e.x, { qHeads: HEADS, kHeads: HEADS, get tokens() { e.t.dispose(); return TOKENS; } }) },
  { cls: 3, what: 'sinusoidal: get dim() disposes out', error: fails(TypeError, 'out'),
    run: (e) => { const o = e.pe.tensor(32); e.pe.sinusoidal({ positions: 4, out: o, get dim() { o.dispose(); return 8; } }); } },
  { cls: 3, what: 'fillUniform: get seed() disposes out', error: fails(TypeError, 'out'),
    run: (e) => { const o = e.pe.tensor(32); e.pe.fillUniform(o, { get seed() { o.dispose(); return 1; } }); } },
  { cls: 3, what: 'a Proxy whose getOwnPropertyDescriptor trap disposes the rope', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, new Proxy({ ...START }, {
      getOwnPropertyDescriptor(target, key) { e.rope.dispose(); return Reflect.getOwnPropertyDescriptor(target, key); },
    })) },
  { cls: 3, what: 'a positions element getter disposes the rope', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => { const p = [1]; Object.defineProperty(p, 1, { get() { e.rope.dispose(); return 2; } }); e.rope.apply(e.x, { heads: HEADS, positions: p }); } },
  { cls: 3, what: 'scaling getter disposes a tensor used by nothing: rope() still works',
    run: (e) => e.pe.rope({ headDim: HEAD, scaling: { type: 'linear', get factor() { e.t.dispose(); return 2; } } }),
    ok: (e, r) => assert.equal(r.invFreq[1], 0.1 / 2) },

  // 4. Options read twice; re-entrant calls.
  { cls: 4, what: 'apply reads each getter exactly once',
    run: (e) => { const counts = {}; const input = e.x.slice(); e.rope.apply(e.x, counted({ ...START, inverse: false }, counts)); return [counts, input]; },
    ok: (e, [counts, input]) => { assert.deepEqual(Object.values(counts), [1, 1, 1, 1]); assertRotated(e.x, input, START); } },
  { cls: 4, what: 'invert reads each getter exactly once',
    run: (e) => { const counts = {}; const input = e.x.slice(); e.rope.invert(e.x, counted(START, counts)); return [counts, input]; },
    ok: (e, [counts, input]) => { assert.deepEqual(Object.values(counts), [1, 1, 1]); assertRotated(e.x, input, { ...START, inverse: true }); } },
  { cls: 4, what: 'applyQK / shift read each getter exactly once',
    run: (e) => {
      const c1 = {}; const c2 = {};
      e.rope.applyQK(e.x, e.t, counted({ tokens: TOKENS, start: 1, qHeads: HEADS, kHeads: HEADS }, c1));
      e.rope.shift(e.x, counted({ tokens: TOKENS, heads: HEADS, delta: 2 }, c2));
      return [c1, c2];
    },
    ok: (e, [c1, c2]) => assert.deepEqual([...Object.values(c1), ...Object.values(c2)], [1, 1, 1, 1, 1, 1, 1]) },
  { cls: 4, what: 'out getter read once: its second answer would be another tensor',
    run: (e) => {
      const a = e.pe.tensor(N); const b = e.pe.tensor(N);
      let n = 0;
      const r = e.rope.apply(e.x, { ...START, get out() { n++; return n === 1 ? a : b; } });
      return [r, a, b, n];
    },
    ok: (e, [r, a, b, n]) => { assert.equal(n, 1); assert.equal(r, a); assertRotated(a.array, e.x, START); assert.ok(b.array.every((v) => v === 0)); } },
  { cls: 4, what: 'rope(): a base getter with a new value per read — rope.base is the one used',
    run: (e) => { let n = 0; return e.pe.rope({ headDim: HEAD, get base() { n++; return n === 1 ? 500 : 10000; } }); },
    ok: (e, r) => { assert.equal(r.base, 500); assertClose(Array.from(r.invFreq), ref.inverseFrequencies({ dim: HEAD, base: 500 }).invFreq, 1e-15); } },
  { cls: 4, what: 'scaling getters read once each',
    run: (e) => { const counts = {}; e.pe.rope({ headDim: HEAD, scaling: counted({ type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 }, counts) }); return counts; },
    ok: (e, counts) => assert.deepEqual(Object.values(counts), [1, 1, 1]) },
  { cls: 4, what: 'a Proxy sees one ownKeys and one getOwnPropertyDescriptor per key, no get',
    run: (e) => {
      const traps = [];
      const input = e.x.slice();
      e.rope.apply(e.x, new Proxy({ ...START }, {
        ownKeys: (t) => { traps.push('ownKeys'); return Reflect.ownKeys(t); },
        getOwnPropertyDescriptor: (t, k) => { traps.push(`gopd ${String(k)}`); return Reflect.getOwnPropertyDescriptor(t, k); },
        get: (t, k) => { traps.push(`get ${String(k)}`); return Reflect.get(t, k); },
        has: (t, k) => { traps.push(`has ${String(k)}`); return Reflect.has(t, k); },
      }));
      return [traps, input];
    },
    ok: (e, [traps, input]) => { assert.deepEqual(traps, ['ownKeys', 'gopd tokens', 'gopd heads', 'gopd start']); assertRotated(e.x, input, START); } },
  { cls: 4, what: 're-entrant rope.apply from a getter, same rope and scratch size',
    run: (e) => {
      const y = ramp(N, 7); const yIn = y.slice(); const input = e.x.slice();
      e.rope.apply(e.x, { ...START, get inverse() { e.rope.apply(y, { ...START, start: 9 }); return false; } });
      return [y, yIn, input];
    },
    ok: (e, [y, yIn, input]) => { assertRotated(e.x, input, START); assertRotated(y, yIn, { ...START, start: 9 }); } },
  { cls: 4, what: 're-entrant applyQK from a positions element getter',
    run: (e) => {
      const q = ramp(N, 2); const k = ramp(N, 4); const q0 = q.slice(); const k0 = k.slice(); const input = e.x.slice();
      const p = [4];
      Object.defineProperty(p, 1, { enumerable: true, get() { e.rope.applyQK(q, k, { tokens: TOKENS, start: 2, qHeads: HEADS, kHeads: HEADS }); return 6; } });
      e.rope.apply(e.x, { heads: HEADS, positions: p });
      return [q, k, q0, k0, input];
    },
    ok: (e, [q, k, q0, k0, input]) => {
      assertRotated(e.x, input, { positions: [4, 6] });
      assertRotated(q, q0, { start: 2 }); assertRotated(k, k0, { start: 2 });
    } },
  { cls: 4, what: 're-entrant scores() from a scores option getter',
    run: (e) => {
      const q = ramp(16); const k = ramp(16, 1);
      let inner;
      const outer = e.pe.scores({ q, k, dim: 8, get mode() { inner = e.pe.scores({ q: k, k: q, dim: 8 }).scores; return 'rotary'; } }).scores;
      return [outer, inner, q, k];
    },
    ok: (e, [outer, inner, q, k]) => {
      assert.deepEqual(Array.from(outer), Array.from(e.pe.scores({ q, k, dim: 8 }).scores));
      assert.deepEqual(Array.from(inner), Array.from(e.pe.scores({ q: k, k: q, dim: 8 }).scores));
    } },
  { cls: 4, what: 're-entrant sinusoidal into the same out from a getter: the outer call wins',
    run: (e) => {
      const out = new Float32Array(32);
      e.pe.sinusoidal({ dim: 8, positions: 4, out, get start() { e.pe.sinusoidal({ dim: 8, positions: 4, start: 100, out }); return 7; } });
      return out;
    },
    ok: (e, out) => assertClose(Array.from(out), Array.from(ref.sinusoidal({ dim: 8, positions: 4, start: 7 })), 1e-6) },
  { cls: 4, what: 'an own getter that throws: its error comes out as is, nothing allocated or written',
    run: (e) => {
      const before = e.pe.memoryStats().heapInUse;
      const input = e.x.slice();
      const thrown = [];
      const boom = () => { throw new Error('from the getter'); };
      for (let i = 0; i < 20; i++) {
        for (const call of [
          () => e.pe.rope({ headDim: HEAD, scaling: { type: 'linear', get factor() { return boom(); } } }),
          () => e.rope.apply(e.x, { ...START, get inverse() { return boom(); } }),
          () => e.pe.scores({ q: ramp(8), k: ramp(8), dim: 8, get mode() { return boom(); } }),
        ]) {
          try { call(); } catch (err) { thrown.push(err.message); }
        }
      }
      return [before, input, thrown];
    },
    ok: (e, [before, input, thrown]) => {
      assert.equal(e.pe.memoryStats().heapInUse, before);
      assert.deepEqual(e.x, input);
      assert.deepEqual(new Set(thrown), new Set(['from the getter']));
      assert.equal(thrown.length, 60);
    } },
  { cls: 4, what: 'a getter that disposes and re-creates the rope it is called through', error: fails(TypeError, 'rope'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { ...START, get heads() { e.rope.dispose(); e.pe.rope({ headDim: HEAD }).dispose(); return HEADS; } }) },

  // 5. Prototype pollution.
  ...[
    ['inverse', true], ['out', null], ['positions', [1, 2]], ['tokenStride', 3], ['headStride', 1],
    ['factor', 1e6], ['handle', 8], ['posencError', 'internal'], ['type', 'linear'], ['scaling', { type: 'linear', factor: 9 }],
    ['length', 1 << 30], ['0', 42], ['start', 99],
  ].map(([key, value]) => ({
    cls: 5, what: `Object.prototype.${key} = ${typeof value === 'object' ? JSON.stringify(value) : value} is ignored`,
    run: (e) => {
      const v = key === 'out' ? e.pe.tensor(N) : value;
      patch(e, Object.prototype, key, { value: v, writable: true, enumerable: true });
      const input = e.x.slice();
      e.rope.apply(e.x, { tokens: TOKENS, heads: HEADS, start: 5 });
      const r = e.pe.rope({ headDim: HEAD, scaling: { type: 'yarn', originalMaxPositionEmbeddings: 16, maxPositionEmbeddings: 64 } });
      const s = e.pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8, qPositions: [0, 1] });
      const made = everyResult(e.pe);
      let err;
      try { e.rope.apply(e.x, { tokens: 99, heads: HEADS }); } catch (x) { err = x; }
      e.cleanup.splice(0).forEach((f) => f());
      return [input, r, s, err, made];
    },
    ok: (e, [input, r, s, err, made]) => {
      assert.deepEqual(made, everyResult(e.pe));
      assertRotated(e.x, input, START);
      const clean = e.pe.rope({ headDim: HEAD, scaling: { type: 'yarn', originalMaxPositionEmbeddings: 16, maxPositionEmbeddings: 64 } });
      assert.deepEqual(Array.from(r.invFreq), Array.from(clean.invFreq));
      assert.equal(r.attentionFactor, clean.attentionFactor);
      assert.deepEqual(Array.from(s.scores), Array.from(e.pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8, qPositions: [0, 1] }).scores));
      assert.ok(err instanceof RangeError && /\bx\b/.test(err.message), `error while polluted: ${err}`);
    },
  })),
  { cls: 5, what: 'an Object.prototype getter (scaling key) that re-enters scores() is never called',
    run: (e) => {
      let called = 0;
      patch(e, Object.prototype, 'mscale', { get() { called++; e.pe.scores({ q: ramp(8), k: ramp(8), dim: 8 }); return 1e9; } });
      const r = e.pe.rope({ headDim: HEAD, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16, mscaleAllDim: 1 } });
      e.cleanup.splice(0).forEach((f) => f());
      return [called, r];
    },
    ok: (e, [called, r]) => {
      assert.equal(called, 0);
      assert.equal(r.attentionFactor, e.pe.rope({ headDim: HEAD, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16, mscaleAllDim: 1 } }).attentionFactor);
    } },
  { cls: 5, what: 'a throwing Object.prototype getter: rope() works and leaks nothing',
    run: (e) => {
      const r0 = e.pe.rope({ headDim: HEAD, scaling: { type: 'linear', factor: 2 } }); r0.dispose();
      const before = e.pe.memoryStats().heapInUse;
      patch(e, Object.prototype, 'attentionFactor', { get() { throw new Error('inherited getter read'); } });
      patch(e, Object.prototype, 'shortFactor', { get() { throw new Error('inherited getter read'); } });
      for (let i = 0; i < 50; i++) e.pe.rope({ headDim: HEAD, scaling: { type: 'linear', factor: 2 } }).dispose();
      e.cleanup.splice(0).forEach((f) => f());
      return before;
    },
    ok: (e, before) => assert.equal(e.pe.memoryStats().heapInUse, before) },
  { cls: 5, what: 'Object.prototype setters for result keys do not swallow results',
    run: (e) => {
      for (const k of ['wq', 'cos', 'invFreq', 'scores', 'distance', 'handle']) patch(e, Object.prototype, k, { set() { throw new Error(`setter ${k}`); }, get() { return undefined; } });
      const w = e.pe.attentionWeights({ modelDim: 4, seed: 1 });
      const row = e.rope.row(3);
      const f = e.pe.inverseFrequencies({ dim: 8 });
      const s = e.pe.scores({ q: ramp(8), k: ramp(8), dim: 8 });
      const m = e.pe.peMinDistance({ dim: 8, count: 4 });
      const r = e.pe.rope({ headDim: HEAD });
      const own = [Object.hasOwn(w, 'wq'), Object.hasOwn(row, 'cos'), Object.hasOwn(f, 'invFreq'), Object.hasOwn(s, 'scores'), Object.hasOwn(m, 'distance')];
      e.cleanup.splice(0).forEach((fn) => fn());
      return [own, w, row, r];
    },
    ok: (e, [own, w, row, r]) => {
      assert.deepEqual(own, [true, true, true, true, true]);
      assert.equal(w.wq.length, 16);
      assertClose(Array.from(row.cos), [Math.cos(3), Math.cos(0.3), Math.cos(0.03), Math.cos(0.003)], 3e-7);
      assert.equal(r.invFreq.length, 4);
    } },
  { cls: 5, what: 'Array.prototype element under a hole of positions', error: fails(TypeError, 'positions'), keep: ['x'],
    run: (e) => {
      patch(e, Array.prototype, 1, { value: 7, writable: true });
      const p = [3];
      p.length = 2; // a hole at 1
      e.rope.apply(e.x, { heads: HEADS, positions: p });
    } },
  { cls: 5, what: 'Object.prototype.tokens does not stand in for a missing tokens', error: fails(TypeError, 'tokens'), keep: ['x'],
    run: (e) => { patch(e, Object.prototype, 'tokens', { value: TOKENS, writable: true }); e.rope.apply(e.x, { heads: HEADS, start: 1 }); } },
  { cls: 5, what: 'Object.prototype.wq does not stand in for weights.wq', error: fails(TypeError, 'weights.wq'),
    run: (e) => {
      const w = e.pe.attentionWeights({ modelDim: 4, seed: 1 });
      patch(e, Object.prototype, 'wq', { value: w.wq, writable: true });
      e.pe.selfAttention({ x: ramp(8), weights: { wk: w.wk, wv: w.wv, wo: w.wo }, modelDim: 4 });
    } },

  // 7. Ranges that would let results go non-finite.
  ...['yarn', 'longrope'].flatMap((type) => [5e-324, 1e-300, 9.99e-5, 1.0001e4, 1e308].map((af) => ({
    cls: 7, what: `${type} attentionFactor ${af}`, error: fails(RangeError, 'scaling.attentionFactor'),
    run: (e) => e.pe.rope({ headDim: HEAD, scaling: { type, originalMaxPositionEmbeddings: 16, factor: 4, attentionFactor: af,
      ...(type === 'longrope' ? { shortFactor: [1, 1, 1, 1], longFactor: [1, 1, 1, 1] } : {}) } }),
  }))),
  { cls: 7, what: 'yarn mscale / mscaleAllDim ratio below 1e-4', error: fails(RangeError, 'scaling.mscaleAllDim'),
    run: (e) => e.pe.inverseFrequencies({ dim: 8, scaling: { type: 'yarn', factor: 1e6, originalMaxPositionEmbeddings: 16, mscale: 1e-9, mscaleAllDim: 1e9 } }) },
  { cls: 7, what: 'yarn mscale / mscaleAllDim ratio above 1e4', error: fails(RangeError, 'scaling.mscale'),
    run: (e) => e.pe.inverseFrequencies({ dim: 8, scaling: { type: 'yarn', factor: 1e6, originalMaxPositionEmbeddings: 16, mscale: 1e9, mscaleAllDim: 1e-9 } }) },
  { cls: 7, what: 'scores with a tiny attentionFactor', error: fails(RangeError, 'scaling.attentionFactor'),
    run: (e) => e.pe.scores({ q: ramp(8), k: ramp(8), dim: 8, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16, attentionFactor: 1e-320 } }) },
  { cls: 7, what: 'attentionFactor at the bounds: apply and invert stay finite and exact inverses',
    run: (e) => [1e-4, 1e4].map((af) => {
      const r = e.pe.rope({ headDim: HEAD, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16, attentionFactor: af } });
      const y = ramp(N);
      r.apply(y, START);
      const rotated = y.slice();
      r.invert(y, START);
      return [rotated, y];
    }),
    ok: (e, pairs) => pairs.forEach(([rotated, back]) => {
      assert.ok(rotated.every(Number.isFinite) && back.every(Number.isFinite), 'finite');
      assertClose(Array.from(back), Array.from(ramp(N)), 2e-6, 'inverse');
    }) },

  // 8. Smaller ones.
  { cls: 8, what: 'positions viewing WebAssembly memory that grew while the options were built', error: fails(TypeError, 'positions'),
    keep: ['x'],
    run: (e) => {
      const view = e.pe.tensor(4).array;
      const p = new Int32Array(view.buffer, view.byteOffset, 2);
      // A tensor bigger than all of WebAssembly memory: making it grows (and detaches) memory.
      e.rope.apply(e.x, { heads: HEADS, positions: p, out: e.pe.tensor(e.pe.memoryStats().memoryBytes / 4) });
    } },
  { cls: 8, what: 'positions viewing WebAssembly memory, copied before the call grows memory',
    run: (e) => {
      const view = e.pe.tensor(4).array;
      const p = new Int32Array(view.buffer, view.byteOffset, 2);
      p[0] = 11; p[1] = -3;
      // x is bigger than all of WebAssembly memory now, so staging it grows (and detaches) it.
      const ts = e.pe.memoryStats().memoryBytes / 8;
      const x = new Float32Array(2 * ts);
      x.set(e.x.subarray(0, 16), 0);
      x.set(e.x.subarray(16), ts);
      e.rope.apply(x, { heads: HEADS, positions: p, tokenStride: ts });
      return Float32Array.from([...x.subarray(0, 16), ...x.subarray(ts, ts + 16)]);
    },
    ok: (e, got) => assertRotated(got, e.x, { positions: [11, -3] }) },
  { cls: 8, what: 'Int32Array positions viewing WebAssembly memory are read correctly',
    run: (e) => {
      const pt = e.pe.tensor(4);
      const view = pt.array;
      const p = new Int32Array(view.buffer, view.byteOffset, 2);
      p[0] = 11; p[1] = -3;
      const input = e.x.slice();
      e.rope.apply(e.x, { heads: HEADS, positions: p });
      return input;
    },
    ok: (e, input) => assertRotated(e.x, input, { positions: [11, -3] }) },
  { cls: 8, what: 'out overlapping x (plain arrays)', error: fails(RangeError, 'out'), keep: ['x'],
    run: (e) => { const buf = new Float32Array(N + 8); buf.set(e.x); e.x = buf.subarray(0, N); e.rope.apply(e.x, { ...START, out: buf.subarray(4, N + 4) }); } },
  { cls: 8, what: 'out the same floats as x: in place',
    run: (e) => { const input = e.x.slice(); const r = e.rope.apply(e.x, { ...START, out: new Float32Array(e.x.buffer) }); return [r, input]; },
    ok: (e, [r, input]) => { assert.notEqual(r, e.x); assertRotated(e.x, input, START); } },
  { cls: 8, what: 'q overlapping k (plain arrays)', error: fails(RangeError, 'q', 'k'),
    run: (e) => { const buf = ramp(N + 8); e.rope.applyQK(buf.subarray(0, N), buf.subarray(8), { tokens: TOKENS, start: 1, qHeads: HEADS, kHeads: HEADS }); } },
  { cls: 8, what: 'q and k the same plain array', error: fails(RangeError, 'q', 'k'), keep: ['x'],
    run: (e) => e.rope.applyQK(e.x, e.x, { tokens: TOKENS, start: 1, qHeads: HEADS, kHeads: HEADS }) },
  { cls: 8, what: 'q and k the same tensor', error: fails(RangeError, 'q', 'k'), keep: ['t'],
    run: (e) => e.rope.applyQK(e.t, e.t, { tokens: TOKENS, start: 1, qHeads: HEADS, kHeads: HEADS }) },
  { cls: 8, what: 'cacheLength too large names cacheLength', error: fails(RangeError, 'cacheLength'),
    run: (e) => e.pe.rope({ headDim: HEAD, cacheLength: 2 ** 31 - 1 }) },
  { cls: 8, what: 'cacheStart + cacheLength past 2^53 names both', error: fails(RangeError, 'cacheStart', 'cacheLength'),
    run: (e) => e.pe.rope({ headDim: HEAD, cacheStart: 2 ** 53 - 4, cacheLength: 10 }) },
  { cls: 8, what: 'a wrong matrix size names weights.wq', error: fails(RangeError, 'weights.wq'),
    run: (e) => { const w = e.pe.attentionWeights({ modelDim: 4, seed: 1 }); e.pe.selfAttention({ x: ramp(16), weights: w, modelDim: 8 }); } },
  ...[
    ['sinusoidal start', (pe) => pe.sinusoidal({ dim: 8, positions: 2, start: 2 ** 50 }), ['start']],
    ['sinusoidal start + positions', (pe) => pe.sinusoidal({ dim: 8, positions: 10, start: 2 ** 40 - 2 }), ['start', 'positions']],
    ['sinusoidal start into out', (pe) => pe.sinusoidal({ dim: 8, positions: 2, start: 2 ** 50, out: new Float32Array(16) }), ['start']],
    ['peNorms start', (pe) => pe.peNorms({ dim: 8, start: 2 ** 50, count: 2 }), ['start']],
    ['peMinDistance start', (pe) => pe.peMinDistance({ dim: 8, start: 2 ** 50, count: 3 }), ['start']],
    ['peDotByDistance position', (pe) => pe.peDotByDistance({ dim: 8, position: 2 ** 50, kCount: 3 }), ['position']],
  ].map(([label, run, names]) => ({
    cls: 8, what: `the core's range message names the JS argument: ${label}`, error: fails(RangeError, ...names), run: (e) => run(e.pe),
  })),
  { cls: 8, what: 'out-of-place with a short x names x, not in', error: fails(RangeError, 'x'), keep: ['x'],
    run: (e) => e.rope.apply(e.x.subarray(0, 4), { ...START, out: new Float32Array(N) }) },
  { cls: 8, what: 'a sparse shortFactor of length 2^32−1 is refused before allocating', error: fails(RangeError, 'scaling.shortFactor'),
    run: (e) => { const a = []; a.length = 2 ** 32 - 1; e.pe.rope({ headDim: HEAD, scaling: { type: 'longrope', originalMaxPositionEmbeddings: 16, shortFactor: a, longFactor: [1, 1, 1, 1] } }); } },
  { cls: 8, what: 'a sparse positions array of length 2^32−1 is refused before allocating', error: fails(RangeError, 'positions'),
    run: (e) => { const a = []; a.length = 2 ** 32 - 1; e.rope.apply(e.x, { heads: HEADS, positions: a }); } },
  { cls: 8, what: 'a missing required option: no "undefined undefined"', error: fails(TypeError, 'delta'),
    run: (e) => e.rope.shift(e.x, { tokens: TOKENS, heads: HEADS }) },
  { cls: 8, what: 'a class instance as q: no "a Object"', error: fails(TypeError, 'q'),
    run: (e) => e.pe.scores({ q: new (class Foo {})(), k: ramp(8), dim: 8 }) },
  { cls: 8, what: 'an object with a throwing toString as dim', error: fails(TypeError, 'dim'),
    run: (e) => e.pe.sinusoidal({ dim: { toString() { throw new Error('toString called'); }, valueOf() { throw new Error('valueOf called'); } }, positions: 2 }) },
  { cls: 8, what: 'options that are a revoked Proxy', error: fails(TypeError, 'options'),
    run: (e) => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); e.rope.apply(e.x, proxy); } },
  { cls: 8, what: 'x and out tensors of another instance are copied',
    run: (e) => { const other = e.other.tensor(ramp(N)); const out = e.other.tensor(N); e.rope.apply(other, { ...START, out }); return out; },
    ok: (e, out) => assertRotated(out.array, ramp(N), START) },
  { cls: 8, what: 'an unknown own non-enumerable key is refused', error: fails(TypeError, 'inverted'), keep: ['x'],
    run: (e) => { const o = { ...START }; Object.defineProperty(o, 'inverted', { value: true }); e.rope.apply(e.x, o); } },
  { cls: 8, what: 'a symbol key is ignored',
    run: (e) => { const input = e.x.slice(); e.rope.apply(e.x, { ...START, [Symbol('inverse')]: true }); return input; },
    ok: (e, input) => assertRotated(e.x, input, START) },

  // Positions as int64 (BigInt64Array, bigint[]).
  ...[
    ['BigInt64Array', () => new BigInt64Array([4000n, -7n])],
    ['bigint[]', () => [4000n, -7n]],
    ['mixed number / bigint[]', () => [4000, -7n]],
  ].map(([label, make]) => ({
    cls: 'int64', what: `positions as ${label}`,
    run: (e) => {
      const input = e.x.slice();
      e.rope.apply(e.x, { heads: HEADS, positions: make() });
      const s = e.pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8, qPositions: make(), kPositions: make() }).scores;
      const t = e.pe.sinusoidal({ dim: 8, positions: make() });
      return [input, s, t];
    },
    ok: (e, [input, s, t]) => {
      assertRotated(e.x, input, { positions: [4000, -7] });
      assert.deepEqual(Array.from(s), Array.from(e.pe.scores({ q: ramp(16), k: ramp(16, 1), dim: 8, qPositions: [4000, -7], kPositions: [4000, -7] }).scores));
      assert.deepEqual(Array.from(t), Array.from(e.pe.sinusoidal({ dim: 8, positions: [4000, -7] })));
    },
  })),
  ...[2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n - 1n].map((p) => ({
    cls: 'int64', what: `BigInt position ${p} beyond ±2^53`, error: fails(RangeError, 'positions'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { heads: HEADS, positions: new BigInt64Array([1n, p]) }),
  })),
  ...[2n ** 31n, -(2n ** 31n) - 1n, 2n ** 53n].map((p) => ({
    cls: 'int64', what: `BigInt position ${p} outside int32`, error: fails(RangeError, 'positions'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { heads: HEADS, positions: [1n, p] }),
  })),
  { cls: 'int64', what: 'start, delta and single positions as BigInts',
    run: (e) => {
      const input = e.x.slice();
      e.rope.apply(e.x, { ...START, start: 5n });
      const y = e.x.slice();
      e.rope.shift(y, { tokens: TOKENS, heads: HEADS, delta: -2n });
      return [input, y, e.rope.row(7n), e.pe.sinusoidal({ dim: 8, positions: 2, start: 3n }), e.pe.sinusoidalRow({ dim: 8, position: 9n })];
    },
    ok: (e, [input, y, row, table, peRow]) => {
      assertRotated(e.x, input, START);
      assertRotated(y, input, { ...START, start: 3 });
      assert.deepEqual(Array.from(row.cos), Array.from(e.rope.row(7).cos));
      assert.deepEqual(Array.from(table), Array.from(e.pe.sinusoidal({ dim: 8, positions: 2, start: 3 })));
      assert.deepEqual(Array.from(peRow), Array.from(e.pe.sinusoidalRow({ dim: 8, position: 9 })));
    } },
  { cls: 'int64', what: 'a BigInt start beyond 2^53', error: fails(RangeError, 'start'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { ...START, start: 2n ** 53n }) },
  { cls: 'int64', what: 'a BigUint64Array is not a position list', error: fails(TypeError, 'positions'), keep: ['x'],
    run: (e) => e.rope.apply(e.x, { heads: HEADS, positions: new BigUint64Array([1n, 2n]) }) },
];

// ---- the harness --------------------------------------------------------------------------

const snapshot = (a) => new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));

function namesArg(message, name) {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${esc}([^A-Za-z0-9_]|$)`).test(message);
}

function runCase(pe, other, c) {
  const env = makeEnv(pe);
  env.other = other;
  const canaryBefore = snapshot(env.canary.array);
  const kept = { x: c.keep?.includes('x') && env.x.slice(), t: c.keep?.includes('t') && env.t.array.slice() };
  let error = null;
  let result;
  try {
    result = c.run(env);
  } catch (e) {
    error = e;
  } finally {
    env.cleanup.splice(0).reverse().forEach((f) => f());
  }
  if (c.error) {
    assert.ok(error, `${c.what}: accepted, expected ${c.error.type.name}`);
    assert.ok(error instanceof c.error.type, `${c.what}: expected ${c.error.type.name}, got ${error?.constructor?.name}: ${error?.message}`);
    for (const name of c.error.names) assert.ok(namesArg(error.message, name), `${c.what}: message does not name ${name}: ${error.message}`);
    // C++ names and broken descriptions never reach a message.
    assert.doesNotMatch(error.message, /undefined undefined|\ba Object\b|\bcount\b|\bfirst\b|\bw\.wq\b|_/, `${c.what}: message`);
    if (kept.x) assert.deepEqual(env.x, kept.x, `${c.what}: x changed by a failed call`);
    if (kept.t && !env.t.disposed) assert.deepEqual(env.t.array, kept.t, `${c.what}: tensor changed by a failed call`);
  } else {
    if (error) throw new Error(`${c.what}: threw ${error?.constructor?.name}: ${error?.message}`, { cause: error });
    c.ok(env, result);
  }
  assert.deepEqual(snapshot(env.canary.array), canaryBefore, `${c.what}: canary tensor changed`);
  // The module still computes right: a plain-array and a tensor apply against the reference.
  const rope = pe.rope({ headDim: HEAD, cacheLength: 16 });
  const y = ramp(N, 1);
  rope.apply(y, START);
  assertRotated(y, ramp(N, 1), START, `${c.what}: next call`);
  const t = pe.tensor(ramp(N, 1));
  rope.apply(t, { ...START, positions: undefined, start: 3 });
  assertRotated(t.array, ramp(N, 1), { ...START, start: 3 }, `${c.what}: next tensor call`);
  t.dispose();
  rope.dispose();
}

const perClass = {};
for (const c of CASES) perClass[c.cls] = (perClass[c.cls] ?? 0) + 1;

for (const [flavour, pe] of Object.entries(both)) {
  const other = await createPosenc({ simd: flavour === 'simd' });
  test(`${flavour}: hostile inputs (${CASES.length} cases)`, async (t) => {
    for (const c of CASES) await t.test(`class ${c.cls}: ${c.what}`, () => runCase(pe, other, c));
  });
}

test('createPosenc reads each option once, own keys only; pe.simd is the binary loaded', async () => {
  const counts = {};
  const pe = await createPosenc(counted({ simd: false }, counts));
  assert.deepEqual(counts, { simd: 1 });
  assert.equal(pe.simd, false);
  Object.defineProperty(Object.prototype, 'simd', { value: !both.simd.simd, configurable: true, writable: true });
  try {
    assert.equal((await createPosenc({ wasm: undefined })).simd, both.simd.simd, 'inherited simd ignored');
  } finally {
    delete Object.prototype.simd;
  }
  await assert.rejects(createPosenc({ simd: 'yes' }), (e) => e instanceof TypeError && /\bsimd\b/.test(e.message));
  await assert.rejects(createPosenc({ simd: false, wasm: 42 }), (e) => e instanceof TypeError && /\bwasm\b/.test(e.message));
});

test('hostile cases per class', () => {
  console.log(`hostile cases per class (each on both binaries): ${JSON.stringify(perClass)}, total ${CASES.length}`);
  assert.ok(CASES.length >= 100);
});
