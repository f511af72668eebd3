// The coverage map of the four source articles (tests/web/coverage/*.json): one entry per row
// of the audit (rows 1–116), each naming the page section that shows it and the browser test
// that checks it. This test keeps the map honest: every row exactly once, only LIVE or STATIC,
// a section the page has, and a test that exists under that name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROWS = 116;

function entries() {
  const dir = path.join(root, 'tests/web/coverage');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().flatMap((f) =>
    JSON.parse(readFileSync(path.join(dir, f), 'utf8')).map((e) => ({ ...e, from: f })));
}

// A test reference is "file › name" or { file, name }.
function testRef(t) {
  if (typeof t === 'string') {
    const [file, ...name] = t.split(' › ');
    return { file, name: name.join(' › ') };
  }
  return t;
}

const sectionSource = readdirSync(path.join(root, 'web/src/sections'))
  .map((f) => readFileSync(path.join(root, 'web/src/sections', f), 'utf8')).join('\n');

test('every audited row is mapped exactly once, LIVE or STATIC', () => {
  const seen = new Map();
  for (const e of entries()) {
    assert.ok(Number.isInteger(e.row) && e.row >= 1 && e.row <= ROWS, `${e.from}: row ${e.row}`);
    assert.ok(!seen.has(e.row), `row ${e.row} mapped twice (${seen.get(e.row)} and ${e.from})`);
    seen.set(e.row, e.from);
    assert.ok(e.status === 'LIVE' || e.status === 'STATIC', `row ${e.row}: status ${e.status}`);
  }
  const missing = [];
  for (let r = 1; r <= ROWS; r++) if (!seen.has(r)) missing.push(r);
  assert.deepEqual(missing, [], 'rows without an entry');
});

test('each entry names a section of the page and an existing test', () => {
  for (const e of entries()) {
    assert.ok(sectionSource.includes(`id: '${e.section}'`), `row ${e.row}: no section '${e.section}'`);
    const { file, name } = testRef(e.test);
    const src = readFileSync(path.join(root, file), 'utf8');
    assert.ok(name && src.includes(name), `row ${e.row}: ${file} has no test named "${name}"`);
  }
});
