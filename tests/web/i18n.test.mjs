// The two languages carry the same keys, every key the page asks for exists, and every
// {placeholder} a string uses is the same in both languages (no browser needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import en from '../../web/src/i18n/en.js';
import ko from '../../web/src/i18n/ko.js';

const placeholders = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const text = (v) => (Array.isArray(v) ? v.join('\n\n') : v);

test('English and Korean have exactly the same keys', () => {
  assert.deepEqual(Object.keys(ko).sort(), Object.keys(en).sort());
});

test('placeholders agree between the languages', () => {
  for (const key of Object.keys(en)) {
    assert.deepEqual(placeholders(text(ko[key])), placeholders(text(en[key])), key);
  }
});

test('Korean strings are translated (not copies of the English), except names and symbols', () => {
  const same = Object.keys(en).filter((k) => text(en[k]) === text(ko[k]) && /[a-z]{4,}\s+[a-z]{3,}/.test(text(en[k])));
  assert.deepEqual(same, []);
});

test('every literal key the sources ask for exists', () => {
  const dir = join(ROOT, 'web', 'src');
  const files = [];
  const walk = (d) => readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.js') && files.push(join(d, e.name))));
  walk(dir);
  const missing = [];
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bt\('([a-z0-9]+\.[A-Za-z0-9.]+)'/g)) {
      if (!(m[1] in en)) missing.push(`${m[1]} (${f.slice(dir.length + 1)})`);
    }
  }
  assert.deepEqual(missing, []);
  for (let n = 1; n <= 16; n++) {
    assert.ok(`s${n}.title` in en && `s${n}.lead` in en, `section ${n} has a title and a lead`);
  }
});

test('math delimiters are balanced in every string', () => {
  for (const [lang, table] of [['en', en], ['ko', ko]]) {
    for (const [k, v] of Object.entries(table)) {
      assert.equal((text(v).match(/\$/g) ?? []).length % 2, 0, `${lang} ${k}: odd number of $`);
    }
  }
});
