// bench/peers/run.mjs — posenc against its peers (npm run bench -- --peers):
//   node bench/peers/run.mjs <out-dir> [--processes N]
// Runs N processes (5) each of bench/peers/ort.mjs (onnxruntime-web's RotaryEmbedding, in
// Node) and build/bench-native/bench/posenc_peer_ggml (ggml's rope, native), alternating,
// and reports every pair as peer time ÷ posenc time (above 1: posenc faster): the median of
// the N per-process ratios with min–max, and max |posenc − peer| on the same input. The peers
// come from bench/peers/node_modules (bench/peers/package.json and its lock, installed by
// scripts/bootstrap.sh peers); ggml is the CPU build node-llama-cpp ships for linux-x64,
// missing elsewhere (then only onnxruntime-web is measured, and the table says so).
// Writes <out-dir>/peers.{md,json} and records the table, with the host's load average before and
// after, in bench/results/<cpu>.peers.md (the latest run per CPU); prints the markdown.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from '../machine.mjs';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--')) ?? 'build/bench';
const processes = Number(args[args.indexOf('--processes') + 1]) || 5;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const ggmlBinary = join(root, 'build/bench-native/bench/posenc_peer_ggml');
const ggmlDir = join(here, 'node_modules/@node-llama-cpp/linux-x64/bins/linux-x64');
const withGgml = existsSync(join(ggmlDir, 'libggml-base.so'));

const loadBefore = loadavg();
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const ortRuns = [], ggmlRuns = [];
for (let i = 0; i < processes; ++i) {
  ortRuns.push(JSON.parse(execFileSync(process.execPath, [join(here, 'ort.mjs')], { encoding: 'utf8' })));
  if (withGgml) ggmlRuns.push(JSON.parse(execFileSync(ggmlBinary, [ggmlDir], { encoding: 'utf8' })));
}

// One row: peer ÷ posenc per process, median and min–max over the processes.
const rows = [];
function row(peer, against, runs, group, peerKey, posencKey) {
  const v = runs.map((r) => r[group][peerKey] / r[group][posencKey]);
  const diff = Math.max(...runs.map((r) => r[group].maxAbsDiff ?? r[group].max_abs_diff));
  rows.push({ peer, against, group, median: median(v), min: Math.min(...v), max: Math.max(...v),
    posencNs: median(runs.map((r) => r[group][posencKey])), peerNs: median(runs.map((r) => r[group][peerKey])), maxAbsDiff: diff });
}
const groups = ['prefill/half/16x32x128', 'prefill/interleaved/16x32x128', 'prefill/half/2048x32x128',
  'prefill/interleaved/2048x32x128', 'decode/half/1x32x128', 'decode/interleaved/1x32x128'];
for (const g of groups) {
  row('onnxruntime-web RotaryEmbedding (WASM SIMD, 1 thread)', 'posenc, plain Float32Arrays out of place', ortRuns, g, 'ort', 'posenc');
  row('onnxruntime-web RotaryEmbedding (WASM SIMD, 1 thread)', 'posenc, zero-copy tensor in place', ortRuns, g, 'ort', 'posencTensor');
}
if (withGgml)
  for (const g of groups) row('ggml rope_ext in place (CPU backend, 1 thread)', 'posenc rope_apply in place (native)', ggmlRuns, g, 'ggml', 'posenc');

const info = machine();
const load = (l) => l.map((x) => x.toFixed(2)).join(', ');
const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const time = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
const shape = (g) => g.replace(/^(\w+)\/(\w+)\/(\d+)x32x128$/, (_, kind, layout, t) =>
  `${kind === 'decode' ? 'decode' : 'prefill'} ${t} × 32 × 128${kind === 'decode' ? ' at p = 4000' : ''}, ${layout}`);
const md = ['## posenc against its peers', '',
  `CPU: ${info.model} (family ${info.family}, model ${info.cpuModel}); ${info.date}; Node ${process.versions.node}, onnxruntime-web ${ortRuns[0].versions.onnxruntimeWeb}${withGgml ? `, ggml ${ggmlRuns[0].ggml_version} (commit ${ggmlRuns[0].ggml_commit}) as @node-llama-cpp/linux-x64 ships it, CPU variant ${ggmlRuns[0].ggml_cpu_variant}` : ', ggml: not measured (@node-llama-cpp/linux-x64 is not installed: it exists for Linux x64 only)'}. Each ratio is the peer's time ÷ posenc's (above 1: posenc faster), paired in one process, the median of ${processes} processes with min–max; times are the medians' medians; max |Δ| is the largest |posenc − peer| on the same input. Load average (1, 5, 15 min) before: ${load(loadBefore)}; after: ${load(loadavg())}, on a host of ${availableParallelism()} CPUs: the times are CPU time of the measuring thread (native) or process (Node), so waiting for a core is not counted, but a loaded host still shares caches and memory bandwidth.`, '',
  '| peer | posenc | shape | peer ÷ posenc | min–max | peer | posenc | max \\|Δ\\| |', '|---|---|---|---|---|---|---|---|'];
for (const r of rows)
  md.push(`| ${r.peer} | ${r.against} | ${shape(r.group)} | ${fmt(r.median)}× | ${fmt(r.min)}–${fmt(r.max)} | ${time(r.peerNs)} | ${time(r.posencNs)} | ${r.maxAbsDiff.toExponential(1)} |`);
console.log(md.join('\n'));
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'peers.md'), md.join('\n') + '\n');
writeFileSync(join(root, 'bench/results', `${info.slug}.peers.md`),
  [`# posenc against its peers — ${info.model} (family ${info.family}, model ${info.cpuModel})`, '',
    'Recorded by `npm run bench -- --peers` (bench/peers/run.mjs); the next run on this CPU replaces it.', '',
    ...md.slice(2), ''].join('\n'));
writeFileSync(join(dir, 'peers.json'), JSON.stringify({ machine: info, processes, ortRuns, ggmlRuns, rows }, null, 2) + '\n');
