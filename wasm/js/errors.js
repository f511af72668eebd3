// wasm/js/errors.js — the JS half of the error transport (C++ half: wasm/src/guard.hpp).
//
// A failing embind function returns null (a raw export returns status 1) and leaves its
// error in the module; `lastError()` hands it over as one string "kind:message", kind
// 'invalid_argument' | 'length_error' | 'bad_alloc' | 'internal'. Only primitives cross:
// no object whose keys could be inherited from a polluted Object.prototype. Every error the
// core reports is an argument or size outside its allowed range → RangeError ('internal',
// any other C++ exception, would be a posenc bug: a plain Error).

// The core names arguments in C++ snake_case (head_dim, scaling.attention_factor); a JS
// caller passed headDim and scaling.attentionFactor, so the message names those.
// (size_t is a type, not an argument.)
export function jsNames(message) {
  return message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) =>
    word === 'size_t' ? word : word.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()));
}

/** e with an own `kind` (defined, not assigned: an Object.prototype setter cannot take it). */
export function withKind(e, kind) {
  return Object.defineProperty(e, 'kind', { value: kind, writable: true, configurable: true, enumerable: true });
}

// Characters a message from the core never passes on as they are: the core quotes a
// caller's strings short and escaped (detail::quoted); this is the net under it, at the one
// place its messages enter JS (controls, separators, bidirectional format characters).
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const MAX_MESSAGE = 2000;

function safeMessage(m) {
  const text = m.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}… (${text.length} characters)` : text;
}

/**
 * Throws the module's recorded error; `rename` maps core words to the JS argument names;
 * `need` (a function, called only for an allocation the module could not make) says what
 * the memory was for, naming the arguments that sized it.
 */
export function throwLast(module, rename, need) {
  const text = module.lastError();
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  let message = jsNames(safeMessage(text.slice(colon + 1)));
  if (rename !== undefined) message = rename(message);
  if (kind === 'bad_alloc' && need !== undefined) message = `${message}: ${need()}`;
  throw withKind(kind === 'internal' ? new Error(message) : new RangeError(message), kind);
}

/** An embind result: null → the recorded error is thrown (see throwLast). */
export function unwrap(module, r, rename, need) {
  if (r === null) throwLast(module, rename, need);
  return r;
}

/** For the raw exports (wasm/src/guard.hpp): status 1 → throws the recorded error. */
export function fromStatus(module, status, rename) {
  if (status !== 0) throwLast(module, rename);
}
