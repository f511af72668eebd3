// wasm/js/loader.js — picks, fetches, checks and instantiates one of an entry's two binaries
// (the package's, binaries.js; the trainer's, train-binaries.js).
//
// The SIMD binary needs WebAssembly SIMD128 and exception handling (and the non-trapping
// float-to-int conversions, which every engine with SIMD128 has); other engines get the
// scalar one. The loader compiles the .wasm itself and hands the instance to
// the Emscripten glue (its `instantiateWasm` hook), so one code path serves Node (bytes read
// from the file), browsers (one fetch, streaming compile when the server says
// application/wasm), bundlers (binaries.js) and the inline entry (bytes embedded). Every
// failure — a missing file, an HTML page where the .wasm should be, truncated bytes, a module
// that is not posenc's or the other flavour — rejects the promise with a message saying what
// arrived and what to do; nothing is left pending and no rejection goes unhandled.
import { boolean, describe, quote } from './check.js';

// The smallest module using a v128 instruction (i8x16.splat + i8x16.popcnt), from
// wasm-feature-detect; WebAssembly.validate is synchronous and compiles nothing.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
  253, 15, 253, 98, 11,
]);

// The smallest module using WebAssembly exception handling (try … catch_all), from
// wasm-feature-detect. The SIMD binary is built with -fwasm-exceptions (wasm/CMakeLists.txt),
// so it also needs this (Chrome 95, Firefox 100, Safari 15.2, Node 17); the scalar one
// keeps Emscripten's JS-based exceptions and runs on any engine with WebAssembly.
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

// scripts/tag-wasm.mjs writes the flavour into this custom section of each binary: the
// package's 'simd' and 'scalar', the trainer's 'train-simd' and 'train-scalar'.
const FLAVOUR_SECTION = 'posenc.flavour';
const TAGS = ['simd', 'scalar', 'train-simd', 'train-scalar'];
const fileOf = (tag) => `posenc-${tag}.wasm`;
const ENTRY_OF = { false: "'posenc' (createPosenc)", true: "'posenc/train' (createTrainer)" };

// What to do when an entry's binary is missing or wrong, named for that entry.
const fixFor = ({ create, inline }) => `serve both .wasm files of this posenc version next to its JS, ` +
  `import '${inline}' (both binaries embedded), or pass ${create}({ locateWasm: (flavour) => url })`;

// The most bytes read from any source: each binary is a few hundred KiB, so this leaves
// room for any build while an endless body, a FIFO or /dev/zero stops early, its memory
// bounded, with a message that says what arrived.
const MAX_WASM_BYTES = 32 * 2 ** 20;

/** The options createPosenc() reads for the loader. */
export const LOADER_OPTIONS = ['simd', 'wasm', 'locateWasm'];

function validates(bytes) {
  try {
    return WebAssembly.validate(bytes);
  } catch {
    return false;
  }
}

/** True when this engine can run the SIMD binary: SIMD128 and exception handling. */
export function simdSupported() {
  return validates(SIMD_PROBE) && validates(EXCEPTIONS_PROBE);
}

const isBytes = (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v);
// (false for a revoked Proxy, whose prototype cannot be read)
function isSource(v) {
  try {
    return typeof v === 'string' || v instanceof URL || isBytes(v) || v instanceof WebAssembly.Module;
  } catch {
    return false;
  }
}
const SOURCE_TYPES = 'a URL, a string, bytes (ArrayBuffer or a typed array) or a WebAssembly.Module';

function loadError(message, cause) {
  return new Error(`posenc: ${message}`, cause === undefined ? undefined : { cause });
}

