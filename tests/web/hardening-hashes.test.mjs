// The demo page under 1 000 random URL hashes (issue 6): valid values drawn from the page's
// own schema (each section's `params`, parsed from web/src with the spec helpers of
// web/src/state/hash.js), values out of range, malformed numbers, bad %-escapes, unknown and
// repeated keys, markup and very long strings. Every hash must render all sections with no
// uncaught error, no console error and no CSP violation (securitypolicyviolation events and
// console messages), and the page must still show the DESIGN §3 facts afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, num, startSuite, tableCells } from './helpers.mjs';
import { spec } from '../../web/src/state/hash.js';

const HASHES = 1000;

/** The page's hash schema: { key: spec } from `'sN.x': spec.kind(args)` lines of web/src. */
function pageSchema() {
  const dir = join(ROOT, 'web', 'src', 'sections');
  const schema = { lang: spec.enumOf('en', ['en', 'ko']) };
  const sections = readdirSync(dir).filter((f) => /^\d+-.*\.js$/.test(f));
  schema.sec = spec.int(0, 0, sections.length);
  for (const f of sections) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^\s*'([\w.]+)':\s*spec\.(\w+)\((.*)\),\s*(\/\/.*)?$/gm)) {
      schema[m[1]] = new Function('spec', `return spec.${m[2]}(${m[3]});`)(spec);
    }
  }
  return { schema, sections: sections.length };
}

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
    case 'list': return Array.from({ length: r.int(1, s.maxLen) }, () => r.int(s.min, s.max)).join(',');
    default: throw new Error(`unknown spec kind ${s.kind}`);
  }
}

function badValue(r, s) {
  const edge = { int: () => String(r.pick([s.min - 1, s.max + 1, s.max * 1000, -(2 ** 53)])),
    num: () => String(r.pick([s.min / 2 - 1, s.max * 10])),
    list: () => Array.from({ length: s.maxLen + 1 }, () => s.max).join(',') }[s.kind];
  return edge && r.next() < 0.3 ? edge() : r.pick(NASTY);
}

function randomHash(r, schema) {
  const keys = Object.keys(schema);
  const parts = [];
  for (let n = r.int(0, 8); n > 0; n--) {
    const roll = r.next();
    const key = roll < 0.08 ? r.pick(['s99.x', 'constructor', '__proto__', 'toString', '', '%zz', 's1.mode.x']) : r.pick(keys);
    const s = Object.hasOwn(schema, key) ? schema[key] : undefined;
    const value = s && roll < 0.6 ? validValue(r, s) : s ? badValue(r, s) : r.pick(NASTY);
    const raw = r.next() < 0.5;  // raw text, or %-encoded as the page itself writes it
    parts.push(r.next() < 0.05 ? key : `${key}=${raw ? value : encodeURIComponent(value)}`);
  }
  return `#${parts.join(r.next() < 0.1 ? '&&' : '&')}`;
}

test(`${HASHES} random URL hashes: every one renders every section, no error, no CSP violation`, async () => {
  const { schema, sections } = pageSchema();
  assert.ok(Object.keys(schema).length >= 40, `schema parsed from web/src: ${Object.keys(schema).length} keys`);
  const suite = await startSuite();
  try {
    const page = await suite.open();
    page.setDefaultTimeout(20000);
    await page.evaluate(() => {
      window.__errors = [];
      window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
      window.addEventListener('unhandledrejection', (e) => window.__errors.push(`rejection: ${e.reason}`));
    });
    const r = rng(6);
    const hashes = Array.from({ length: HASHES }, () => randomHash(r, schema));
    // In batches inside the page: set the hash, let the page's hashchange handler render,
    // then check what it drew before the next one.
    const bad = [];
    for (let i = 0; i < HASHES; i += 50) {
      const found = await page.evaluate(async ({ batch, sections }) => {
        const out = [];
        for (const hash of batch) {
          const changed = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
          location.hash = hash;
          if (location.hash !== '' || hash !== '#') await Promise.race([changed, new Promise((res) => setTimeout(res, 200))]);
          await new Promise((res) => setTimeout(res, 0));
          const drawn = document.querySelectorAll('#main > section[data-section]').length;
          const failed = [...document.querySelectorAll('#main > section > p.note.warn')].map((p) => p.textContent);
          if (drawn !== sections || failed.length || window.__errors.length) {
            out.push({ hash: hash.slice(0, 300), drawn, failed, errors: window.__errors.splice(0) });
          }
        }
        return out;
      }, { batch: hashes.slice(i, i + 50), sections });
      bad.push(...found);
    }
    const problems = await page.problems();
    assert.deepEqual(bad, [], `${bad.length} of ${HASHES} hashes did not render cleanly`);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.console, [], 'console errors');
    assert.deepEqual(problems.csp, [], 'CSP violations');
    assert.deepEqual(problems.foreign, [], 'requests to other hosts');
    // Still right afterwards: back to the defaults, the PE table shows DESIGN §3 row p = 1.
    await page.evaluate(() => new Promise((resolve) => {
      window.addEventListener('hashchange', () => setTimeout(resolve, 0), { once: true });
      location.hash = '#lang=en';
    }));
    const row1 = (await tableCells(page, 'pe-table'))[1];
    assert.deepEqual(row1.map(num), [1, 0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000], `PE row p=1: ${row1}`);
    console.log(`hashes tried: ${HASHES} (schema of ${Object.keys(schema).length} keys from web/src)`);
  } finally {
    await suite.close();
  }
});
