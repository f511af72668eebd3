// wasm/src/guard.hpp — how a C++ error crosses into JS without aborting the module.
//
// Every embind-exposed function runs its body through `guarded`. A posenc::error or
// std::bad_alloc thrown by the core is caught here and returned as an *error value*
// `{ posencError: kind, message }` (kind: "invalid_argument" | "length_error" | "bad_alloc");
// wasm/js/errors.js turns it into a RangeError. Returning instead of rethrowing into JS
// matters: a JS exception unwinding through WASM frames would skip C++ destructors and
// leak the in-flight exception object, and a throw with exceptions disabled would abort.
#pragma once

#include "posenc/errors.hpp"

#include <emscripten/val.h>

#include <new>
#include <stdexcept>

namespace posenc::wasm {

using emscripten::val;

inline val error_value(const char* kind, const char* message) {
  val err = val::object();
  err.set("posencError", val(kind));
  err.set("message", val(message));
  return err;
}

// Runs `body` (returning val) and converts the core's exceptions into error values.
// Anything else (a logic error in posenc itself) is deliberately not caught.
template <class Body>
val guarded(Body&& body) {
  try {
    return body();
  } catch (const posenc::invalid_argument& e) {
    return error_value("invalid_argument", e.what());
  } catch (const posenc::length_error& e) {
    return error_value("length_error", e.what());
  } catch (const std::bad_alloc&) {
    return error_value("bad_alloc", "posenc: out of WebAssembly memory");
  } catch (const std::length_error& e) {
    // A std::vector asked for more than max_size(): the same condition as bad_alloc.
    return error_value("bad_alloc", "posenc: request exceeds WebAssembly memory");
  }
}

} // namespace posenc::wasm
