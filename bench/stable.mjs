// bench/stable.mjs — the benchmark targets as measures that hold on a shared machine.
//   node bench/stable.mjs <out-dir> [--instructions] [--processes N]
// Runs build/bench-native/bench/posenc_stable (bench/stable/stable.cpp) and
// bench/wasm/stable.mjs in N processes each (5), each pairing its members side by side on
// data that stays in cache (or against the same bytes moved by a plain loop), and reports every
// target as the median of the N per-process ratios with their min–max. With --instructions
// it also counts each kernel's instructions per call under valgrind (cachegrind): exact and
// independent of the host's load. Writes <out-dir>/stable.json (read by bench/report.mjs) and,
// with --instructions, bench/results/<cpu>.instructions.md, whose previous counts it compares
// against (a regression guard: a count up by more than 2 % is flagged).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './machine.mjs';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--')) ?? 'build/bench';
const processes = Number(args[args.indexOf('--processes') + 1]) || 5;
const withInstructions = args.includes('--instructions');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = join(root, 'build/bench-native/bench/posenc_stable');

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

// ── paired times, N processes ─────────────────────────────────────────────────────────
const runs = [], wasmRuns = [];
for (let i = 0; i < processes; ++i) {
  runs.push(JSON.parse(execFileSync(binary, ['--rounds', '1001'], { encoding: 'utf8' })));
  wasmRuns.push(JSON.parse(execFileSync(process.execPath, [join(root, 'bench/wasm/stable.mjs')], { encoding: 'utf8' })));
}

// A target: f(run) per process, then median and min–max over the processes.
function spread(f, of = runs) {
  const v = of.map(f);
  return { median: median(v), min: Math.min(...v), max: Math.max(...v) };
}

const targets = [];
const add = (target, s, required, pass) =>
  targets.push({ target, median: s.median, min: s.min, max: s.max, required, pass: pass(s.median) });
for (const layout of ['half', 'interleaved']) {
  const baselineNeed = layout === 'half' ? 1.5 : 1.4;
  for (const tokens of [16, 64]) {
    const g = `apply/${layout}/${tokens}x32x128`;
    add(`native ${g} in place: -march=native loop time ÷ posenc`, spread((r) => r[g].loop_native / r[g].posenc),
      '≥ 1.0', (m) => m >= 1.0);
    add(`native ${g} in place: baseline -O3 loop time ÷ posenc`, spread((r) => r[g].loop_baseline / r[g].posenc),
      `≥ ${baselineNeed}`, (m) => m >= baselineNeed);
  }
}
for (const layout of ['half', 'interleaved']) {
  const g = `decode/${layout}/1x32x128`;
  add(`native ${g} in cache: posenc time ÷ memcpy of the same 16 KiB`, spread((r) => r[g].posenc / r[g].memcpy),
    '≤ 1.35', (m) => m <= 1.35);
}

const wasm = (f) => spread(f, wasmRuns);
add('WASM apply 16x32x128 in place, zero-copy: plain v128 loop time ÷ posenc (half)',
  wasm((r) => r['apply/16x32x128'].loop / r['apply/16x32x128'].half), '≥ 1.0', (m) => m >= 1.0);
add('WASM apply 16x32x128 in place, zero-copy: interleaved time ÷ half',
  wasm((r) => r['apply/16x32x128'].interleaved / r['apply/16x32x128'].half), '≤ 1.3', (m) => m <= 1.3);
add('WASM decode 1x32x128 from a plain Float32Array: time ÷ the plain v128 loop on the same token',
  wasm((r) => r['decode/1x32x128'].plainArray / r['decode/1x32x128'].loop), '≤ 2.9', (m) => m <= 2.9);
add('WASM decode 1x32x128 on tensors: out-of-place time ÷ in place (options written as a literal, built beforehand)',
  wasm((r) => r['decode/1x32x128'].tensorOut / r['decode/1x32x128'].tensor), '≤ 1.3', (m) => m <= 1.3);
add('WASM decode 1x32x128 on tensors: out-of-place time ÷ in place (options spread from another object, built beforehand)',
  wasm((r) => r['decode/1x32x128'].tensorOutSpread / r['decode/1x32x128'].tensor), '≤ 1.3', (m) => m <= 1.3);
add('WASM float16 16x32x128 zero-copy: time ÷ its exact conversion round trip alone',
  wasm((r) => r['float16/16x32x128'].float16 / r['float16/16x32x128'].roundTrip), '≤ 2.0', (m) => m <= 2.0);
add('WASM plain Float32Array 2048x32x128: out-of-place time ÷ in place',
  wasm((r) => r['plain_array/2048x32x128'].outOfPlace / r['plain_array/2048x32x128'].inPlace), '≤ 1.3', (m) => m <= 1.3);
// The floor of that ratio for any JS path: the same bytes copied in 256 KiB chunks, no rotation.
add('  context: the same bytes copied through WASM memory in 256 KiB chunks, no rotation: x → y time ÷ z → z',
  wasm((r) => r['plain_array/2048x32x128'].copyOut / r['plain_array/2048x32x128'].copyInPlace), 'context', () => null);
