// wasm/src/guard.hpp — how a C++ error crosses into JS without aborting the module.
//
// Two transports share one set of catch clauses (guard.cpp):
//  - embind functions run their body through `guarded`: a posenc::error or std::bad_alloc
//    thrown by the core is recorded and the function returns null (never a result: those
//    are undefined, numbers or typed-array views); JS then fetches the error as the string
//    "kind:message" with the embind function `lastError`, kind "invalid_argument" |
//    "length_error" | "bad_alloc" (or "internal" for anything else); wasm/js/errors.js
//    turns it into a RangeError (an Error for "internal").
//  - hot raw exports (extern "C", called from JS without embind's generic invoker) run
//    their body through `status_of` and return 0, or 1 after recording the error; JS then
//    fetches it the same way (errors.js `fromStatus`). A decode call thus crosses no
//    embind glue and allocates nothing in JS.
// Only primitives and views of WebAssembly memory cross (no JS object is made or read
// here), so nothing a polluted Object.prototype holds can reach either side.
// Returning instead of rethrowing into JS matters: a JS exception unwinding through WASM
// frames would skip C++ destructors and leak the in-flight exception object, and a throw
// with exceptions disabled would abort the module.
#pragma once

#include "posenc/errors.hpp"

#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <type_traits>

namespace posenc::wasm {

using emscripten::val;

// Runs body(context) and converts the core's exceptions into a null result + record. Any other
// std::exception would be a bug in posenc; it still comes back as a value (kind "internal",
// an Error in JS) rather than as a raw C++ exception pointer thrown into JS. One
// out-of-line function holds every catch clause, so each binding adds no landing pads.
val run_guarded(val (*body)(void*), void* context);

// Runs body(context): 0 on success; 1 after recording what it threw for last_error().
int run_status(void (*body)(void*), void* context);

// Records the size of an allocation that failed (the module's operator new), so the
// bad_alloc message says how many bytes were needed.
void note_refused(std::size_t bytes) noexcept;

// "kind:message" of the latest failed call (JS: module.lastError()); clears it.
std::string last_error();

// guarded([&] { ... return val(...); }): the body's exceptions become null + record.
template <class Body>
val guarded(Body&& body) {
  return run_guarded([](void* b) { return (*static_cast<std::remove_reference_t<Body>*>(b))(); },
                     &body);
}

// status_of([&] { ... }): 0, or 1 with the body's exception recorded (see last_error).
template <class Body>
int status_of(Body&& body) {
  return run_status([](void* b) { (*static_cast<std::remove_reference_t<Body>*>(b))(); }, &body);
}

} // namespace posenc::wasm
