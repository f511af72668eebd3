// The options records of the per-token rotator methods (check.recordOf): one shape for every
// record of a class whatever the user's object looks like (key order, key subset, getters),
// which is what keeps a decode loop's reads of them monomorphic; and, like every options
// record, nothing inherited: a record answers only its own keys. The shape is V8's (its
// hidden class), so the first test asks V8 itself, in a child process with natives enabled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as check from '../../wasm/js/check.js';

const checkUrl = new URL('../../wasm/js/check.js', import.meta.url).href;

test('records of one recordOf class share one shape, whatever the options object looks like', () => {
  const script = `
    const check = await import(${JSON.stringify(checkUrl)});
    const R = check.recordOf(class { tokens; heads; start; positions; });
    const keys = check.keysOf(R);
    const get = { get heads() { return 2; }, tokens: 1 };
    const records = [{ tokens: 1, heads: 2 }, { heads: 2, tokens: 1 }, { start: 3 }, {}, undefined, get,
      Object.defineProperty({}, 'start', { value: 1, enumerable: false })].map((o) => check.options(o, 'f()', keys, new R()));
    const plain = [{ tokens: 1, heads: 2 }, { heads: 2, tokens: 1 }].map((o) => check.options(o, 'f()', ['tokens', 'heads']));
    console.log(JSON.stringify({ shaped: records.every((r) => %HaveSameMap(r, records[0])),
      plain: %HaveSameMap(plain[0], plain[1]) }));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { shaped, plain } = JSON.parse(r.stdout);
  assert.equal(shaped, true, 'every record of the class has the same hidden class');
  assert.equal(plain, false, 'a plain record takes the shape of its input (what the classes avoid)');
});

test('a recordOf record holds every key, undefined unless given, and inherits nothing', () => {
  const R = check.recordOf(class { tokens; heads; start; });
  const keys = check.keysOf(R);
  assert.deepEqual(keys, ['tokens', 'heads', 'start']);
  Object.prototype.polluted = 'from the prototype';
  try {
    const r = check.options({ heads: 4 }, 'f()', keys, new R());
    assert.deepEqual(Object.getOwnPropertyNames(r), ['tokens', 'heads', 'start']);
    assert.equal(r.heads, 4);
    assert.equal(r.tokens, undefined);
    assert.equal(r.polluted, undefined, 'nothing on Object.prototype is seen through a record');
    assert.equal(r.constructor, undefined);
  } finally {
    delete Object.prototype.polluted;
  }
  assert.throws(() => check.options({ heads: 1, extra: 2 }, 'f()', keys, new R()),
    (e) => e instanceof TypeError && /unknown option 'extra' of f\(\); allowed: tokens, heads, start/.test(e.message));
});
