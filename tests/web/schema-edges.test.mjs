// The demo page at the edges of its own URL schema, in Chromium: every value a section's
// schema accepts must render. For every key of every section (web/src/sections, parsed with
// the page's spec helpers): its minimum and maximum (the nearest even ones for even
// integers), every enum value, both booleans, lists at their shortest and longest with their
// smallest and largest values; then per section all its keys at their minima together and
// at their maxima together. Each hash must draw every section with no "could not be
// computed" note, no uncaught error, no console error and no CSP violation.
import test from 'node:test';
import assert from 'node:assert/strict';
import { pageSchema, renderHashes, startSuite } from './helpers.mjs';

// The values of a spec at its edges, as hash text.
function edges(s) {
  switch (s.kind) {
    case 'int': {
      const lo = s.even && s.min % 2 ? s.min + 1 : s.min;
      const hi = s.even && s.max % 2 ? s.max - 1 : s.max;
      return [String(lo), String(hi)];
    }
    case 'num': return [String(s.min), String(s.max)];
    case 'enum': return s.values.map(String);
    case 'bool': return ['0', '1'];
    case 'list': {
      const shortest = s.minLen ?? 1;
      return [Array(shortest).fill(s.min).join(','), Array(shortest).fill(s.max).join(','),
        Array(s.maxLen).fill(s.min).join(','), Array(s.maxLen).fill(s.max).join(',')];
    }
    default: throw new Error(`unknown spec kind ${s.kind}`);
  }
}

function edgeHashes(schema) {
  const hashes = [];
  const bySection = new Map();
  for (const [key, s] of Object.entries(schema)) {
    const values = edges(s);
    // Every value must be one the page's parser accepts: the schema's own edges.
    for (const v of values) assert.notEqual(s.parse(v), undefined, `${key}=${v} is inside its schema`);
    for (const v of values) hashes.push(`#${key}=${encodeURIComponent(v)}`);
    const section = /^s\d+\./.exec(key)?.[0];
    if (section) bySection.set(section, [...(bySection.get(section) ?? []), [key, values]]);
  }
  for (const keys of bySection.values()) {
    hashes.push(`#${keys.map(([k, v]) => `${k}=${encodeURIComponent(v[0])}`).join('&')}`);
    hashes.push(`#${keys.map(([k, v]) => `${k}=${encodeURIComponent(v[v.length - 1])}`).join('&')}`);
  }
  return hashes;
}

test('every section renders at every edge of its URL schema (each key alone, then all at once)', async () => {
  const { schema, sections } = pageSchema();
  const hashes = edgeHashes(schema);
  assert.ok(hashes.length >= 100, `${hashes.length} edge hashes from ${Object.keys(schema).length} keys`);
  assert.ok(hashes.includes('#s14.L=5'), 'the trained length of section 14 at its minimum');
  const suite = await startSuite();
  try {
    const page = await suite.open();
    page.setDefaultTimeout(20000);
    const bad = await renderHashes(page, hashes, sections);
    const problems = await page.problems();
    assert.deepEqual(bad, [], `${bad.length} of ${hashes.length} edge hashes did not render cleanly`);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.console, [], 'console errors');
    assert.deepEqual(problems.csp, [], 'CSP violations');
    console.log(`schema edges rendered: ${hashes.length} hashes over ${Object.keys(schema).length} keys`);
  } finally {
    await suite.close();
  }
});
