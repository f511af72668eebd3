// bench/wasm/paired.mjs — members of one operation timed side by side in one Node process.

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// CPU time of this process in ns (user + system). The benchmark machine is shared: wall
// time there includes waiting for a core, CPU time does not. Compute runs on one thread,
// so the process's CPU time is that thread's, up to a little GC and compiler work.
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};

/**
 * paired(members, inner) runs every member of one operation `runs` times, interleaved
 * (round-robin, rotating who goes first), after an untimed warm-up of `warmNs` CPU time each
 * (V8 compiles WebAssembly with its baseline compiler and swaps in optimized code later, off
 * the main thread, so one warm-up call can leave the first timed runs on baseline code); it
 * returns { member: { ns, runs } }, the median CPU time per operation (each sample times
 * `inner` back-to-back calls). Interleaving makes the ratios pair measurements taken side by
 * side, on a machine whose speed drifts.
 */
export function pairedRunner({ runs, warmNs }) {
  return function paired(members, inner = 1) {
    const names = Object.keys(members);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (const n of names) {
      const t0 = cpuNow();
      do for (let i = 0; i < inner; i++) members[n](); while (cpuNow() - t0 < warmNs);
    }
    for (let r = 0; r < runs; r++) {
      for (let k = 0; k < names.length; k++) {
        const n = names[(r + k) % names.length];
        const t0 = cpuNow();
        for (let i = 0; i < inner; i++) members[n]();
        samples[n].push((cpuNow() - t0) / inner);
      }
    }
    return Object.fromEntries(names.map((n) => [n, { ns: median(samples[n]), runs: samples[n] }]));
  };
}

// Deterministic values in [−1, 1) (an LCG), so every member rotates the same numbers.
export function randomFill(a, seed) {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}

/**
 * pairedAsync(members, { runs, warmNs, inner }) — pairedRunner's protocol for members that
 * return a promise (a peer whose API is asynchronous): each sample times `inner` awaited
 * calls (so a µs-long call still spans many ticks of the µs CPU clock).
 * Returns { member: median ns of CPU time per call }.
 */
export async function pairedAsync(members, { runs, warmNs, inner = 1 }) {
  const names = Object.keys(members);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) {
    const t0 = cpuNow();
    do for (let i = 0; i < inner; i++) await members[n](); while (cpuNow() - t0 < warmNs);
  }
  for (let r = 0; r < runs; r++)
    for (let k = 0; k < names.length; k++) {
      const n = names[(r + k) % names.length];
      const t0 = cpuNow();
      for (let i = 0; i < inner; i++) await members[n]();
      samples[n].push((cpuNow() - t0) / inner);
    }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}
