// wasm/src/guard.cpp — the catch clauses of every binding (see guard.hpp).
#include "guard.hpp"
#include "posenc/detail/check.hpp"

#include <emscripten/bind.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace posenc::wasm {
namespace {

// The latest recorded error. WebAssembly here is single-threaded, and JS reads it right
// after the failing call, before anything else can run.
struct recorded_error {
  const char* kind = "internal";
  std::string message;
};
recorded_error last;

// The size of the allocation that failed last (operator new below), for the message.
std::size_t refused_bytes = 0;

// Runs body(context); false after recording what it threw in `last`.
bool run_recording(void (*body)(void*), void* context) {
  try {
    body(context);
    return true;
  } catch (const posenc::invalid_argument& e) {
    last = {"invalid_argument", e.what()};
  } catch (const posenc::length_error& e) {
    last = {"length_error", e.what()};
  } catch (const std::bad_alloc&) {
    last = {"bad_alloc", refused_bytes == 0 ? std::string("posenc: out of WebAssembly memory")
                         : detail::concat("posenc: out of WebAssembly memory: ", refused_bytes,
                                          " more bytes were needed (WebAssembly memory is at most 2 GiB)")};
    refused_bytes = 0;
  } catch (const std::length_error&) {
    // A std::vector asked for more than max_size(): the same condition as bad_alloc.
    last = {"bad_alloc", "posenc: request exceeds WebAssembly memory"};
  } catch (const std::exception& e) {
    last = {"internal", e.what()};
  }
  return false;
}

} // namespace

void note_refused(std::size_t bytes) noexcept { refused_bytes = bytes; }

// Hands "kind:message" over as one string (a primitive: no object whose keys JS would
// read) and frees it: a recorded error must not keep heap bytes in use (the leak tests
// compare the allocator's count before and after refused calls).
std::string last_error() {
  std::string text = std::string(last.kind) + ":" + std::exchange(last.message, std::string());
  last.message.shrink_to_fit();
  return text;
}

val run_guarded(val (*body)(void*), void* context) {
  struct call {
    val (*body)(void*);
    void* context;
    val result = val::undefined();
  } c{body, context};
  const bool ok = run_recording([](void* p) {
    auto& self = *static_cast<call*>(p);
    self.result = self.body(self.context);
  }, &c);
  return ok ? c.result : val::null();
}

int run_status(void (*body)(void*), void* context) {
  return run_recording(body, context) ? 0 : 1;
}

} // namespace posenc::wasm

// Every C++ allocation of the module (replacing the global operator new): a failure records
// its size for the message before it throws.
void* operator new(std::size_t bytes) {
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  posenc::wasm::note_refused(bytes);
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

EMSCRIPTEN_BINDINGS(posenc_guard) {
  emscripten::function("lastError", &posenc::wasm::last_error);
}
