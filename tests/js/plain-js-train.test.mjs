// bench/plain-js-train.mjs, the plain-JS step `npm run bench` times beside pe.train's: its
// hand-written gradient matches central differences in double, and a step lowers the loss,
// so the benchmark compares posenc with a correct step of the same model.
import test from 'node:test';
import assert from 'node:assert/strict';
import { plainTrainer } from '../../bench/plain-js-train.mjs';

const T = 6, SEQS = 2;
const tokens = Int32Array.from({ length: SEQS * T }, (_, i) => (i * 7 + 3) % 5);
const targets = Int32Array.from({ length: SEQS * T }, (_, i) => (i % 4 === 0 ? -1 : (i * 3) % 5));

test('plainTrainer: the gradient of every parameter matches central differences (double)', () => {
  const m = plainTrainer({ vocab: 5, dim: 8, heads: 2, layers: 2, mlp: 6, length: T, seed: 3, Arr: Float64Array });
  m.gradient(tokens, targets, SEQS, T);
  const analytic = m.grads.map((g) => g.slice());
  let worst = 0;
  for (let b = 0; b < m.params.length; b++) {
    const p = m.params[b];
    for (let i = 0; i < p.length; i++) {
      const x = p[i], h = 1e-5;
      p[i] = x + h;
      const up = m.gradient(tokens, targets, SEQS, T);
      p[i] = x - h;
      const down = m.gradient(tokens, targets, SEQS, T);
      p[i] = x;
      worst = Math.max(worst, Math.abs((up - down) / (2 * h) - analytic[b][i]));
    }
  }
  assert.ok(worst < 1e-7, `worst |analytic − numeric| = ${worst}`);
});

test('plainTrainer: steps on one batch lower its loss', () => {
  const m = plainTrainer({ vocab: 5, dim: 8, heads: 2, layers: 1, mlp: 8, length: T });
  const first = m.step(tokens, targets, SEQS, T);
  let last = first;
  for (let i = 0; i < 30; i++) last = m.step(tokens, targets, SEQS, T);
  assert.ok(last < first - 0.3, `${first} → ${last}`);
});
