// wasm/js/positions.js — the angle table p·θ_i (core: posenc/angle_table.hpp) and the input
// layer scale·e + PE(p) (core: posenc/embedding.hpp). Options are read once through
// check.options; arrays are copied (or staged) before anything can grow the heap.
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { align } from './heap.js';
import { PE_LAYOUTS } from './sinusoidal.js';

export function positionsApi({ module, heap }) {
  // Stages `arrays` ([array, tag, name] triples) in one block, calls call(ptrs), copies the result out.
  const staged = (arrays, what, resultTag, call) => {
    let total = 0;
    for (const [a] of arrays) total += align(check.lengthOf(a) * 4);
    const base = heap.acquire(total, what);
    try {
      const ptrs = [];
      let at = base;
      for (const [a, tag, name] of arrays) {
        heap.put(at, a, tag, name);
        ptrs.push(at);
        at += align(check.lengthOf(a) * 4);
      }
      return heap.take(unwrap(module, call(ptrs)), resultTag);
    } finally {
      heap.release(base);
    }
  };

  return {
    /** p·θ_i for each listed position, Float64Array(positions.length · dim/2), row-major. */
    positionAngles(opts) {
      const o = check.options(opts, 'positionAngles()', ['dim', 'base', 'positions']);
      const dim = check.dim('dim', o.dim);
      const base = baseArg(o);
      const positions = check.positions('positions', o.positions, heap.buffer);
      const n = check.lengthOf(positions);
      return staged([[positions, 'Int32Array', 'positions']], 'positionAngles()', 'Float64Array',
        ([p]) => module.positionAngles(dim, base, p, n));
    },

    /** scale·e + PE(positions[r]) row by row: e is positions.length × dim floats → Float32Array. */
    addSinusoidal(opts) {
      const o = check.options(opts, 'addSinusoidal()', ['e', 'dim', 'base', 'positions', 'scale', 'layout']);
      const e = check.floatInput('e', o.e, heap.buffer);
      const dim = check.dim('dim', o.dim);
      const base = baseArg(o);
      const positions = check.positions('positions', o.positions, heap.buffer);
      const scale = o.scale === undefined ? 1 : check.number('scale', o.scale);
      const layout = o.layout === undefined ? 'interleaved' : check.oneOf('layout', o.layout, PE_LAYOUTS);
      const ne = check.lengthOf(e), n = check.lengthOf(positions);
      return staged([[e, 'Float32Array', 'e'], [positions, 'Int32Array', 'positions']], 'addSinusoidal()', 'Float32Array',
        ([pe, pp]) => module.addSinusoidal(pe, ne, dim, base, pp, n, scale, layout));
    },
  };
}
