// From a clean clone (the committed tree only, nothing built): `npm pack --dry-run` builds the
// binaries and bundles (prepack) from nothing; `npm pack` then packs them (its prepack rebuild
// finds nothing to do) and the tarball works; with a broken toolchain and no build tree it
// fails loudly and writes no tarball; `npm install git+file://…` (a git dependency) builds from
// nothing in npm's own clone (prepare) and installs a working package.
import test from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, run } from './tarball.mjs';

// Inside the checkout's build/ (ignored): npm test's compiler cache keys paths relative to the
// checkout, so the clone's build finds the objects this checkout compiled (a clone elsewhere
// compiles everything again; either way nothing of this checkout's build is copied).
mkdirSync(join(repoRoot, 'build'), { recursive: true });
const root = mkdtempSync(join(repoRoot, 'build', 'clone-test-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
const clone = join(root, 'clone');
run('git', ['clone', '--quiet', '--no-local', '--depth', '1', `file://${repoRoot}`, clone], root);

const CHECK = `
  import { createPosenc } from 'posenc';
  const pe = await createPosenc();
  const scalar = await createPosenc({ simd: false });
  console.log(JSON.stringify([pe.simd, scalar.simd, pe.sinusoidal({ dim: 8, positions: [1] })[0]]));`;

function assertInstalledWorks(dir) {
  writeFileSync(join(dir, 'check.mjs'), CHECK);
  const [simd, scalar, pe1] = JSON.parse(run('node', ['check.mjs'], dir));
  assert.equal(simd, true);
  assert.equal(scalar, false);
  assert.ok(Math.abs(pe1 - 0.841471) < 1e-6, String(pe1));
}

function consumer(name) {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

const npm = (args, cwd, env = {}) =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 });

test('npm pack --dry-run in a clean clone (no node_modules) builds and lists the package, writes no tarball', () => {
  // npm exports npm_config_dry_run to prepack; the bootstrap's nested npm ci must still install.
  assert.ok(!existsSync(join(clone, 'node_modules')), 'a clean clone');
  const r = npm(['pack', '--dry-run', '--json'], clone);
  assert.equal(r.status, 0, r.stderr);
  const [info] = JSON.parse(r.stdout);
  const files = info.files.map((f) => f.path);
  for (const f of ['wasm/dist/posenc-simd.wasm', 'wasm/dist/posenc-scalar.wasm', 'wasm/dist/posenc.js',
    'wasm/dist/posenc-train-simd.wasm', 'wasm/dist/posenc-train-scalar.wasm', 'wasm/dist/train.js']) {
    assert.ok(files.includes(f), `the dry run lists ${f}`);
  }
  assert.deepEqual(readdirSync(clone).filter((f) => f.endsWith('.tgz')), [], 'no tarball written');
  assert.doesNotMatch(r.stderr, /EBADENGINE|Unsupported engine/, 'no dependency needs a newer Node');
  // The dry run built everything from nothing; the real pack below reuses that build.
});

test('npm pack in the clone packs the package; the tarball installs and works', () => {
  const out = join(root, 'pack');
  mkdirSync(out);
  const r = npm(['pack', '--json', '--pack-destination', out], clone);
  assert.equal(r.status, 0, r.stderr);
  const [info] = JSON.parse(r.stdout);
  const files = info.files.map((f) => f.path);
  for (const f of ['wasm/dist/posenc-simd.wasm', 'wasm/dist/posenc-scalar.wasm', 'wasm/dist/posenc.js', 'wasm/dist/inline.cjs',
    'wasm/dist/posenc-train-simd.wasm', 'wasm/dist/train-inline.cjs']) {
    assert.ok(files.includes(f), `tarball has ${f}`);
  }
  const dir = consumer('from-tarball');
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(out, info.filename)], dir);
  assertInstalledWorks(dir);
});

test('npm pack with a toolchain that fails: non-zero exit, the reason shown, no tarball', () => {
  // No build tree, so the toolchain must run; stand-ins for Emscripten's tools fail the way a
  // broken install does.
  rmSync(join(clone, 'build'), { recursive: true, force: true });
  rmSync(join(clone, 'wasm/dist'), { recursive: true, force: true });
  const stubs = join(root, 'broken-emscripten');
  mkdirSync(stubs);
  for (const tool of ['emcmake', 'em++', 'emcc']) {
    writeFileSync(join(stubs, tool), '#!/bin/sh\necho "emscripten stub: this toolchain is broken" >&2\nexit 3\n');
    chmodSync(join(stubs, tool), 0o755);
  }
  const out = join(root, 'broken-pack');
  mkdirSync(out);
  const r = npm(['pack', '--pack-destination', out], clone, { PATH: `${stubs}:${process.env.PATH}` });
  assert.notEqual(r.status, 0, r.stdout);
  assert.match(r.stderr, /emscripten stub: this toolchain is broken/);
  assert.match(r.stderr, /npm error/);
  assert.deepEqual(readdirSync(out), []);
});

test('a git dependency (npm install git+file://…) builds in npm\'s clone and works', () => {
  const dir = consumer('from-git');
  // npm clones outside this checkout; with every absolute path keyed relative to the build
  // directory (base dir /), the compiler cache still finds the objects of the same sources.
  // Configure, build and prepare all run; only identical compiles are served from the cache.
  const r = npm(['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], dir,
    { CCACHE_BASEDIR: '/' });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assertInstalledWorks(dir);
});
