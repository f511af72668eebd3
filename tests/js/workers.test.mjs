// posenc in Node worker_threads, and instances that must not share anything.
// Each worker loads its own module and runs the shared workload (hardening-fixture/
// workload.js, also run in Chromium by tests/web/hardening-isolation.test.mjs); its numbers
// must equal, bit for bit, those of an instance in this thread. Two instances in one thread
// must be independent: memory, tensors, failures and disposal of one never reach the other.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { createPosenc } from '../../wasm/index.js';
import { designFailures, workload } from '../web/hardening-fixture/workload.js';

const SCRIPT = new URL('./worker-script.mjs', import.meta.url);

let nextId = 0;
function startWorker() {
  const w = new Worker(SCRIPT);
  const ask = (msg) => new Promise((resolve, reject) => {
    const id = nextId++;
    const onMessage = (m) => { if (m.id === id) { w.off('message', onMessage); resolve(m); } };
    w.on('message', onMessage);
    w.once('error', reject);
    w.postMessage({ ...msg, id });
  });
  return { w, ask };
}

const local = { true: await createPosenc({ simd: true }), false: await createPosenc({ simd: false }) };

function assertSameAsLocal(result, simd, seed, where) {
  assert.equal(result.crash, undefined, `${where}: ${result.crash}`);
  assert.deepEqual(result.failed, [], `${where}: worked-fact checks failed`);
  assert.equal(result.simd, simd, `${where}: loaded the requested binary`);
  assert.equal(result.error?.name, 'RangeError', `${where}: the refused call: ${JSON.stringify(result.error)}`);
  const mine = workload(local[simd], seed);
  for (const [name, values] of Object.entries(mine.results)) {
    assert.deepEqual(result.results[name], values, `${where}: ${name} differs from this thread's instance`);
  }
}

test('three worker_threads at once, both binaries: the same numbers as this thread, bit for bit', async () => {
  const workers = [startWorker(), startWorker(), startWorker()];
  try {
    // Every worker runs both binaries with several seeds, all in flight together.
    const jobs = workers.flatMap((wk, i) => [true, false].map((simd) => ({ wk, simd, seed: 3 + i })));
    const results = await Promise.all(jobs.map(({ wk, simd, seed }) => wk.ask({ simd, seed })));
    jobs.forEach(({ simd, seed }, j) => assertSameAsLocal(results[j], simd, seed, `worker ${j >> 1} (${simd ? 'simd' : 'scalar'}, seed ${seed})`));
    // A second round on the same worker instances (state carried over the refused call).
    const again = await workers[0].ask({ simd: true, seed: 11 });
    assertSameAsLocal(again, true, 11, 'worker 0, second round');
  } finally {
    await Promise.all(workers.map(({ w }) => w.terminate()));
  }
});

test('terminating a worker in the middle of a long call leaves the other threads working', async () => {
  const victim = startWorker();
  const other = startWorker();
  const started = new Promise((resolve) => victim.w.on('message', (m) => m.started && resolve()));
  victim.w.postMessage({ simd: true, hang: true, seed: 1 });
  await started;
  await victim.w.terminate();
  assertSameAsLocal(await other.ask({ simd: true, seed: 5 }), true, 5, 'the other worker');
  assert.deepEqual(designFailures(local.true), [], 'this thread');
  await other.w.terminate();
});

// ---- two instances in one thread ---------------------------------------------------------

const ramp = (n, sign = 1) => Float32Array.from({ length: n }, (_, i) => sign * (i + 1));

