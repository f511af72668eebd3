// wasm/src/guard.cpp — the catch clauses of every binding (see guard.hpp).
#include "guard.hpp"

#include <new>
#include <stdexcept>

namespace posenc::wasm {
namespace {

val error_value(const char* kind, const char* message) {
  val err = val::object();
  err.set("posencError", val(kind));
  err.set("message", val(message));
  return err;
}

} // namespace

val run_guarded(val (*body)(void*), void* context) {
  try {
    return body(context);
  } catch (const posenc::invalid_argument& e) {
    return error_value("invalid_argument", e.what());
  } catch (const posenc::length_error& e) {
    return error_value("length_error", e.what());
  } catch (const std::bad_alloc&) {
    return error_value("bad_alloc", "posenc: out of WebAssembly memory");
  } catch (const std::length_error&) {
    // A std::vector asked for more than max_size(): the same condition as bad_alloc.
    return error_value("bad_alloc", "posenc: request exceeds WebAssembly memory");
  } catch (const std::exception& e) {
    return error_value("internal", e.what());
  }
}

} // namespace posenc::wasm
