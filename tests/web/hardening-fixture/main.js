// The page half of tests/web/hardening-isolation.test.mjs. Publishes JSON in #results:
//   page:   { simd: workload result } from an instance of this page, per binary;
//   worker: { simd: [results] } from a module Web Worker (two seeds each, in flight together);
//   pair:   what two instances in this page did to each other (see twoInstances()).
import { createPosenc } from '../../../wasm/index.js';
import { designFailures, workload } from './workload.js';

const SEEDS = [3, 4];
const out = document.getElementById('results');

function askWorker(worker, jobs) {
  let id = 0;
  const pending = new Map();
  worker.onmessage = ({ data }) => { pending.get(data.id)(data); pending.delete(data.id); };
  worker.onerror = (e) => { for (const r of pending.values()) r({ crash: `worker error: ${e.message}` }); };
  return Promise.all(jobs.map((job) => new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ ...job, id: id++ });
  })));
}

// Two instances of one binary in this page: a fails and grows, b must not notice.
async function twoInstances() {
  const a = await createPosenc();
  const b = await createPosenc();
  const tb = b.tensor(Float32Array.from({ length: 64 }, (_, i) => -(i + 1)));
  const statsB = JSON.stringify(b.memoryStats());
  const big = a.tensor(a.memoryStats().memoryBytes / 4);
  const refused = [];
  for (const bad of [() => a.tensor(2 ** 31), () => a.rope({ headDim: 7 }), () => a.sinusoidal({ dim: 8, positions: 2 ** 31 })]) {
    try { bad(); refused.push('accepted'); } catch (e) { refused.push(e.constructor.name); }
  }
  big.dispose();
  const separateMemories = a.memoryStats().memoryBytes !== b.memoryStats().memoryBytes;
  const bStatsUnchanged = JSON.stringify(b.memoryStats()) === statsB;
  // a's tensors handed to b (F7, fixed): b must work on a copy or refuse, never on its own
  // memory at a's address (where tb or b's heap may lie).
  const ta = a.tensor(Float32Array.from({ length: 64 }, (_, i) => i + 1));
  const hugeA = a.tensor(1 << 22);
  const ropeB = b.rope({ headDim: 8 });
  const foreign = [];
  for (const t of [ta, hugeA]) {
    for (const use of [() => ropeB.apply(t, { tokens: t.length / 8, heads: 1, start: 77 }), () => b.fillUniform(t, { seed: 1 })]) {
      try { use(); foreign.push('accepted'); } catch (e) { foreign.push(e.constructor.name); }
    }
  }
  ropeB.dispose();
  hugeA.dispose();
  return {
    foreign,
    refused,
    separateMemories,
    bStatsUnchanged,
    bTensorIntact: tb.array.every((v, i) => v === -(i + 1)),
    failedA: designFailures(a),
    failedB: designFailures(b),
    sameWork: JSON.stringify(workload(a, 9).results) === JSON.stringify(workload(b, 9).results),
  };
}

async function main() {
  const report = { page: {}, worker: {}, pair: null };
  for (const simd of [true, false]) {
    const pe = await createPosenc({ simd });
    report.page[simd] = SEEDS.map((seed) => workload(pe, seed));
  }
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const jobs = [true, false].flatMap((simd) => SEEDS.map((seed) => ({ simd, seed })));
  const answers = await askWorker(worker, jobs);
  jobs.forEach(({ simd }, i) => { (report.worker[simd] ??= []).push(answers[i]); });
  worker.terminate();
  report.pair = await twoInstances();
  return report;
}

main().then(
  (report) => { out.textContent = JSON.stringify(report); },
  (e) => { out.textContent = JSON.stringify({ crash: `${e?.constructor?.name}: ${e?.message}` }); },
).finally(() => { out.dataset.done = 'true'; });
