#!/usr/bin/env node
// posenc — command line. `posenc vectors config.json …` writes the golden vectors of a Hugging
// Face config.json: the decoder's layer map and, per distinct rotary, θ in float64, the
// attention factor and HF-shaped cos/sin at the positions asked for (README: "Golden vectors").
// The document is the package's goldenVectors (the page downloads the same); this file only
// reads arguments and writes the JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { createPosenc, goldenVectors } from '../dist/inline.js';

const USAGE = `usage: posenc vectors CONFIG.json [--positions 0,1,4095,131071] [--seq-len N]
                      [--tower text|vision] [--family NAME] [--stack encoder|decoder]
                      [--out FILE] [--scalar | --simd]`;
const DEFAULT_POSITIONS = [0, 1, 4095, 131071];
const MAX_POSITIONS = 4096;

class UsageError extends Error {}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (command !== 'vectors') throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${JSON.stringify(command.slice(0, 40))}`);
  const args = { file: null, positions: DEFAULT_POSITIONS, seqLen: undefined, tower: undefined, family: undefined, stack: undefined, out: null, simd: undefined };
  const value = (i, flag) => {
    if (i >= rest.length) throw new UsageError(`${flag} needs a value`);
    return rest[i];
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--positions') args.positions = parsePositions(value(++i, a));
    else if (a === '--seq-len') args.seqLen = parseInteger(value(++i, a), '--seq-len', 1);
    else if (a === '--tower') args.tower = value(++i, a);
    else if (a === '--family') args.family = value(++i, a);
    else if (a === '--stack') args.stack = value(++i, a);
    else if (a === '--out') args.out = value(++i, a);
    else if (a === '--scalar') args.simd = false;
    else if (a === '--simd') args.simd = true;
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${JSON.stringify(a.slice(0, 40))}`);
    else if (args.file === null) args.file = a;
    else throw new UsageError('one config file only');
  }
  if (args.file === null) throw new UsageError('the config.json file is required');
  return args;
}

function parseInteger(text, name, lo) {
  if (!/^\d{1,16}$/.test(text)) throw new UsageError(`${name} must be an integer >= ${lo}, got ${JSON.stringify(text.slice(0, 40))}`);
  const n = Number(text);
  if (n < lo || n > 2 ** 53) throw new UsageError(`${name} must be an integer in [${lo}, 2^53], got ${n}`);
  return n;
}

function parsePositions(text) {
  const parts = text.split(',');
  if (parts.length > MAX_POSITIONS) throw new UsageError(`--positions takes at most ${MAX_POSITIONS} positions`);
  return parts.map((p) => parseInteger(p.trim(), '--positions', 0));
}

async function main(argv) {
  const args = parseArgs(argv);
  const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  const config = JSON.parse(readFileSync(args.file, 'utf8'));
  const pe = await createPosenc(args.simd === undefined ? {} : { simd: args.simd });
  const text = `${JSON.stringify(goldenVectors(pe, config, { ...args, version }), null, 1)}\n`;
  if (args.out === null) process.stdout.write(text);
  else writeFileSync(args.out, text);
}

main(process.argv.slice(2)).catch((e) => {
  const message = String(e.message).replace(/^posenc: /, '');
  process.stderr.write(`posenc: ${e instanceof UsageError ? `${message}\n${USAGE}` : message}\n`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
});