// What a byte string looks like, for messages: "an HTML page (starts with "<!doctype html>")".
function describeBytes(bytes) {
  if (bytes.length === 0) return 'an empty file (0 bytes)';
  const head = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 64)).trimStart();
  const shown = JSON.stringify(text.split('\n')[0].slice(0, 40));
  if (/^<(!doctype|html|head|body|!--)/i.test(text)) return `an HTML page (starts with ${shown})`;
  if (/^[[{"]/.test(text)) return `JSON or text (starts with ${shown})`;
  if (/^[\x20-\x7e\t\r\n]{8}/.test(text)) return `text (starts with ${shown})`;
  return `${bytes.length} bytes starting with ${head}`;
}

function asBytes(source) {
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
}

async function compileBytes(bytes, origin, fix) {
  const isWasm = bytes.length >= 8 && bytes[0] === 0 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;
  if (!isWasm) throw loadError(`${origin} is not WebAssembly: it is ${describeBytes(bytes)}; ${fix}`);
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw loadError(`${origin} (${bytes.length} bytes) does not compile: ${e.message}. A truncated ` +
      `or damaged download, or a binary this engine cannot run; ${fix}`, e);
  }
}

function tooLong(origin, head, fix) {
  return loadError(`${origin} is not a posenc binary: more than ${MAX_WASM_BYTES} bytes arrived (posenc's ` +
    `binaries are a few hundred KiB), starting as ${describeBytes(head)}; reading stopped there. An endless ` +
    `stream, a device or a FIFO; ${fix}`);
}

// The bytes of a stream (a fetch body) up to MAX_WASM_BYTES; past that the stream is
// cancelled and the promise rejects, so memory stays bounded whatever the source sends.
async function readBounded(stream, origin, fix) {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
    if (total > MAX_WASM_BYTES) {
      reader.cancel().catch(() => {});
      throw tooLong(origin, chunks[0], fix);
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

// What a file system entry is, for a message.
function entryKind(stat) {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

// Node, Deno and Bun: a file: URL. process.getBuiltinModule (Node ≥ 20.16) instead of an
// import, which bundlers would try to resolve (or warn about) for browsers. Only a regular
// file is opened (a FIFO would block on open, /dev/zero never end), and at most
// MAX_WASM_BYTES + 1 bytes of it are read.
async function readFileBytes(url, fix) {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises');
  if (!fs) {
    throw loadError(`cannot read ${url.href}: reading files needs Node ≥ 20.16 ` +
      '(process.getBuiltinModule); pass the bytes instead (wasm: fs.readFileSync(path))');
  }
  let handle;
  try {
    const stat = await fs.stat(url);
    if (!stat.isFile()) {
      throw loadError(`${url.href} is ${entryKind(stat)}, not a .wasm file; ${fix}`);
    }
    handle = await fs.open(url, 'r');
    const bytes = new Uint8Array(Math.min(stat.size, MAX_WASM_BYTES) + 1);
    let total = 0;
    for (;;) {
      if (total === bytes.length) {
        if (total > MAX_WASM_BYTES) throw tooLong(url.href, bytes.subarray(0, 64), fix);
        break; // the file grew since stat: read what it had
      }
      const { bytesRead } = await handle.read(bytes, total, bytes.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return bytes.subarray(0, total);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('posenc: ')) throw e;
    throw loadError(`cannot read ${url.href} (${e.code ?? e.message}). A single-file bundle ` +
      `(esbuild --bundle, Rollup) does not copy the .wasm files: ${fix}`, e);
  } finally {
    await handle?.close();
  }
}

// Vite 7's dev server pre-bundles dependencies into node_modules/.vite/deps/ without their
// files, so the URL next to the bundled module points at nothing there (the server answers
// with the app's index.html). The package's own copy is served from node_modules/posenc/.
function undoDevPrebundle(url, tag) {
  const m = /^(.*\/node_modules\/)\.vite\/[^/]+\/[^/]*$/.exec(url.pathname);
  return m && url.protocol.startsWith('http') ? new URL(`${m[1]}posenc/wasm/dist/${fileOf(tag)}`, url) : url;
}

async function fetchAndCompile(url, fix) {
  let res;
  try {
    res = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw loadError(`failed to fetch ${url.href} (${e.message}); ${fix}`, e);
  }
  if (!res.ok) {
    res.body?.cancel().catch(() => {});
    throw loadError(`failed to fetch ${url.href} (HTTP ${res.status}); ${fix} ` +
      "(a Vite dev server that pre-bundled posenc elsewhere: optimizeDeps: { exclude: ['posenc'] })");
  }
  // With a Content-Length the HTTP layer ends the body there, so it is read whole (and
  // compiled as it arrives) the way browsers track it; a body of no announced length may
  // never end, so it is read through a bound. (Reading a body as a stream shows in
  // Chromium's DevTools as a cancelled request, hence not for every body.)
  const announced = res.headers.get('content-length');
  if (announced === null) return compileBytes(await readBounded(res.body, url.href, fix), url.href, fix);
  if (Number(announced) > MAX_WASM_BYTES) {
    res.body?.cancel().catch(() => {});
    throw loadError(`${url.href} is not a posenc binary: it announces ${announced} bytes (Content-Length), ` +
      `more than the ${MAX_WASM_BYTES} any posenc binary stays under; ${fix}`);
  }
  const type = res.headers.get('content-type') ?? '';
  if (WebAssembly.compileStreaming && /^application\/wasm\b/.test(type)) {
    const copy = res.clone(); // to say what arrived if it does not compile
    try {
      return await WebAssembly.compileStreaming(res);
    } catch {
      // falls through: compileBytes names what the bytes are (an HTML page, truncated …)
    }
    return compileBytes(new Uint8Array(await copy.arrayBuffer()), url.href, fix);
  }
  return compileBytes(new Uint8Array(await res.arrayBuffer()), url.href, fix);
}

/** Any accepted source → WebAssembly.Module, or a rejection that says what arrived. */
async function compile(source, origin, fix) {
  if (source instanceof WebAssembly.Module) return source;
  if (isBytes(source)) return compileBytes(asBytes(source), origin, fix);
  // Relative strings: against the page in a browser, the working directory in Node.
  const cwd = globalThis.process?.cwd?.();
  let url;
  try {
    url = new URL(source, globalThis.location?.href ?? (cwd && `file://${cwd}/`));
  } catch (e) {
    throw loadError(`${origin} is not a valid URL: ${JSON.stringify(String(source))}`, e);
  }
  if (url.protocol === 'file:') return compileBytes(await readFileBytes(url, fix), url.href, fix);
  return fetchAndCompile(url, fix);
}

// The binary's tag ('simd', 'train-scalar', …), or undefined for a module that is not posenc's.
function tagOf(module) {
  const [section] = WebAssembly.Module.customSections(module, FLAVOUR_SECTION);
  const name = section && new TextDecoder().decode(section);
  return TAGS.includes(name) ? name : undefined;
}

function checkTag(module, wanted, origin, fix) {
  const found = tagOf(module);
  if (found === wanted) return;
  const exports = WebAssembly.Module.exports(module).length;
  const what = found ? `posenc's ${found} binary (${fileOf(found)})` :
    `a WebAssembly module that is not posenc's (${exports} exports, no '${FLAVOUR_SECTION}' section)`;
  const other = found && found.startsWith('train-') !== wanted.startsWith('train-');
  throw loadError(`${origin} should be posenc's ${wanted} binary (${fileOf(wanted)}) but is ${what}; ` +
    (!found ? fix : other ? `that one is ${ENTRY_OF[found.startsWith('train-')]}'s` : 'give each flavour its own file'));
}

// Runs the glue on a compiled module; the glue offers no failure path of its own, so every
// failure inside the hook rejects `failed`, which races the factory's promise.
async function instantiate(glue, module, origin, fix) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const instantiateWasm = (imports, receiveInstance) => {
    const missing = WebAssembly.Module.imports(module).find((i) => !(i.name in (imports[i.module] ?? {})));
    if (missing) {
      fail(loadError(`${origin} does not fit this version's JS (it imports ${missing.module}.` +
        `${missing.name}, which the JS does not provide): the .wasm and the JS come from ` +
        `different builds; ${fix}`));
    } else {
      WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance, module))
        .catch((e) => fail(loadError(`${origin} failed to start: ${e?.message ?? e}`, e)));
    }
    return {}; // asynchronous instantiation
  };
  let ready;
  try {
    ready = glue({ instantiateWasm });
  } catch (e) {
    throw loadError(`the module failed to start: ${e?.message ?? e}`, e);
  }
  return Promise.race([ready, failed]);
}

function checkOptions(simd, wasm, locateWasm) {
  if (simd !== undefined) boolean('simd', simd);
  if (wasm !== undefined && !isSource(wasm)) {
    throw new TypeError(`posenc: wasm must be ${SOURCE_TYPES}, got ${describe(wasm)}`);
  }
  if (locateWasm !== undefined && typeof locateWasm !== 'function') {
    throw new TypeError(`posenc: locateWasm must be a function (flavour) => URL, got ${typeof locateWasm}`);
  }
  if (wasm !== undefined && locateWasm !== undefined) {
    throw new TypeError('posenc: pass either wasm (one binary) or locateWasm (both), not both');
  }
}

/**
 * Loads the Emscripten module of an entry: `entry` = { binaries: binaries.js's object, prefix:
 * '' (the package) or 'train-' (the trainer), create and inline: the entry's loader function
 * and inline import, for messages }. `simd`: true / false forces a flavour, undefined picks
 * by simdSupported(). `wasm`: one binary as a URL / string / bytes / WebAssembly.Module (its
 * flavour is read from the binary unless `simd` says which it must be). `locateWasm`:
 * (flavour: 'simd' | 'scalar') => the URL (or bytes, or Module) of that flavour's binary.
 */
export async function loadModule(options, { binaries, prefix, ...names }) {
  // Each option read once, own properties only (an inherited key is not an option).
  const [simd, wasm, locateWasm] = LOADER_OPTIONS.map((k) => (Object.hasOwn(options, k) ? options[k] : undefined));
  checkOptions(simd, wasm, locateWasm);
  const fix = fixFor(names);
  let flavour = simd === undefined ? (simdSupported() ? 'simd' : 'scalar') : simd ? 'simd' : 'scalar';
  let source, origin;
  if (wasm !== undefined) {
    source = wasm;
    origin = 'the wasm option';
  } else if (locateWasm !== undefined) {
    origin = `locateWasm('${flavour}')`;
    const located = locateWasm(flavour);
    // Awaiting a revoked Proxy would throw the engine's message (it has no readable `then`).
    if (describe(located) === 'a revoked Proxy') {
      throw new TypeError(`posenc: ${origin} must return ${SOURCE_TYPES}, got a revoked Proxy`);
    }
    try {
      source = await located;
    } catch (e) {
      // Its promise rejected (or resolved to what cannot be awaited: a revoked Proxy).
      throw new TypeError(`posenc: ${origin} did not give a binary: ${quote(e instanceof Error ? e.message : String(e))}`, { cause: e });
    }
    if (!isSource(source)) throw new TypeError(`posenc: ${origin} must return ${SOURCE_TYPES}, got ${describe(source)}`);
  } else {
    source = binaries[flavour].wasm();
    if (source instanceof URL) source = undoDevPrebundle(source, prefix + flavour);
    origin = source instanceof URL ? source.href : `the embedded ${fileOf(prefix + flavour)}`;
  }
  const module = await compile(source, origin, fix);
  const tag = tagOf(module);
  const own = ['simd', 'scalar'].find((f) => prefix + f === tag);
  if (wasm !== undefined && simd === undefined && own) flavour = own;
  checkTag(module, prefix + flavour, origin, fix);
  const instance = await instantiate(binaries[flavour].glue, module, origin, fix);
  return { module: instance, simd: flavour === 'simd' };
}
