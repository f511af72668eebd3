// wasm/js/tensor.js — pe.tensor(): arrays that live in WebAssembly memory (heap.js Tensor),
// float32 or the bits of float16 / bfloat16 values, for zero-copy calls.
import * as check from './check.js';
import { Tensor, tensorPtr } from './heap.js';

export const TENSOR_DTYPES = ['float32', 'float16', 'bfloat16'];

// The dtype of tensor(data, { dtype }): a Float32Array holds float32, a Float16Array
// float16, a Uint16Array the bits of the dtype given (required); a dtype given for a
// Float32Array / Float16Array must be its own (no conversion).
function dataDtype(tag, data, given) {
  const own = tag === 'Float32Array' ? 'float32' : tag === 'Float16Array' ? 'float16' : null;
  if (tag === 'Uint16Array') {
    if (given === undefined || given === 'float32') {
      throw new TypeError(`posenc: tensor() of a Uint16Array needs dtype 'float16' or 'bfloat16' (what its bits hold)` +
        `${given === undefined ? '' : `, got '${given}'`}`);
    }
    return given;
  }
  if (own === null) {
    throw new TypeError(`posenc: tensor() data must be a Float32Array, a Uint16Array or a Float16Array, got ${check.describe(data)}`);
  }
  if (given !== undefined && given !== own) {
    throw new TypeError(`posenc: tensor() of a ${tag} holds ${own}, so dtype must be '${own}' or absent, got '${given}' ` +
      '(tensor() copies, it does not convert)');
  }
  return own;
}

export function tensorApi({ module, heap }) {
  return {
    /**
     * An array in WebAssembly memory (zero-copy argument): `length` zeros, or a copy of
     * `data`; options.dtype 'float32' (default) | 'float16' | 'bfloat16'.
     */
    tensor(lengthOrData, opts) {
      const o = check.options(opts, 'tensor()', ['dtype']);
      const given = o.dtype === undefined ? undefined : check.oneOf('dtype', o.dtype, TENSOR_DTYPES);
      const tag = check.tagOf(lengthOrData);
      if (tag !== undefined) {
        const dtype = dataDtype(tag, lengthOrData, given);
        const a = check.typedArray('data', lengthOrData, tag); // attached, pinned
        const n = check.lengthOf(a);
        const bits = dtype === 'float32' || check.tagOf(a) === 'Uint16Array' ? a
          : new check.Uint16(check.bufferOf(a), check.byteOffsetOf(a), n);
        // Copied first when it views WebAssembly memory: allocating the tensor may grow it.
        const data = check.bufferOf(bits) === heap.buffer ? check.copyOf(bits, dtype === 'float32' ? 'Float32Array' : 'Uint16Array') : bits;
        const t = new Tensor(heap, n, dtype);
        heap.put(tensorPtr(t), data, dtype === 'float32' ? 'Float32Array' : 'Uint16Array');
        return t;
      }
      if (typeof lengthOrData !== 'number') {
        throw new TypeError(`posenc: tensor() takes a length or a typed array, got ${check.describe(lengthOrData)}`);
      }
      const n = check.size('length', lengthOrData);
      const dtype = given === undefined ? 'float32' : given;
      const t = new Tensor(heap, n, dtype);
      const bytes = (dtype === 'float32' ? 4 : 2) * n;
      module.HEAPU8.fill(0, tensorPtr(t), tensorPtr(t) + bytes); // malloc'd memory may hold old values
      return t;
    },
  };
}
