// wasm/src/bind_memory.cpp — allocator statistics for the leak test (debug export).
#include <emscripten/bind.h>

#include <malloc.h>

namespace {

// Bytes currently handed out by dlmalloc (mallinfo().uordblks): the number a leak moves.
double heap_in_use() {
  return static_cast<double>(mallinfo().uordblks);
}

} // namespace

EMSCRIPTEN_BINDINGS(posenc_memory) {
  emscripten::function("heapInUse", &heap_in_use);
}
