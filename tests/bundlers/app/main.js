// A page that imports posenc as an app would, runs the checks, then runs them again in a
// worker, and shows both results in #results. Filled in per bundler: the specifier and the
// worker — a module worker in the literal form bundlers follow, a classic one, or none.
import { createPosenc } from '__POSENC__';
import { createTrainer } from '__POSENC_TRAIN__';
import { checks } from './checks.js';

function inWorker() {
  const worker = __START_WORKER__;
  if (!worker) return null;
  return new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => resolve({ error: `worker: ${e.message}` });
  });
}

const out = document.getElementById('results');
Promise.all([checks(createPosenc, createTrainer), inWorker()]).then(
  ([page, worker]) => ({ page, worker }),
  (e) => ({ error: String(e?.stack ?? e) }),
).then((report) => {
  out.textContent = JSON.stringify(report);
  out.dataset.done = 'true';
});
