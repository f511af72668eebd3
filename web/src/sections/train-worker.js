// §19's Web Worker: runs "train short, test long" with pe.train off the main thread, so the
// page stays responsive. Messages in: { type: 'run', task, text, encodings, length, steps, seeds,
// evalLengths } and { type: 'attention', tokens | text }. Messages out: 'progress' (a chunk of
// one run's losses), 'scores' (one run's accuracy per length), 'done', 'attention', 'error'.
// Cancelling is the page terminating this worker: a run is only ever stepped from here. The
// trainer is the package's 'posenc/train' entry: only this worker downloads its binary.
import { createTrainer } from 'posenc/train';

const CHUNK = 10; // steps per progress message
let pe = null;
// The first seed's trained model and the same seed's untrained one, per encoding (attention maps).
const kept = new Map();

function dropKept() {
  for (const { trained, fresh } of kept.values()) { trained.dispose(); fresh.dispose(); }
  kept.clear();
}

function run({ task, text, encodings, length, steps, seeds, evalLengths }) {
  dropKept();
  const started = performance.now();
  for (const encoding of encodings) {
    for (let s = 0; s < seeds; s++) {
      const options = { task, encoding, seed: s + 1, length, steps, evalLengths, ...(task === 'text' ? { text } : {}) };
      const t = pe.train(options);
      while (t.stepsDone < steps) {
        const { loss, accuracy } = t.step(Math.min(CHUNK, steps - t.stepsDone));
        postMessage({ type: 'progress', encoding, seed: s + 1, from: t.stepsDone - loss.length, loss, accuracy });
      }
      postMessage({ type: 'scores', encoding, seed: s + 1, scores: t.evaluate() });
      if (s === 0) kept.set(encoding, { trained: t, fresh: pe.train(options) });
      else t.dispose();
    }
  }
  postMessage({ type: 'done', ms: performance.now() - started, simd: pe.simd });
}

function attention(input) {
  const maps = [];
  for (const [encoding, { trained, fresh }] of kept) {
    maps.push({ encoding, trained: trained.attention(input), fresh: fresh.attention(input) });
  }
  postMessage({ type: 'attention', maps });
}

onmessage = async ({ data }) => {
  try {
    pe ??= await createTrainer();
    if (data.type === 'run') run(data);
    else if (data.type === 'attention') attention(data.text === undefined ? { tokens: data.tokens } : { text: data.text });
  } catch (err) {
    postMessage({ type: 'error', during: data.type, message: String(err?.message ?? err) });
  }
};
