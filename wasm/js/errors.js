// wasm/js/errors.js — the JS half of the error transport (C++ half: wasm/src/guard.hpp).
//
// A bound function returns either its result or an error value
// `{ posencError: kind, message }`; `unwrap` throws the latter as a RangeError, because
// every error the core reports is an argument or size outside its allowed range (kind
// 'internal', any other C++ exception, would be a posenc bug: a plain Error).

export function isErrorValue(r) {
  return r !== null && typeof r === 'object' && typeof r.posencError === 'string';
}

// The core names arguments in C++ snake_case (head_dim, scaling.attention_factor); a JS
// caller passed headDim and scaling.attentionFactor, so the message names those.
// (size_t is a type, not an argument.)
export function jsNames(message) {
  return message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) =>
    word === 'size_t' ? word : word.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()));
}

export function unwrap(r) {
  if (isErrorValue(r)) {
    const message = jsNames(r.message);
    const e = r.posencError === 'internal' ? new Error(message) : new RangeError(message);
    e.kind = r.posencError; // 'invalid_argument' | 'length_error' | 'bad_alloc' | 'internal'
    throw e;
  }
  return r;
}

/** For the raw exports (wasm/src/guard.hpp): status 1 → throws the recorded error. */
export function fromStatus(module, status) {
  if (status !== 0) unwrap(module.lastError());
}
