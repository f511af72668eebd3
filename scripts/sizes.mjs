// Prints what a browser downloads on each path of the package, raw and gzip -9, as README's
// size table shows it. Usage: node scripts/sizes.mjs [--json]
//   node scripts/sizes.mjs --functions [simd|scalar|train-simd|train-scalar] [--top N]: what
//   takes the bytes of a binary's code, by part of posenc and by function (names from the
//   build's symbol map, build/wasm-<flavour>/dist/posenc-<name>.js.symbols; run
//   scripts/build-wasm.sh first).
//   node scripts/sizes.mjs --sections [simd|…]: each section of the binary, raw and what it
//   adds to the gzip, and what the data section holds (text, other bytes, segment headers).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../wasm/dist/', import.meta.url));
export const PATHS = {
  'default entry, SIMD': ['posenc.js', 'posenc-simd.wasm'],
  'default entry, scalar': ['posenc.js', 'posenc-scalar.wasm'],
  "'posenc/inline' (both binaries embedded)": ['inline.js'],
  "'posenc/classic' (classic script, both embedded)": ['posenc.classic.js'],
  "'posenc/train', SIMD": ['train.js', 'posenc-train-simd.wasm'],
  "'posenc/train', scalar": ['train.js', 'posenc-train-scalar.wasm'],
  "'posenc/train/inline' (both trainer binaries embedded)": ['train-inline.js'],
};

export function sizes() {
  const kib = (n) => Math.round((n / 1024) * 10) / 10;
  return Object.entries(PATHS).map(([path, files]) => {
    const bytes = files.map((f) => readFileSync(dist + f));
    const raw = bytes.reduce((s, b) => s + b.length, 0);
    const gzip = bytes.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0);
    return { path, files, requests: files.length, rawKiB: kib(raw), gzipKiB: kib(gzip) };
  });
}

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start',
  'element', 'code', 'data', 'data count', 'tag'];

/**
 * What the size reports read of a .wasm file: each section { name, start, end } (start: its
 * id byte), the data segments { offset, bytes }, and every function body [function index,
 * bytes], imports counted first.
 */
