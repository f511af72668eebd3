#!/usr/bin/env node
// Measures the frame budget: after a move of the shift slider in section 9, how long
// until both 256×256 score heatmaps are recomputed (posenc, in WASM) and redrawn (canvas)?
// Runs the built page (web/dist) in Debian's Chromium through playwright-core and prints the
// median and 95th percentile over many slider moves, for T = 256 (and 64 for reference).
//   node bench/web-heatmap.mjs [--moves N]
// Needs web/dist (npm run build:web). Target: median ≤ 16 ms (one frame at 60 Hz).
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'web', 'dist');
const movesArg = process.argv.indexOf('--moves');
const MOVES = movesArg > 0 ? Number(process.argv[movesArg + 1]) : 60;
if (!existsSync(join(dist, 'index.html'))) {
  console.error('bench/web-heatmap: web/dist is missing; run `npm run build:web` first');
  process.exit(1);
}

const server = await serve(dist);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function measure(T) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${server.url}#lang=en&sec=9&s9.T=${T}`);
  await page.waitForSelector('body[data-ready="true"]');
  const result = await page.evaluate(async (moves) => {
    const range = document.querySelector('input[type="range"][name="s9.s-range"]');
    range.scrollIntoView();
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const script = []; const total = []; const full = [];
    const out = document.querySelector('[data-testid="dev-posenc"]');
    for (let i = 0; i < moves; i++) {
      await frame();
      // Slider positions spread over 10⁰ … 10⁶ (a log slider), never repeating the last one.
      range.value = String((6 * ((i * 37) % moves)) / moves + 0.01);
      const target = String(Math.round(10 ** Number(range.value)));
      const t0 = performance.now();
      range.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = performance.now();           // scores computed, both canvases written
      await frame();                          // the next frame starts: the redraw is on screen
      const t2 = performance.now();
      // The additive matrix and the deviation read-outs follow in the next task.
      while (out.dataset.shift !== target) await new Promise((r) => setTimeout(r, 0));
      const t3 = performance.now();
      script.push(t1 - t0); total.push(t2 - t0); full.push(t3 - t0);
    }
    const stats = (a) => {
      const s = [...a].sort((x, y) => x - y);
      return { median: s[s.length >> 1], p95: s[Math.floor(s.length * 0.95)], min: s[0] };
    };
    return { script: stats(script), frame: stats(total), full: stats(full) };
  }, MOVES);
  await page.close();
  return result;
}

const rows = [];
for (const T of [64, 256]) rows.push({ T, ...(await measure(T)) });
await browser.close();
await server.close();

const f = (x) => x.toFixed(2);
console.log(`\nSection 9 heatmap redraw after a slider move (Chromium, ${MOVES} moves, ${new Date().toISOString()})\n`);
console.log('| T×T | RoPE heatmap: compute + draw, median | p95 | next frame, median | + additive heatmap and deviations, median | fits 16 ms |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.T}×${r.T} | ${f(r.script.median)} ms | ${f(r.script.p95)} ms | ${f(r.frame.median)} ms | ${f(r.full.median)} ms | ${r.script.median <= 16 ? 'yes' : 'no'} |`);
}
console.log(`\nmachine load average: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
mkdirSync(join(root, 'build', 'bench'), { recursive: true });
writeFileSync(join(root, 'build', 'bench', 'web-heatmap.json'), JSON.stringify({ moves: MOVES, rows }, null, 2));
console.log('\n(JSON: build/bench/web-heatmap.json)');
