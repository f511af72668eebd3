// Marks a posenc binary with its flavour: a custom section `posenc.flavour` holding "simd",
// "scalar", "train-simd" or "train-scalar" (the trainer's binaries, 'posenc/train'), which the
// loader (wasm/js/loader.js) reads to tell a wrong or foreign .wasm from the one it asked for.
// Custom sections do not change what the module does. Idempotent: an existing
// `posenc.flavour` section is replaced. Usage: node scripts/tag-wasm.mjs <file> <flavour>
import { readFileSync, writeFileSync } from 'node:fs';

const SECTION = 'posenc.flavour';
const [file, flavour] = process.argv.slice(2);
if (!file || !['simd', 'scalar', 'train-simd', 'train-scalar'].includes(flavour)) {
  console.error('usage: node scripts/tag-wasm.mjs <file.wasm> simd|scalar|train-simd|train-scalar');
  process.exit(2);
}

const uleb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const readUleb = (bytes, at) => {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  return [value >>> 0, at];
};

const bytes = readFileSync(file);
if (bytes.readUInt32BE(0) !== 0x0061736d) throw new Error(`${file} is not a WebAssembly module`);
const kept = [bytes.subarray(0, 8)];
for (let at = 8; at < bytes.length;) {
  const start = at;
  const id = bytes[at++];
  let size;
  [size, at] = readUleb(bytes, at);
  const end = at + size;
  let name = '';
  if (id === 0) {
    const [length, nameAt] = readUleb(bytes, at);
    name = bytes.subarray(nameAt, nameAt + length).toString('utf8');
  }
  if (name !== SECTION) kept.push(bytes.subarray(start, end));
  at = end;
}
const name = Buffer.from(SECTION), payload = Buffer.from(flavour);
const content = Buffer.concat([Buffer.from(uleb(name.length)), name, payload]);
kept.push(Buffer.from([0, ...uleb(content.length)]), content);
writeFileSync(file, Buffer.concat(kept));