add('  context: (posenc out of place − in place) ÷ (that copy x → y − z → z): the time out of place adds, over what the copy adds',
  wasm((r) => {
    const g = r['plain_array/2048x32x128'];
    return (g.outOfPlace - g.inPlace) / (g.copyOut - g.copyInPlace);
  }), 'context', () => null);

// ── instruction counts (valgrind) ──────────────────────────────────────────────────────
// Per call: (Ir with 3 calls − Ir with 1 call) / 2, the setup's instructions cancelling.
// valgrind runs no AVX-512, so posenc dispatches to its AVX2 + FMA kernels there and the
// yardstick is the user loop compiled -march=x86-64-v3 (AVX2 + FMA). valgrind's emulated
// CPU reports an L2 of its own (256 KiB), so posenc is told this CPU's (--l2-bytes) and
// plans its calls as it does here: the count is of the path this CPU runs.
function perCall(member) {
  const l2 = execFileSync(binary, ['--l2-bytes'], { encoding: 'utf8' }).trim();
  const count = (calls) => {
    const run = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null',
      binary, '--member', member, '--calls', String(calls), '--l2-bytes', l2], { encoding: 'utf8' });
    const m = /I\s+refs:\s+([\d,]+)/.exec(run.stderr ?? '');
    if (run.status !== 0 || !m)
      throw new Error(`valgrind gave no instruction count for ${member} (exit ${run.status}): ${run.error ?? run.stderr}`);
    return Number(m[1].replaceAll(',', ''));
  };
  return (count(3) - count(1)) / 2;
}

const info = machine();
let instructions = null;
if (withInstructions) {
  instructions = {};
  for (const layout of ['half', 'interleaved'])
    for (const tokens of [16, 64]) {
      const g = `apply/${layout}/${tokens}x32x128`;
      instructions[g] = { posenc: perCall(`${g}:posenc`), loop: perCall(`${g}:loop_v3`) };
      const limit = layout === 'half' ? 1.05 : 1.1;
      const r = instructions[g].posenc / instructions[g].loop;
      targets.push({ target: `native ${g}: posenc instructions ÷ the -march=x86-64-v3 loop's (valgrind, AVX2 + FMA)`,
        median: r, min: r, max: r, required: `≤ ${limit}`, pass: r <= limit });
    }
  // valgrind replaces memcpy with a plain loop of its own, so decode is counted alone.
  for (const layout of ['half', 'interleaved']) {
    const g = `decode/${layout}/1x32x128`;
    instructions[g] = { posenc: perCall(`${g}:posenc`) };
  }
}

// ── report ─────────────────────────────────────────────────────────────────────────────
const md = [`## Targets on stable measures`, '',
  `CPU: ${info.model} (family ${info.family}, model ${info.cpuModel}); ${info.date}. Each paired ratio is the median of ${processes} processes (min–max beside it), every member timed side by side with the thread's CPU clock on data that stays in cache; instruction counts are exact.`, '',
  '| target | median | min–max | required | met |', '|---|---|---|---|---|'];
for (const t of targets)
  md.push(`| ${t.target} | ${fmt(t.median)} | ${t.min === t.max ? 'exact' : `${fmt(t.min)}–${fmt(t.max)}`} | ${t.required} | ${t.pass === null ? '–' : t.pass ? 'yes' : '**no**'} |`);

if (instructions) {
  const record = join(root, 'bench/results', `${info.slug}.instructions.md`);
  const previous = existsSync(record) ? JSON.parse(/```json\n([\s\S]*?)\n```/.exec(readFileSync(record, 'utf8'))?.[1] ?? 'null') : null;
  const rows = ['| kernel | member | instructions per call | previous record | change |', '|---|---|---|---|---|'];
  for (const [g, members] of Object.entries(instructions))
    for (const [member, n] of Object.entries(members)) {
      const before = previous?.counts?.[g]?.[member];
      const change = before ? (n / before - 1) * 100 : undefined;
      const flag = change !== undefined && change > 2 ? ' **regression**' : '';
      rows.push(`| ${g} | ${member} | ${n} | ${before ?? '–'} | ${change === undefined ? '–' : `${change >= 0 ? '+' : ''}${change.toFixed(1)} %${flag}`} |`);
    }
  md.push('', '### Instructions per call (valgrind cachegrind)', '', ...rows);
  mkdirSync(dirname(record), { recursive: true });
  writeFileSync(record, [`# Instruction counts per call — ${info.model} (family ${info.family}, model ${info.cpuModel})`, '',
    `Recorded ${info.date} by \`npm run bench -- --instructions\` (bench/stable.mjs): posenc_stable under valgrind 3 calls minus 1 call, halved, posenc planning with this CPU's L2 (valgrind's emulated CPU reports 256 KiB). valgrind emulates no AVX-512, so posenc runs its AVX2 + FMA kernels; \`loop\` is the plain loop compiled -march=x86-64-v3. The next run compares against the counts below.`,
    '', ...rows, '', '```json', JSON.stringify({ date: info.date, counts: instructions }, null, 2), '```', ''].join('\n'));
}

console.log(md.join('\n'));
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'stable.json'), JSON.stringify({ machine: info, processes, runs, wasmRuns, targets, instructions }, null, 2) + '\n');
