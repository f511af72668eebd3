// bench/report.mjs — turns one run's raw results into tables and targets.
//   node bench/report.mjs <out-dir>
// Reads <out-dir>/native.json (Google Benchmark JSON, repetitions with median aggregates)
// and <out-dir>/wasm.json (bench/wasm/run.mjs), prints markdown to stdout and writes
// <out-dir>/results.md, <out-dir>/results.json and bench/results/<cpu>.md (kept per CPU:
// decisions about kernels rest on every machine recorded there). Every ratio pairs medians
// of the same run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './machine.mjs';

const dir = process.argv[2] ?? 'build/bench';
const readJson = (name) => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), 'utf8')) : null);

const fmtTime = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
const fmtRatio = (r) => (r === undefined || !Number.isFinite(r) ? '–' : `${r.toFixed(2)}×`);
const fmtErr = (e) => (e === undefined ? '–' : e.toExponential(1));

// ── native ──────────────────────────────────────────────────────────────────────────
// groups[op] = { posenc, scalar, user, memcpy, … }: each member's median CPU time (ns),
// values/s and max error, from the counters bench/native/harness.hpp's paired runs report.
function nativeGroups(raw) {
  const groups = {};
  for (const b of raw.benchmarks) {
    if (b.aggregate_name && b.aggregate_name !== 'median') continue;
    const group = (b.run_name ?? b.name).replace(/_median$/, '');
    for (const [key, value] of Object.entries(b)) {
      const m = /^(.*)_ns$/.exec(key);
      if (!m) continue;
      const member = m[1];
      (groups[group] ??= {})[member] = {
        ns: value,
        itemsPerSecond: b[`${member}_values_per_s`],
        maxErr: b[`${member}_max_err`],
      };
    }
  }
  return groups;
}

function nativeTable(groups) {
  const rows = [
    '| operation | posenc | × bare pass | × memcpy speed | × scalar ref | × user loop | values/s | max err posenc / user |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [group, m] of Object.entries(groups)) {
    if (group.startsWith('calibration')) continue;
    const p = m.posenc;
    if (!p) continue;
    const vps = p.itemsPerSecond ? `${(p.itemsPerSecond / 1e6).toFixed(0)} M` : '–';
    const err = p.maxErr === undefined ? '–' : `${fmtErr(p.maxErr)} / ${fmtErr(m.user?.maxErr)}`;
    rows.push(`| ${group} | ${fmtTime(p.ns)} | ${fmtRatio(m.bare?.ns / p.ns)} | ${fmtRatio(m.memcpy?.ns / p.ns)} | ${fmtRatio(m.scalar?.ns / p.ns)} | ${fmtRatio(m.user?.ns / p.ns)} | ${vps} | ${err} |`);
    const f = m.fill;  // the cache's fill kernel alone, into reused memory
    if (f) rows.push(`| ${group} (fill only) | ${fmtTime(f.ns)} | – | ${fmtRatio(m.memcpy?.ns / f.ns)} | ${fmtRatio(m.scalar?.ns / f.ns)} | ${fmtRatio(m.user?.ns / f.ns)} | ${(f.itemsPerSecond / 1e6).toFixed(0)} M | ${fmtErr(f.maxErr)} / ${fmtErr(m.user?.maxErr)} |`);
  }
  return rows.join('\n');
}

// ── wasm ────────────────────────────────────────────────────────────────────────────
function wasmTable(w) {
  const rows = [
    '| operation | posenc SIMD | × copy speed | × scalar build | × plain JS | note |',
    '|---|---|---|---|---|---|',
  ];
  for (const [group, m] of Object.entries(w.groups)) {
    const p = m.simd;
    if (!p) continue;
    rows.push(`| ${group} | ${fmtTime(p.ns)} | ${fmtRatio(m.copy?.ns / p.ns)} | ${fmtRatio(m.scalar?.ns / p.ns)} | ${fmtRatio(m.js?.ns / p.ns)} | ${m.note ?? ''} |`);
  }
  return rows.join('\n');
}

