// The package as a user gets it: `npm pack` of this checkout (its prepack builds what is out
// of date), installed from the .tgz into fresh projects. Shared by tests/packaging and
// tests/bundlers.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

/** Runs a command, returns stdout; on failure the error carries stdout and stderr. */
export function run(cmd, args, cwd, env) {
  return execFileSync(cmd, args, {
    cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
}

/** A scratch folder removed when the process ends. */
export function scratch(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `posenc-${prefix}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let packed;
/** `npm pack` of this checkout, once per process: { tarball, files, size }. */
export function pack() {
  if (!packed) {
    const dest = scratch('pack');
    const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dest], repoRoot));
    packed = { tarball: join(dest, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size };
  }
  return packed;
}

/** A new project folder `name` under `root` with the packed posenc installed from the .tgz. */
export function project(root, name, manifest = { type: 'module' }) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...manifest }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', pack().tarball], dir);
  return dir;
}
