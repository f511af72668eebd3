// bench/machine.mjs — the CPU a benchmark ran on (lscpu), and the slug of its results file.
import { execFileSync } from 'node:child_process';

export function machine() {
  let model = 'unknown CPU', family = '?', cpuModel = '?', simd = [], caches = [];
  try {
    const lines = execFileSync('lscpu', { encoding: 'utf8' }).split('\n');
    const field = (name) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim();
    model = field('Model name') ?? model;
    family = field('CPU family') ?? family;
    cpuModel = field('Model') ?? cpuModel;
    const flags = new Set((field('Flags') ?? '').split(/\s+/));
    simd = ['sse4_2', 'avx2', 'fma', 'avx512f', 'avx512bw'].filter((f) => flags.has(f));
    caches = ['L1d cache', 'L2 cache', 'L3 cache'].map((c) => `${c.split(' ')[0]} ${field(c) ?? '?'}`);
  } catch { /* lscpu missing: keep 'unknown CPU' */ }
  // One file per CPU kind: the model name alone is not enough ("AMD EPYC" is Zen 3 … Zen 5).
  const slug = `${model}-family-${family}-model-${cpuModel}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return { model, family, cpuModel, simd, caches, slug, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' };
}