test('two instances: separate memories, failures and disposal of one never reach the other', async () => {
  const a = await createPosenc();
  const b = await createPosenc();
  const ta = a.tensor(ramp(64));
  const tb = b.tensor(ramp(64, -1));
  assert.notEqual(ta.array.buffer, tb.array.buffer, 'one WebAssembly memory each');
  const statsB = b.memoryStats();
  // Grow a's memory, kill nothing: b's size, tensors and numbers stay as they were.
  const big = a.tensor(a.memoryStats().memoryBytes / 4);
  assert.deepEqual(b.memoryStats(), statsB, 'b unchanged by a growing');
  assert.throws(() => a.tensor(2 ** 31), RangeError);
  assert.throws(() => a.rope({ headDim: 7 }), RangeError);
  const ropeA = a.rope({ headDim: 8 });
  ropeA.apply(ta, { tokens: 8, heads: 1, start: 123 });
  ropeA.dispose();
  big.dispose();
  assert.deepEqual(Array.from(tb.array), Array.from(ramp(64, -1)), 'b\'s tensor untouched');
  assert.deepEqual(designFailures(b), []);
  assert.deepEqual(designFailures(a), []);
  // The same work on both gives the same numbers (nothing of a's history leaks into b).
  assert.deepEqual(workload(a, 7).results, workload(b, 7).results);
  ta.dispose();
  tb.dispose();
});

// Every instance's ropes are one class (wasm/js/rotary.js): a rope method borrowed from
// another instance's rope acts on the rope it is called on, in that rope's own memory.
test('ropes of two instances: a method called on the other instance\'s rope uses that rope\'s memory', async () => {
  const a = await createPosenc();
  const b = await createPosenc({ simd: !a.simd });
  const ropeA = a.rope({ headDim: 8 });
  const ropeB = b.rope({ headDim: 8, base: 500 });
  const tb = b.tensor(ramp(32));
  const want = ropeB.apply(Float32Array.from(ramp(32)), { tokens: 4, heads: 1, start: 9 });
  assert.equal(ropeA.apply.call(ropeB, tb, { tokens: 4, heads: 1, start: 9 }), tb);
  assert.deepEqual(Array.from(tb.array), Array.from(want), 'b\'s rope, b\'s tensor: b\'s numbers');
  const ta = a.tensor(ramp(32));
  ropeA.apply(ta, { tokens: 4, heads: 1, start: 9 });
  assert.notDeepEqual(Array.from(ta.array), Array.from(want), 'a\'s rope keeps its own base');
  ropeB.dispose();
  assert.throws(() => ropeA.apply.call(ropeB, tb, { tokens: 4, heads: 1 }), /disposed/);
  assert.equal(ropeA.disposed, false);
  assert.deepEqual(designFailures(a), []);
  assert.deepEqual(designFailures(b), []);
  for (const t of [ta, tb, ropeA]) t.dispose();
});

// F7 (fixed in wasm/js/target.js): a Tensor handle carries an address, and instance b's
// methods once took a's tensor as an address in b's memory — rotating or filling b's own
// tensor allocated there, and trapping b (module dead) when the address lay beyond b's
// memory. Now: a TypeError naming the argument, or the work done on a's tensor itself, and
// nothing of b touched.
for (const [what, use] of [
  ['rope.apply', (b, t) => { const r = b.rope({ headDim: 8 }); try { return r.apply(t, { tokens: t.length / 8, heads: 1, start: 1000 }); } finally { r.dispose(); } }],
  ['fillUniform', (b, t) => b.fillUniform(t, { seed: 1 })],
]) {
  test(`${what} of one instance on another instance's tensor never touches its own memory`, async () => {
    const a = await createPosenc();
    const b = await createPosenc();
    const ta = a.tensor(ramp(64));
    const victim = b.tensor(ramp(64, -1)); // same allocation history: likely the same address
    const huge = a.tensor(1 << 23);        // an address range b's memory does not have
    for (const t of [ta, huge]) {
      // What b does to an ordinary copy of the tensor's floats: the right answer, if accepted.
      const expected = t === ta ? use(b, Float32Array.from(ta.array)) : null;
      let error = null;
      try {
        use(b, t);
      } catch (e) {
        error = e;
      }
      if (error) assert.ok(error instanceof TypeError && /\bx\b|\bout\b|tensor|instance/.test(error.message), `${error}`);
      else if (expected) assert.deepEqual(Array.from(t.array), Array.from(expected), 'a\'s tensor: not what b computes on a copy');
      assert.deepEqual(Array.from(victim.array), Array.from(ramp(64, -1)), 'b\'s own tensor was changed');
      assert.deepEqual(designFailures(b), [], 'b still computes');
    }
  });
}
