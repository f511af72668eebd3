// wasm/js/errors.js — the JS half of the error transport (C++ half: wasm/src/guard.hpp).
//
// A bound function returns either its result or an error value
// `{ posencError: kind, message }`; `unwrap` throws the latter as a RangeError, because
// every error the core reports is an argument or size outside its allowed range (kind
// 'internal', any other C++ exception, would be a posenc bug: a plain Error).

export function isErrorValue(r) {
  return r !== null && typeof r === 'object' && typeof r.posencError === 'string';
}

export function unwrap(r) {
  if (isErrorValue(r)) {
    const e = r.posencError === 'internal' ? new Error(r.message) : new RangeError(r.message);
    e.kind = r.posencError; // 'invalid_argument' | 'length_error' | 'bad_alloc' | 'internal'
    throw e;
  }
  return r;
}
