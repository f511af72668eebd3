// URL-hash state and number formatting, as plain modules (no browser): bad values fall back to
// defaults and are reported, only non-defaults are written, and float32 values print the
// digits of their shortest decimal form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HashState, spec } from '../../web/src/state/hash.js';
import { fixed, fixed32, sig, sci } from '../../web/src/ui/format.js';

const schema = () => ({
  lang: spec.enumOf('en', ['en', 'ko']),
  d: spec.int(8, 2, 1024, { even: true }),
  b: spec.num(10000, 2, 1e7),
  rows: spec.intList([0, 1, 2, 3], -10, 10, 4),
  causal: spec.bool(true),
});

test('valid values are read; everything else falls back and is reported', () => {
  const s = new HashState(schema());
  assert.deepEqual(s.read('#lang=ko&d=64&b=500.5&rows=3,-2&causal=0'), []);
  assert.deepEqual([s.get('lang'), s.get('d'), s.get('b'), s.get('rows'), s.get('causal')], ['ko', 64, 500.5, [3, -2], false]);
  const problems = s.read('#lang=fr&d=7&b=1e400&rows=1,,2&causal=yes&zzz=1&d=3000&%E0%A4%A=1');
  assert.deepEqual(problems.map((p) => p.key), ['lang', 'd', 'b', 'rows', 'causal', 'zzz', 'd', '%E0%A4%A']);
  assert.deepEqual([s.get('lang'), s.get('d'), s.get('b'), s.get('rows'), s.get('causal')], ['en', 8, 10000, [0, 1, 2, 3], true]);
  for (const bad of ['#d=8.5', '#d=0x10', '#d= 8', '#d=-8', '#rows=1,2,3,4,5', '#b=NaN', '#b=Infinity']) {
    assert.equal(s.read(bad).length, 1, bad);
  }
});

test('keys naming Object.prototype members are unknown keys, not crashes', () => {
  const s = new HashState(schema());
  const problems = s.read('#constructor=1&__proto__=1&toString=x&hasOwnProperty&d=16');
  assert.deepEqual(problems.map((p) => [p.key, Boolean(p.unknown)]),
    [['constructor', true], ['__proto__', true], ['toString', true], ['hasOwnProperty', true]]);
  assert.equal(s.get('d'), 16);
  assert.throws(() => s.get('constructor'));
});

test('a list with a minimum length refuses shorter lists', () => {
  const s = new HashState({ q: spec.intList([100, 0], -150, 150, 2, 2) });
  assert.equal(s.read('#q=5').length, 1);
  assert.deepEqual(s.get('q'), [100, 0]);
  assert.deepEqual(s.read('#q=5,-7'), []);
  assert.deepEqual(s.get('q'), [5, -7]);
});

test('serialize writes only non-defaults (plus keys marked always), in schema order', () => {
  const s = new HashState(schema());
  s.read('#rows=0,1,2,3&d=16');
  assert.equal(s.serialize(), '#d=16');
  s.always = new Set(['lang']);
  assert.equal(s.serialize(), '#lang=en&d=16');
  const again = new HashState(schema());
  again.read(s.serialize());
  assert.equal(again.get('d'), 16);
});

test('read leaves in changed exactly the keys whose value moved (lists by value)', () => {
  const s = new HashState(schema());
  s.read('#d=16&rows=1,2');
  assert.deepEqual([...s.changed], ['d', 'rows']);
  s.read('#d=16&rows=1,2&causal=0');
  assert.deepEqual([...s.changed], ['causal']);
  s.read('#rows=1,2&d=7');  // d: a bad value falls back to its default, a change from 16
  assert.deepEqual([...s.changed], ['d', 'causal']);
  s.read('#rows=1,2');
  assert.deepEqual([...s.changed], []);
});

test('float32 values print the digits of their shortest decimal', () => {
  assert.equal(fixed32(Math.fround(Math.cos(0.01)), 4), '1.0000');   // 0.99994999… as float32
  assert.equal(fixed32(Math.fround(Math.cos(0.01)), 5), '0.99995');
  assert.equal(fixed32(Math.fround(-0.4161468365), 4), '\u22120.4161');
  assert.equal(fixed32(Math.fround(-0.00001), 4), '0.0000');
  assert.equal(fixed(-0.00001, 4), '0.0000');
  assert.equal(sig(Math.fround(0.009999833), 5), '0.0099998');
  assert.equal(sci(1.234e-7, 2), '1.23 × 10⁻⁷');
});
