// The bad-input matrix (issue 6): every exported function and method × every argument ×
// the BAD values of hardening-cases.mjs, on both binaries. A bad value must be refused with
// a TypeError or RangeError whose message names the argument; a value the table marks `ok`
// must be accepted. After every call the module must still be right: the same entry point
// called with valid arguments returns exactly the numbers it returned at the start (which
// are themselves checked against DESIGN §3 where the design gives them), an in-place
// argument of a failed call is unchanged, and a sentinel tensor elsewhere in WebAssembly
// memory is untouched (no stray writes). Prints how many bad inputs were tried.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPosenc } from '../../wasm/index.js';
import { CASES, argName, makeEnv, getPath, numbers, ramp, sameNumbers, setPath, valuesFor } from './hardening-cases.mjs';

/** The argument's name, or its C++ snake_case spelling, as a word of the message. */
function namesArgument(message, name) {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const word = (s) => new RegExp(`(^|[^A-Za-z0-9_])${esc(s)}([^A-Za-z0-9_]|$)`);
  if (word(name).test(message)) return 'exact';
  if (snake !== name && word(snake).test(message)) return 'snake';
  return null;
}

// ---- the DESIGN §3 facts the known-good results are checked against -----------------------

const PE8 = [
  [0, 1, 0, 1, 0, 1, 0, 1],
  [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
  [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
  [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000],
].flat();

function assertDesignFacts(pe, when) {
  const table = pe.sinusoidal({ dim: 8, positions: 4 });
  PE8.forEach((v, i) => assert.ok(Math.abs(table[i] - v) <= 5.01e-5, `${when}: PE(d=8)[${i}] = ${table[i]}, DESIGN says ${v}`));
  const theta = pe.inverseFrequencies({ dim: 8 }).invFreq;
  [1, 0.1, 0.01, 0.001].forEach((v, i) => assert.ok(Math.abs(theta[i] - v) <= 1e-15, `${when}: θ[${i}] = ${theta[i]}`));
  const q = new Float32Array(8); const k = new Float32Array(8);
  q[2] = 1; k[3] = 1; // the pair θ = 0.1 in the interleaved layout
  const s = pe.scores({ q, k, dim: 8, qPositions: [97], kPositions: [100], layout: 'interleaved' }).scores[0];
  assert.ok(Math.abs(s + Math.sin(0.3)) <= 5e-7, `${when}: hand check ${s} ≠ −sin 0.3`);
}

// Runs one call of `entry` with `arg` set to `value`; returns the problems found (strings).
function tryValue(env, entry, known, arg, label, makeValue, expectOk, stats) {
  const { pe } = env;
  const name = argName(arg);
  const problems = [];
  const slots = entry.make(env);
  const value = makeValue(env);
  setPath(slots, arg.path, value);
  const inPlace = entry.inPlace && getPath(slots, entry.inPlace);
  const target = ArrayBuffer.isView(inPlace) ? inPlace : null;
  const before = target && target.length ? Array.from(target) : null;
  let error = null;
  try {
    entry.call(pe, slots, env);
  } catch (e) {
    error = e;
  }
  const what = `${entry.name} ${arg.path} = ${label}`;
  if (expectOk) {
    stats.valid++;
    if (error) problems.push(`${what}: valid per table (${expectOk}) but threw ${error?.constructor?.name}: ${error?.message}`);
  } else {
    stats.bad++;
    if (!error) problems.push(`${what}: accepted (no error)`);
    else if (!(error instanceof TypeError || error instanceof RangeError)) {
      problems.push(`${what}: threw ${error?.constructor?.name}, not TypeError/RangeError: ${error?.message}`);
    } else {
      const aliases = typeof arg.aliases === 'function' ? arg.aliases(slots, entry.make(env)) : arg.aliases ?? [];
      const how = [name, ...aliases].map((n) => namesArgument(error.message, n)).find(Boolean);
      if (!how) problems.push(`${what}: message does not name '${name}': ${error.message}`);
      else if (how === 'snake' && !stats.snake.has(name)) stats.snake.set(name, error.message);
    }
    if (error && before && !sameNumbers(Array.from(target), before)) problems.push(`${what}: failed call changed its in-place argument`);
  }
  // The module is still right: the same entry point, valid arguments, the start's numbers.
  try {
    const again = numbers(entry.call(pe, entry.make(env), env));
    if (!sameNumbers(again, known)) problems.push(`${what}: the next valid ${entry.name} call returned different numbers`);
    if (!sameNumbers(Array.from(env.sentinel.array), Array.from(env.sentinelValues))) {
      problems.push(`${what}: a sentinel tensor elsewhere in WebAssembly memory was overwritten`);
      env.sentinel.array.set(env.sentinelValues);
    }
  } catch (e) {
    problems.push(`${what}: the next valid call threw ${e?.constructor?.name}: ${e?.message} (module dead?)`);
  }
  return problems;
}

const totals = { bad: 0, valid: 0, snake: new Map(), fresh: 0 };

const graveyard = [];

// One module instance with its fixtures and the known-good numbers of every entry point.
async function instance(simd, reference) {
  const pe = await createPosenc({ simd });
  assertDesignFacts(pe, 'at the start');
  const env = makeEnv(pe);
  const known = new Map(CASES.map((c) => [c.name, numbers(c.call(pe, c.make(env), env))]));
  if (reference) {
    for (const [name, v] of known) assert.ok(sameNumbers(v, reference.get(name)), `${name}: a fresh instance computes other numbers`);
  }
  return { pe, env, known };
}

for (const flavour of ['simd', 'scalar']) {
  test(`${flavour}: every entry point × argument × bad value is refused cleanly`, async (t) => {
    const first = await instance(flavour === 'simd');
    let current = first;
    // Runs the values of one argument; a value that kills the module is reported and the
    // rest of the matrix continues on a fresh instance (so one finding does not hide others).
    const run = async (entry, arg, values, todo) => {
      const problems = [];
      for (const [label, make] of values) {
        const p = tryValue(current.env, entry, current.known.get(entry.name), arg, label, make, arg.ok?.[label], totals);
        problems.push(...p);
        if (p.some((s) => /RuntimeError|module dead|sentinel/.test(s))) {
          totals.fresh++;
          // Kept reachable: the dead instance's FinalizationRegistry callbacks (free,
          // ropeDestroy) would trap again, asynchronously, as uncaught exceptions.
          graveyard.push(current);
          current = await instance(flavour === 'simd', first.known);
        }
      }
      return problems;
    };
    for (const entry of CASES) {
      for (const arg of entry.args) {
        const todo = arg.todo ?? {};
        const values = valuesFor(entry, arg, current.env);
        await t.test(`${entry.name} · ${arg.path}`, async () => {
          assert.deepEqual(await run(entry, arg, values.filter(([label]) => !(label in todo))), []);
        });
        for (const value of values.filter(([l]) => l in todo)) {
          await t.test(`${entry.name} · ${arg.path} = ${value[0]}`, { todo: todo[value[0]] }, async () => {
            assert.deepEqual(await run(entry, arg, [value]), []);
          });
        }
      }
    }
    // Every `ok` and `todo` label of the table must be a value that is actually tried.
    for (const entry of CASES) {
      for (const arg of entry.args) {
        const labels = new Set(valuesFor(entry, arg, current.env).map(([l]) => l));
        for (const l of [...Object.keys(arg.ok ?? {}), ...Object.keys(arg.todo ?? {})]) {
          assert.ok(labels.has(l), `${entry.name} ${arg.path}: table names an untried value '${l}'`);
        }
      }
    }
    assertDesignFacts(current.pe, 'at the end');
  });
}

// The F1 wrap (closed) made concrete: strides whose element count wraps 32-bit size_t once
// passed the buffer check, and the kernel rotated another tensor's floats with no error.
test('a stride that wraps 32-bit size_t is refused and writes nothing outside x', async () => {
  const pe = await createPosenc();
  const victim = pe.tensor(ramp(64));
  const x = pe.tensor(ramp(8));
  const rope = pe.rope({ headDim: 8 });
  const back = (x.array.byteOffset - victim.array.byteOffset) / 4; // the float distance the wrapped stride reaches
  assert.ok(Number.isInteger(back) && back > 0, `x after victim (${back})`);
  const before = Array.from(victim.array);
  totals.bad++;
  assert.throws(() => rope.apply(x, { tokens: 2, heads: 2, tokenStride: 2 ** 32 - back, headStride: back, start: 1000 }),
    (e) => e instanceof RangeError && /tokenStride|headStride|x/.test(e.message));
  assert.deepEqual(Array.from(victim.array), before, 'another tensor was rotated in place');
  graveyard.push(pe);
});

// F6 (fixed in wasm/index.js): index.d.ts promises "a tensor of `length` zeros", but
// pe.tensor(n) once handed out the allocator's block as it was, with a freed tensor's floats.
test('a new tensor is zeros even where a freed tensor lay', async () => {
  const pe = await createPosenc();
  for (const n of [1, 6, 1000, 1 << 16]) {
    const old = pe.tensor(n);
    old.array.fill(7);
    old.dispose();
    const t = pe.tensor(n);
    assert.deepEqual(Array.from(new Set(t.array)), [0], `tensor(${n}) holds old data`);
    t.dispose();
  }
});

// F10 (fixed: wasm/js check.int64 leaves the range to the core): a size argument with a limit
// below 2^53 states that one limit whatever the bad value.
test('a bounded size argument states the same allowed range for every bad value', async () => {
  const pe = await createPosenc();
  const calls = {
    'permutation n': (v) => pe.permutation({ n: v, seed: 1 }),
    'decayBound maxDistance': (v) => pe.decayBound({ dim: 8, maxDistance: v }),
    'peNorms count': (v) => pe.peNorms({ dim: 8, count: v }),
    'peDotByDistance kCount': (v) => pe.peDotByDistance({ dim: 8, kCount: v }),
  };
  for (const [what, call] of Object.entries(calls)) {
    const ranges = [-1, 2 ** 31, 2 ** 53].map((v) => {
      totals.bad++;
      try {
        call(v);
        return `accepted ${v}`;
      } catch (e) {
        return e.message.match(/\[[^\]]*\]/)?.[0] ?? e.message;
      }
    });
    assert.equal(new Set(ranges).size, 1, `${what}: ${ranges.join(' / ')}`);
  }
});

// createPosenc's own options: [argument, options, todo reason if an open finding]. (F4,
// wasm: 42 or {} once taken as a URL and rejected with ENOENT, is closed.)
const CREATE_BAD = [
  ['options', 'a string'],
  ['options', 42],
  ['options', null],
  ['simdd', { simdd: true }],
  ['simd', { simd: 'yes' }],
  ['simd', { simd: 1 }],
  ['simd', { simd: null }],
  ['wasm', { wasm: 42 }],
  ['wasm', { wasm: {} }],
];

test('createPosenc: bad options are refused and a later createPosenc still works', async (t) => {
  for (const [name, options, todo] of CREATE_BAD) {
    await t.test(`createPosenc(${JSON.stringify(options)})`, { todo }, async () => {
      totals.bad++;
      await assert.rejects(createPosenc(options), (e) => {
        assert.ok(e instanceof TypeError || e instanceof RangeError, `${e?.constructor?.name}: ${e?.message}`);
        assert.ok(namesArgument(e.message, name), `message does not name ${name}: ${e.message}`);
        return true;
      });
    });
  }
  // Bytes that are no WebAssembly and a file that does not exist are valid argument types
  // whose content fails: any Error (CompileError, ENOENT) is right, as long as it rejects.
  for (const options of [{ wasm: new Float64Array(4) }, { wasm: 'no-such-file.wasm' }]) {
    totals.bad++;
    await assert.rejects(createPosenc(options), Error);
  }
  assertDesignFacts(await createPosenc(), 'a new instance after the failures');
});

test.after(() => {
  if (totals.fresh) console.log(`fresh module instances needed after a dead one: ${totals.fresh}`);
  console.log(`bad inputs tried: ${totals.bad} (plus ${totals.valid} values the table marks valid, which were accepted)`);
  if (totals.snake.size) {
    console.log(`arguments named only in C++ snake_case: ${totals.snake.size}`);
    for (const [name, message] of totals.snake) console.log(`  ${name}: ${message}`);
  }
});
