// The worker_threads half of tests/js/workers.test.mjs: loads posenc in this thread and
// answers each message { id, simd, seed } with { id, ...the shared workload's result } (or { hang: true }:
// starts a call that runs for minutes, to be terminated by the test).
import { parentPort } from 'node:worker_threads';
import { createPosenc } from '../../wasm/index.js';
import { workload } from '../web/hardening-fixture/workload.js';

const instances = new Map();
parentPort.on('message', async ({ id, simd, seed, hang }) => {
  try {
    if (!instances.has(simd)) instances.set(simd, await createPosenc({ simd }));
    const pe = instances.get(simd);
    if (hang) {
      parentPort.postMessage({ started: true });
      pe.decayBound({ dim: 65536, maxDistance: 2 ** 24 }); // hours of work
    }
    parentPort.postMessage({ id, ...workload(pe, seed) });
  } catch (e) {
    parentPort.postMessage({ id, crash: `${e?.constructor?.name}: ${e?.message}` });
  }
});