function readWasm(wasm) {
  let p = 8;
  const leb = () => {
    let r = 0, shift = 0, b;
    do { b = wasm[p++]; r += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    return r;
  };
  const limits = () => { if (wasm[p++] & 1) leb(); leb(); };
  let imported = 0;
  const sections = [], segments = [], bodies = [];
  while (p < wasm.length) {
    const start = p, id = wasm[p++], size = leb(), end = p + size;
    sections.push({ name: SECTION_NAMES[id] ?? `id ${id}`, start, end });
    if (id === 2) {  // imports: only functions take indices before the module's own
      for (let n = leb(); n > 0; n--) {
        for (let name = 0; name < 2; name++) { const length = leb(); p += length; }  // module, field
        const kind = wasm[p++];
        if (kind === 0) { leb(); imported++; } else if (kind === 1) { p++; limits(); } else if (kind === 2) limits(); else p += 2;
      }
    }
    if (id === 10) for (let n = leb(), i = 0; i < n; i++) { const s = leb(); bodies.push([imported + i, s]); p += s; }
    if (id === 11) {  // active segments of memory 0 at an i32.const offset (what wasm-ld writes)
      for (let n = leb(); n > 0; n--) {
        if (leb() !== 0 || wasm[p++] !== 0x41) throw new Error('a data segment of a form this script does not read');
        const offset = leb();  // non-negative: the sign bit of the LEB is never set
        p++; // end
        const length = leb();
        segments.push({ offset, bytes: wasm.subarray(p, p + length) });
        p += length;
      }
    }
    p = end;
  }
  return { sections, segments, bodies };
}

// name: 'simd', 'scalar', 'train-simd' or 'train-scalar'.
export function sectionSizes(name) {
  const wasm = readFileSync(`${dist}posenc-${name}.wasm`);
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  const total = gz(wasm);
  const { sections, segments } = readWasm(wasm);
  const rows = sections.map(({ name: section, start, end }) => ({
    section, raw: end - start, gzip: total - gz(Buffer.concat([wasm.subarray(0, start), wasm.subarray(end)])),
  }));
  const inSegments = segments.reduce((n, s) => n + s.bytes.length, 0);
  const text = segments.reduce((n, s) => n + (Buffer.from(s.bytes).toString('latin1').match(/[\x20-\x7e]{8,}/g) ?? [])
    .reduce((m, t) => m + t.length, 0), 0);
  const span = segments.length ? Math.max(...segments.map((s) => s.offset + s.bytes.length)) - Math.min(...segments.map((s) => s.offset)) : 0;
  const data = sections.find((s) => s.name === 'data');
  return {
    file: wasm.length, gzip: total, rows,
    data: { segments: segments.length, inSegments, text, headers: data ? data.end - data.start - inSegments : 0, span, zeros: span - inSegments },
  };
}

// The part of the binary a function belongs to, by its demangled name.
const PARTS = [
  ['RoPE kernels (rotary_kernels, half_kernels)', /posenc::detail::(rotate_token|rotate_lanes|rotate_row|expand_lanes|select_rungs)/],
  ['cos/sin rows and tables (angles, table kernels)', /posenc::detail::(sincos|angle_rows|table_|step_rows|fill_offsets|pe_row)|posenc::\(anonymous namespace\)::fill_rows|sinusoidal|rotary_cache::/],
  ['trainer (pe.train)', /train|transformer|adam|task_source|norm_forward|norm_backward|protocol/],
  ['config.json reader', /config/],
  ['multi-axis RoPE and position grids', /axis|mrope|axes|vision/],
  ['attention and scores', /attention|score|dot_/],
  ['RoPE driver and checks', /posenc::/],
  ['embind glue', /emscripten::|embind|_emval/],
  ['C++ runtime (libc++, libc++abi)', /std::|__cxa|__cxx|operator new|operator delete/],
];

// name: 'simd', 'scalar', 'train-simd' or 'train-scalar' (the build tree is the flavour's).
export function functionSizes(name) {
  const dir = fileURLToPath(new URL(`../build/wasm-${name.replace('train-', '')}/dist/`, import.meta.url));
  const wasm = readFileSync(`${dir}posenc-${name}.wasm`);
  const symbols = new Map(readFileSync(`${dir}posenc-${name}.js.symbols`, 'utf8').trim().split('\n')
    .map((line) => [Number(line.slice(0, line.indexOf(':'))), line.slice(line.indexOf(':') + 1)]));
  const { bodies } = readWasm(wasm);
  // The symbol map escapes characters as \XX (hex); c++filt demangles what is still mangled.
  const raw = bodies.map(([i]) => (symbols.get(i) ?? `function ${i}`).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
  let names = raw;
  try {
    names = execFileSync('c++filt', { input: raw.join('\n') + '\n', encoding: 'utf8' }).split('\n').slice(0, raw.length);
  } catch { /* no c++filt: names as the map has them */ }
  const functions = bodies.map(([, bytes], k) => ({ name: names[k], bytes })).sort((a, b) => b.bytes - a.bytes);
  const parts = {};
  for (const f of functions) {
    const part = PARTS.find(([, re]) => re.test(f.name))?.[0] ?? 'C library and the rest';
    parts[part] = (parts[part] ?? 0) + f.bytes;
  }
  return { file: wasm.length, code: functions.reduce((s, f) => s + f.bytes, 0), parts, functions };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--functions')) {
  const name = ['scalar', 'train-simd', 'train-scalar'].find((n) => process.argv.includes(n)) ?? 'simd';
  const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 25;
  const { file, code, parts, functions } = functionSizes(name);
  console.log(`posenc-${name}.wasm: ${file} bytes, ${code} of them function code in ${functions.length} functions`);
  for (const [part, bytes] of Object.entries(parts).sort((a, b) => b[1] - a[1]))
    console.log(`${String(bytes).padStart(8)}  ${(100 * bytes / code).toFixed(1).padStart(5)} %  ${part}`);
  console.log(`\nlargest ${top}:`);
  for (const f of functions.slice(0, top)) console.log(`${String(f.bytes).padStart(8)}  ${f.name.length > 150 ? `${f.name.slice(0, 147)}…` : f.name}`);
} else if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--sections')) {
  const name = ['scalar', 'train-simd', 'train-scalar'].find((n) => process.argv.includes(n)) ?? 'simd';
  const { file, gzip, rows, data } = sectionSizes(name);
  console.log(`posenc-${name}.wasm: ${file} bytes, ${gzip} gzip -9; per section, raw and what it adds to the gzip:`);
  for (const r of rows.sort((a, b) => b.raw - a.raw)) console.log(`${String(r.raw).padStart(8)} ${String(r.gzip).padStart(8)} gzip  ${r.section}`);
  console.log(`\ndata: ${data.segments} segments holding ${data.inSegments} bytes of a ${data.span}-byte memory image ` +
    `(${data.zeros} zero bytes between segments are not stored); ${data.text} bytes of text (runs of 8+ printable ` +
    `characters), ${data.inSegments - data.text} other bytes, ${data.headers} bytes of segment headers`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = sizes();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 1));
  else for (const r of rows) {
    console.log(`${r.path.padEnd(50)} ${r.files.join(' + ').padEnd(30)} ${String(r.rawKiB).padStart(7)} KiB raw ${String(r.gzipKiB).padStart(6)} KiB gzip`);
  }
}
