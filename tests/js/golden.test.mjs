// The golden float64 cases of tests/vectors/*.json (one set of truths for the C++, JS and
// page tests), through the JS API on both binaries.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { assertClose, loadBoth, repoRoot } from './support.mjs';

const dir = `${repoRoot}tests/vectors/`;
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const both = await loadBoth();

const f32 = (a) => Float32Array.from(a);
const pick = (o, keys) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
const ROPE_KEYS = ['headDim', 'rotaryDim', 'base', 'layout', 'scaling'];
const APPLY_KEYS = ['tokens', 'heads', 'positions', 'start', 'inverse', 'tokenStride', 'headStride'];

// Relative closeness for ladders (the core promises a few ulp).
function assertRelative(actual, expected, rel, what) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= rel * Math.abs(expected[i]), `${what}[${i}]: ${v} vs ${expected[i]}`));
}

// One checker per file and case kind: (pe, case) → asserts.
const CHECKS = {
  'ladder.json': {
    undefined(pe, { params, expected }) {
      const { invFreq, attentionFactor } = pe.inverseFrequencies(params);
      assertRelative(invFreq, expected.invFreq, 4e-15, 'invFreq');
      assert.ok(Math.abs(attentionFactor - expected.attentionFactor) <= 1e-15, 'attentionFactor');
      assertRelative(pe.wavelengths(params), expected.wavelengths, 4e-15, 'wavelengths');
    },
  },
  'decay.json': {
    undefined(pe, { params, expected }) {
      const curve = pe.decayBound({ dim: params.dim, base: params.base, maxDistance: Math.max(...params.deltas) });
      assertClose(params.deltas.map((d) => curve[d]), expected.values, params.dim * 1e-12, 'decay');
    },
  },
  'sinusoidal.json': {
    table(pe, { params, expected }) {
      assertClose(pe.sinusoidal(params), expected.values, 1e-7, 'table');
    },
    shift(pe, { params, expected }) {
      assertClose(pe.shiftMatrix(params), expected.matrix, 1e-12, 'M(k)');
      const row = pe.sinusoidalRow({ dim: params.dim, base: params.base, position: 5, layout: params.layout });
      assertClose(pe.applyShift(row, pick(params, ['k', 'base', 'layout'])), expected.shiftedRow5, 2e-7, 'M(k)·PE(5)');
    },
    dotByDistance(pe, { params, expected }) {
      const { dim, base } = params;
      const closed = params.ks.map((k) => pe.peDotClosedForm({ dim, base, kFirst: k, kCount: 1 })[0]);
      assertClose(closed, expected.values, dim * 1e-12, 'closed form');
      const dots = params.ks.map((k) => pe.peDotByDistance({ dim, base, position: 0, kFirst: k, kCount: 1 })[0]);
      assertClose(dots, expected.values, dim * 6e-8, 'float32 rows');
    },
  },
  'rope.json': {
    apply(pe, { params, input, expected }) {
      const rope = pe.rope(pick(params, ROPE_KEYS));
      assert.ok(Math.abs(rope.attentionFactor - expected.attentionFactor) <= 1e-15, 'attentionFactor');
      const got = rope.apply(f32(input.x), pick(params, APPLY_KEYS));
      assertClose(got, expected.x, 8e-7 * Math.max(1, rope.attentionFactor), 'x');
      rope.dispose();
    },
    shift(pe, { params, input, expected }) {
      const rope = pe.rope(pick(params, ROPE_KEYS));
      const got = rope.shift(f32(input.x), pick(params, ['tokens', 'heads', 'delta', 'tokenStride', 'headStride']));
      assertClose(got, expected.x, 4e-7, 'x');
      rope.dispose();
    },
  },
  'scores.json': {
    scores(pe, { params, input, expected }) {
      const got = pe.scores({ ...params, q: f32(input.q), k: f32(input.k) });
      const tol = 4e-6 * params.dim;
      assertClose(got.scores, expected.scores, tol, 'scores');
      if (expected.terms) {
        for (const [name, values] of Object.entries(expected.terms)) assertClose(got.terms[name], values, tol, name);
      }
    },
    relativeKernel(pe, { params, input, expected }) {
      const got = pe.relativeKernel({ ...pick(params, ['base', 'layout', 'delta']), q: f32(input.q), k: f32(input.k) });
      for (const key of ['score', 'dot', 'area']) assert.ok(Math.abs(got[key] - expected[key]) <= 1e-12, `${key}: ${got[key]} vs ${expected[key]}`);
    },
  },
};

test('the golden files exist', () => {
  for (const f of Object.keys(CHECKS)) assert.ok(files.includes(f), `tests/vectors/${f}`);
});

for (const file of files) {
  const { cases } = JSON.parse(readFileSync(dir + file, 'utf8'));
  const checks = CHECKS[file];
  if (!checks) {
    test(`tests/vectors/${file}`, { skip: 'no JS checker for this file yet' }, () => {});
    continue;
  }
  for (const [flavour, pe] of Object.entries(both)) {
    test(`${flavour}: tests/vectors/${file} (${cases.length} cases)`, () => {
      for (const c of cases) {
        const check = checks[c.kind];
        assert.ok(check, `${file}: no checker for kind '${c.kind}' (case ${c.name})`);
        try {
          check(pe, c);
        } catch (e) {
          e.message = `${c.name}: ${e.message}`;
          throw e;
        }
      }
    });
  }
}
