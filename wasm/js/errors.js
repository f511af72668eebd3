// wasm/js/errors.js — the JS half of the error transport (C++ half: wasm/src/guard.hpp).
//
// A bound function returns either its result or an error value
// `{ posencError: kind, message }`; `unwrap` throws the latter as a RangeError, because
// every error the core reports is an argument or size outside its allowed range.

export function isErrorValue(r) {
  return r !== null && typeof r === 'object' && typeof r.posencError === 'string';
}

export function unwrap(r) {
  if (isErrorValue(r)) {
    const e = new RangeError(r.message);
    e.kind = r.posencError; // 'invalid_argument' | 'length_error' | 'bad_alloc'
    throw e;
  }
  return r;
}
