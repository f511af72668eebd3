// The demo page under 1 000 random URL hashes: valid values drawn from the page's
// own schema (each section's `params`, parsed from web/src with the spec helpers of
// web/src/state/hash.js), values out of range, malformed numbers, bad %-escapes, unknown and
// repeated keys, markup and very long strings. Every hash must parse to valid values, and every
// rendered hash must draw all sections with no uncaught error, no console error and no CSP violation (securitypolicyviolation events and
// console messages), and the page must still show the worked facts (core/README.md) afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { num, pageSchema, renderHashes, startSuite, tableCells } from './helpers.mjs';
import { HashState } from '../../web/src/state/hash.js';

// All HASHES go through the page's own parser (HashState.read, in Node); RENDERED of them
// are also loaded into the page in Chromium. A render of all 16 sections takes ~0.5 s on
// this shared machine, so the full 1 000 in the browser is opt-in: POSENC_HASHES_RENDERED=1000.
const HASHES = 1000;
const RENDERED = Number(process.env.POSENC_HASHES_RENDERED ?? 60);
// Keys that name Object.prototype members: once (F8, fixed) they crashed the hash parser.
const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

// Deterministic generator (xorshift32), so a failing hash can be replayed.
function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (a) => a[Math.floor(next() * a.length)] };
}

const NASTY = ['', '-', '+1', '1e309', '-1e309', 'NaN', 'Infinity', '0x10', '1.5', '-0', '00008', '9'.repeat(40),
  '1,2,,3', ',', '%', '%E0%A4%A', '%FF', '%00', '<img src=x onerror=alert(1)>', '"><script>alert(1)</script>',
  'javascript:alert(1)', '\u202e\u0000', '한국어', '😀', 'x'.repeat(5000), '1&', '=', '==', '#', 'true', 'en-US', 'KO'];

function validValue(r, s) {
  switch (s.kind) {
    case 'int': { let v = r.int(s.min, s.max); if (s.even && v % 2) v += v < s.max ? 1 : -1; return String(v); }
    case 'num': return String(s.min + r.next() * (s.max - s.min));
    case 'enum': return r.pick(s.values);
    case 'bool': return r.pick(['0', '1']);
    case 'list': return Array.from({ length: r.int(s.minLen ?? 1, s.maxLen) }, () => r.int(s.min, s.max)).join(',');
    default: throw new Error(`unknown spec kind ${s.kind}`);
  }
}

function badValue(r, s) {
  const edge = { int: () => String(r.pick([s.min - 1, s.max + 1, s.max * 1000, -(2 ** 53)])),
    num: () => String(r.pick([s.min / 2 - 1, s.max * 10])),
    // too long, or too short (F9, fixed: a one-value #s8.q was drawn with NaN coordinates)
    list: () => Array.from({ length: r.pick([s.maxLen + 1, (s.minLen ?? 1) - 1]) || 1 }, () => s.max).join(',') }[s.kind];
  return edge && r.next() < 0.3 ? edge() : r.pick(NASTY);
}

function randomHash(r, schema) {
  const keys = Object.keys(schema);
  const parts = [];
  for (let n = r.int(0, 8); n > 0; n--) {
    const roll = r.next();
    const key = roll < 0.08 ? r.pick(['s99.x', '', '%zz', 's1.mode.x', 'S1.MODE', ...PROTO_KEYS]) : r.pick(keys);
    const s = Object.hasOwn(schema, key) ? schema[key] : undefined;
    const value = s && roll < 0.6 ? validValue(r, s) : s ? badValue(r, s) : r.pick(NASTY);
    const raw = r.next() < 0.5;  // raw text, or %-encoded as the page itself writes it
    parts.push(r.next() < 0.05 ? key : `${key}=${raw ? value : encodeURIComponent(value)}`);
  }
  return `#${parts.join(r.next() < 0.1 ? '&&' : '&')}`;
}

/** Problems of HashState.read(hash): a throw, or a value its spec does not accept. */
function parseProblems(schema, hash) {
  const state = new HashState(schema);
  try {
    state.read(hash);
  } catch (e) {
    return [`${hash.slice(0, 200)}: read threw ${e?.constructor?.name}: ${e?.message}`];
  }
  return Object.entries(state.values)
    .filter(([k, v]) => schema[k].parse(schema[k].format(v)) === undefined)
    .map(([k, v]) => `${hash.slice(0, 200)}: ${k} = ${v} is not a valid value`);
}

test(`${HASHES} random URL hashes through the page's parser: no throw, every value valid`, () => {
  const { schema } = pageSchema();
  const r = rng(6);
  const problems = Array.from({ length: HASHES }, () => randomHash(r, schema)).flatMap((h) => parseProblems(schema, h));
  assert.deepEqual(problems, []);
  console.log(`hashes parsed: ${HASHES}`);
});

test('hash keys named like Object.prototype members are unknown keys, not a crash (F8)', () => {
  const { schema } = pageSchema();
  const problems = PROTO_KEYS.flatMap((k) => [`#${k}`, `#${k}=1`, `#s3.d=16&${k}=x`]).flatMap((h) => parseProblems(schema, h));
  assert.deepEqual(problems, []);
});

test(`${RENDERED} random URL hashes: every one renders every section, no error, no CSP violation`, async () => {
  const { schema, sections } = pageSchema();
  assert.ok(Object.keys(schema).length >= 40, `schema parsed from web/src: ${Object.keys(schema).length} keys`);
  const suite = await startSuite();
  try {
    const page = await suite.open();
    page.setDefaultTimeout(20000);
    page.context().setDefaultTimeout(20000);
    const r = rng(6);
    const hashes = Array.from({ length: RENDERED }, () => randomHash(r, schema));
    const bad = await renderHashes(page, hashes, sections);
    const problems = await page.problems();
    assert.deepEqual(bad, [], `${bad.length} of ${RENDERED} hashes did not render cleanly`);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.console, [], 'console errors');
    assert.deepEqual(problems.csp, [], 'CSP violations');
    assert.deepEqual(problems.foreign, [], 'requests to other hosts');
    // Still right afterwards: back to the defaults, the PE table shows the worked-fact row p = 1.
    // (s3.d=8 is a default: the page rewrites the hash to '#lang=en', but this one differs
    // from any canonical hash, so the hashchange always fires.)
    await page.evaluate(() => new Promise((resolve, reject) => {
      window.addEventListener('hashchange', () => setTimeout(resolve, 0), { once: true });
      setTimeout(() => reject(new Error('no hashchange')), 15000);
      location.hash = '#lang=en&s3.d=8';
    }));
    const row1 = (await tableCells(page, 'pe-table'))[1];
    assert.deepEqual(row1.map(num), [1, 0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000], `PE row p=1: ${row1}`);
    console.log(`hashes rendered: ${RENDERED} (schema of ${Object.keys(schema).length} keys from web/src)`);
  } finally {
    await suite.close();
  }
});

test('a one-value vector in #s8.q / #s8.k is refused by the schema, not drawn with NaN (F9)', async () => {
  const suite = await startSuite();
  try {
    for (const hash of ['#s8.q=5', '#s8.k=-3']) {
      const page = await suite.open(hash);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
      assert.deepEqual((await page.problems()).console, [], hash);
      await page.close();
    }
  } finally {
    await suite.close();
  }
});