// ── targets ─────────────────────────────────────────────────────────────────────────
function targets(native, wasm) {
  const out = [];
  const add = (target, measured, required, pass) => out.push({ target, measured, required, pass });
  if (native) {
    const g = native;
    // Every apply / GQA operation against the scalar reference, the plain loop and a bare
    // load-store pass over the same bytes, all timed side by side in one process.
    for (const [key, m] of Object.entries(g)) {
      if (!/^(apply|gqa)\//.test(key) || !m.posenc) continue;
      const p = m.posenc.ns;
      const [s1, u, b] = [m.scalar?.ns / p, m.user?.ns / p, m.bare?.ns / p];
      add(`native ${key}: × scalar ref / × plain loop / × bare pass`, `${fmtRatio(s1)} / ${fmtRatio(u)} / ${fmtRatio(b)}`,
        '≥ 1.0× / ≥ 1.0× / ≥ 0.9×', s1 >= 1 && u >= 1 && b >= 0.9);
    }
    // Rotating each tile right after it is written, against one call on the whole tensor.
    const tiles = g['tiles/2048x32x128'];
    if (tiles?.whole && tiles.memcpy) {
      const perToken = (m) => (m.ns - tiles.memcpy.ns) / 2048;
      add('native rotation per token, 16-token tiles rotated as written ÷ one call on the whole 32 MiB',
        `${fmtTime(perToken(tiles.posenc))} / ${fmtTime(perToken(tiles.whole))} per token`, '–', null);
    }
    const cal = g['calibration/add_chain']?.posenc;
    // One dependent add = one core cycle: cycles/ns this run actually got.
    const cyclesPerNs = cal ? (1 << 20) / cal.ns : undefined;
    const decodes = [];
    for (const [where, limit] of [['in_cache', 200], ['outside_cache', 1000]])
      for (const [rows, how] of [['', '64-byte-aligned rows'], ['/rows_16B_past_a_line', 'rows 16 B past a line']])
        decodes.push([`decode/${where}${rows}`, `${where === 'in_cache' ? 'inside' : 'outside'} the cache, ${how}`, limit]);
    for (const [key, label, limit] of decodes) {
      const p = g[key]?.posenc;
      if (!p) continue;
      const cycles = cyclesPerNs ? p.ns * cyclesPerNs : undefined;
      const note = cycles ? ` (${cycles.toFixed(0)} core cycles; ${fmtTime(cycles / 2.3)} at the nominal 2.3 GHz)` : '';
      add(`native decode ${label}`, fmtTime(p.ns) + note, `≤ ${fmtTime(limit)}`, p.ns <= limit);
    }
    // The exact tables must run at ≥ 1.5× the values/s of the per-value sincos fill they
    // replaced, measured on the AMD EPYC (Zen 3) host: 670 M/s (constructor), 870 M/s (fill),
    // 2.0 G/s (sinusoidal); error ≤ 3e-8 against float64 (every row here is below 2^16).
    for (const [key, member, label, before] of [['cache/8192x128', 'posenc', 'cache 8192×128 (constructor, with its allocation)', 670],
      ['cache/8192x128', 'fill', 'cache 8192×128 (fill kernel only)', 870], ['sinusoidal/8192x512', 'posenc', 'sinusoidal 8192×512', 2000]]) {
      const p = g[key]?.[member];
      if (!p) continue;
      const vps = p.itemsPerSecond / 1e6, need = 1.5 * before;
      // The bound: a bare pass storing the same bytes (nothing computed) in the same run.
      const bare = member === 'posenc' ? g[key].bare : undefined;
      const bound = bare ? `; a bare store pass of the same bytes: ${(p.itemsPerSecond * p.ns / bare.ns / 1e6).toFixed(0)} M/s, posenc ${fmtRatio(bare.ns / p.ns)} of it` : '';
      add(`native ${label}, values/s (max err)`, `${vps.toFixed(0)} M/s (${fmtErr(p.maxErr)})${bound}`, `≥ ${need.toFixed(0)} M/s (1.5 × ${before} M/s on AMD EPYC Zen 3), err ≤ 3e-8`, vps >= need && p.maxErr <= 3e-8);
    }
  }
  // Conventions, image / video axes and 16-bit storage: each member's time ÷ the plain float32 member's, side
  // by side in one run (bench/native/bench_variants.cpp, bench/wasm/run.mjs).
  for (const [where, groups, time] of [['native', native, (m) => m.ns], ['WASM', wasm?.groups, (m) => m.ns]]) {
    for (const [key, m] of Object.entries(groups ?? {})) {
      // half_copying/ (the copying path of 16-bit arrays) and half_bound/ (the float16
      // conversions alone, the least an exact float16 apply costs): context beside the target.
      const context = key.startsWith('half_copying/') || key.startsWith('half_bound/');
      // axes/: Flux's multi-axis rotary beside plain 1-D RoPE of the same bytes.
      const [base, limit] = key.startsWith('variants/') || key.startsWith('axes/') ? ['plain', 1.2]
        : key.startsWith('half/') || context ? ['float32', 1.5] : [];
      if (!base || !m[base]) continue;
      for (const [name, member] of Object.entries(m)) {
        if (name === base || name === 'note' || !member?.ns) continue;
        const r = time(member) / time(m[base]);
        add(`${where} ${key}: ${name} time ÷ ${base}`, fmtRatio(r), context ? 'context (no target)' : `≤ ${limit}×`,
          context ? null : r <= limit);
      }
    }
  }
  if (wasm) {
    const g = wasm.groups;
    const zc = g['apply/half/in_place/zero_copy'];
    if (zc) {
      const vsBare = zc.bare ? zc.bare.ns / zc.simd.ns : undefined;
      add('WASM zero-copy apply, × the WASM bare v128 load-store pass', fmtRatio(vsBare), '≥ 0.9×', vsBare >= 0.9);
      const vsJs = zc.js.ns / zc.simd.ns;
      add('WASM zero-copy apply, × faster than plain JS', fmtRatio(vsJs), '≥ 5×', vsJs >= 5);
      const vsScalar = zc.scalar.ns / zc.simd.ns;
      add('WASM zero-copy apply, SIMD × scalar build', fmtRatio(vsScalar), '≥ 1.6×', vsScalar >= 1.6);
      add('  context: posenc apply time ÷ memory.copy time', fmtRatio(zc.simd.ns / zc.copy.ns), '–', null);
      add('  context: plain-JS time ÷ memory.copy time', fmtRatio(zc.js.ns / zc.copy.ns), '–', null);
    }
    const warm = g['apply/half/in_place/zero_copy/1MiB_in_cache'];
    if (warm) {
      add('  context: the same apply on 1 MiB in cache, × plain JS / × scalar build',
        `${fmtRatio(warm.js.ns / warm.simd.ns)} / ${fmtRatio(warm.scalar.ns / warm.simd.ns)}`, '–', null);
    }
    const cp = g['apply/half/in_place/copying'];
    if (cp) { const r = cp.js.ns / cp.simd.ns; add('WASM copying apply, × faster than plain JS', fmtRatio(r), '≥ 2.2×', r >= 2.2); }
    const dec = g['decode/in_cache/zero_copy'];
    if (dec) add('WASM decode call 1×32×128 (zero-copy, with checks)', fmtTime(dec.simd.ns), '≤ 2.5 µs', dec.simd.ns <= 2500);
    const def = g['decode/default_rotator'];
    if (def) {
      const { simd: arr, tensorDefault: td, tensorFullCache: tf, handCopy: hc, copyInOut: cio, noTokens: fixed, js } = def;
      add('WASM decode 1×32×128 at p=4000, default rotator on a tensor ÷ full cache', `${fmtRatio(td.ns / tf.ns)} (${fmtTime(td.ns)} / ${fmtTime(tf.ns)})`, '≤ 1.2×', td.ns / tf.ns <= 1.2);
      add('WASM decode on a plain Float32Array (default rotator), × plain JS', `${fmtRatio(js.ns / arr.ns)} (${fmtTime(arr.ns)} / ${fmtTime(js.ns)})`, '≥ 4×', js.ns / arr.ns >= 4);
      add('WASM decode on a plain Float32Array ÷ tensor call + hand copy in/out', `${fmtRatio(arr.ns / hc.ns)} (${fmtTime(arr.ns)} / ${fmtTime(hc.ns)})`, '≤ 1.5×', arr.ns / hc.ns <= 1.5);
      // What bounds any path from a plain array on this host: the 16 KiB copied in and out,
      // plus the zero-copy call itself.
      if (cio) {
        add('  context: plain JS ÷ (hand copy in and out alone + tensor call), the bound of any copying path',
          `${fmtRatio(js.ns / (cio.ns + td.ns))} (${fmtTime(cio.ns)} + ${fmtTime(td.ns)})`, '–', null);
      }
      // Without the call's fixed cost (a 0-token call: the options read once through their
      // descriptors, the checks, the crossing) only the copy and the kernel remain.
      if (cio && fixed) {
        add('  context: plain JS ÷ (hand copy alone + tensor call − 0-token call), a copying path with no per-call cost',
          `${fmtRatio(js.ns / (cio.ns + td.ns - fixed.ns))} (${fmtTime(cio.ns)} + ${fmtTime(td.ns)} − ${fmtTime(fixed.ns)})`, '–', null);
      }
    }
    // The target is the package's zero-copy path (as for apply); a new Float32Array per
    // call is context: both sides then also fault in 16 MiB of fresh pages, a cost outside
    // the computation that compresses the ratio and moves with the machine.
    const cache = g['cache/8192x128'];
    if (cache) { const r = cache.js.ns / cache.simd.ns; add('WASM cos/sin cache 8192×128 (pe.rope with cacheLength), × plain JS (float32 angles)', fmtRatio(r), '≥ 5×', r >= 5); }
    const sin = g['sinusoidal/8192x512/zero_copy'];
    if (sin) { const r = sin.js.ns / sin.simd.ns; add('WASM sinusoidal 8192×512 (into a tensor), × plain JS', fmtRatio(r), '≥ 10×', r >= 10); }
    const fresh = g['sinusoidal/8192x512/new_array'];
    if (fresh) add('  context: the same as a new Float32Array per call (both sides fault in fresh pages), × plain JS', fmtRatio(fresh.js.ns / fresh.simd.ns), '–', null);
    const step = g['train/step/recall-rope-half/8x64'];
    if (step) {
      add('pe.train step (recall, RoPE, 8 × 64), SIMD / scalar / plain JS', `${fmtTime(step.simd.ns)} / ${fmtTime(step.scalar.ns)} / ${fmtTime(step.js.ns)}`, '–', null);
    }
    if (wasm.sizes?.simd) {
      const kib = wasm.sizes.simd.gzipTotal / 1024;
      add('SIMD .wasm + JS glue, gzip (the default download)', `${kib.toFixed(1)} KiB`, '≤ 90 KiB', kib <= 90);
    }
  }
  return out;
}

function sizesTable(sizes) {
  const rows = ['| binary | .wasm raw | .wasm gzip | glue raw | glue gzip | total gzip |', '|---|---|---|---|---|---|'];
  const k = (b) => `${(b / 1024).toFixed(1)} KiB`;
  for (const [name, s] of Object.entries(sizes))
    rows.push(`| ${name} | ${k(s.wasmRaw)} | ${k(s.wasmGzip)} | ${k(s.glueRaw)} | ${k(s.glueGzip)} | ${k(s.gzipTotal)} |`);
  return rows.join('\n');
}

const nativeRaw = readJson('native.json');
const wasm = readJson('wasm.json');
const native = nativeRaw ? nativeGroups(nativeRaw) : null;
const info = machine();
const checks = targets(native, wasm);

const md = [`# posenc benchmarks`, '',
  `Machine: ${info.model} (CPU family ${info.family}, model ${info.cpuModel}), ${nativeRaw?.context?.num_cpus ?? '?'} CPUs; SIMD: ${info.simd.join(', ') || '?'}; ${info.caches.join(', ')}. Date: ${info.date}. Load average at the end of the run (1 / 5 / 15 min): ${loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${cpus().length} CPUs (a shared host: other work counts).`,
  'Build: native Release (-O3), baseline x86-64 with runtime dispatch (AVX-512 F/CD/DQ/BW, else AVX2+FMA, else SSE2); WASM: emcc -O3 -msimd128 -mnontrapping-fptoint (kernels), -Oz (the rest).', ''];
if (native) {
  const cal = native['calibration/add_chain']?.posenc;
  md.push('## Native (Google Benchmark, one thread, baseline x86-64 build with runtime dispatch)', '');
  md.push('Median thread CPU time per member; members of one operation run interleaved (round-robin) in the same process, so each ratio (the other member\'s median ÷ posenc\'s; higher = posenc faster) pairs measurements taken side by side.');
  if (cal) md.push(`Effective clock this run: ${((1 << 20) / cal.ns).toFixed(2)} core cycles/ns (a dependent add chain; the CPU is shared).`);
  md.push('', nativeTable(native), '');
}
if (wasm) {
  md.push(`## WASM (Node ${wasm.node}, through the package)`, '');
  md.push(`Median ${wasm.clock ?? 'time'} of ${wasm.runs} runs per member; ${wasm.copyNote}`, '', wasmTable(wasm), '');
  if (wasm.sizes) md.push('### Sizes', '', sizesTable(wasm.sizes), '');
}
// The targets are the stable measures (bench/stable.mjs); the whole-run figures above move
// with the host's phase by more than most of their former bars, so they are context.
const stable = readJson('stable.json');
if (stable) {
  md.push('## Targets on stable measures', '', `CPU: ${stable.machine.model} (family ${stable.machine.family}, model ${stable.machine.cpuModel}). Median of ${stable.processes} processes, min–max beside it (bench/stable.mjs; instruction counts exact, under valgrind).`, '',
    '| target | median | min–max | required | met |', '|---|---|---|---|---|');
  for (const t of stable.targets)
    md.push(`| ${t.target} | ${t.median.toFixed(2)} | ${t.min === t.max ? 'exact' : `${t.min.toFixed(2)}–${t.max.toFixed(2)}`} | ${t.required} | ${t.pass === null ? '–' : t.pass ? 'yes' : '**no**'} |`);
  md.push('');
}
md.push('## Context: whole-run figures (not pass/fail)', '',
  'Memory-bound and whole-call figures of this one run, beside the bar each once had; on a shared host they move by ±5–10 % between runs of the same binaries.', '',
  '| figure | measured | former bar |', '|---|---|---|');
for (const c of checks) md.push(`| ${c.target.replace(/^ {2}context: /, '')} | ${c.measured} | ${c.required.replace(/^context \(no target\)$/, '–')} |`);
md.push('');

const text = md.join('\n');
process.stdout.write(text + '\n');
writeFileSync(join(dir, 'results.md'), text + '\n');
writeFileSync(join(dir, 'results.json'), JSON.stringify({ machine: info, native, wasm, stable, context: checks }, null, 2) + '\n');
const kept = join(dirname(fileURLToPath(import.meta.url)), 'results');
mkdirSync(kept, { recursive: true });
writeFileSync(join(kept, `${info.slug}.md`), text + '\n');
process.stderr.write(`wrote bench/results/${info.slug}.md\n`);
