// wasm/src/guard.hpp — how a C++ error crosses into JS without aborting the module.
//
// Every embind-exposed function runs its body through `guarded`. A posenc::error or
// std::bad_alloc thrown by the core is caught (guard.cpp) and returned as an *error value*
// `{ posencError: kind, message }`, kind "invalid_argument" | "length_error" | "bad_alloc"
// (or "internal" for anything else); wasm/js/errors.js turns it into a RangeError (an Error
// for "internal"). Returning instead of rethrowing into JS matters: a JS exception unwinding
// through WASM frames would skip C++ destructors and leak the in-flight exception object,
// and a throw with exceptions disabled would abort the module.
#pragma once

#include "posenc/errors.hpp"

#include <emscripten/val.h>

#include <type_traits>

namespace posenc::wasm {

using emscripten::val;

// Runs body(context) and converts the core's exceptions into error values. Any other
// std::exception would be a bug in posenc; it still comes back as a value (kind "internal",
// an Error in JS) rather than as a raw C++ exception pointer thrown into JS. One
// out-of-line function holds every catch clause, so each binding adds no landing pads.
val run_guarded(val (*body)(void*), void* context);

// guarded([&] { ... return val(...); }): the body's exceptions become error values.
template <class Body>
val guarded(Body&& body) {
  return run_guarded([](void* b) { return (*static_cast<std::remove_reference_t<Body>*>(b))(); },
                     &body);
}

} // namespace posenc::wasm
