// wasm/src/marshal.hpp — translation between JS values and core types (no maths here).
//
// Conventions shared with wasm/js/: only primitives cross. Big arrays travel as heap
// pointers (numbers) that the JS side malloc'd; the scaling dictionary as a block of doubles
// staged the same way (wasm/js/scaling.js writes it); results the core returns as
// std::vector are kept here and handed to JS as a typed-array view of WebAssembly memory,
// which JS copies at once (wasm/js/heap.js `take`) and then releases. No JS object is read
// or built here, so no key can be looked up through a polluted Object.prototype. JS has
// already checked types (integers are int32, numbers finite, option names known), so these
// helpers only map shapes; ranges are the core's business.
#pragma once

#include "posenc/frequencies.hpp"

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::wasm {

using emscripten::val;

// A heap address handed over from JS (always < 2 GiB: MAXIMUM_MEMORY).
template <class T>
T* from_address(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

// The result kept for JS until posenc_release_result() (one per element type).
template <class T>
std::vector<T>& held_result() {
  static std::vector<T> held;
  return held;
}

// A view of `v`, kept in held_result<T>() until JS has copied it.
template <class T>
val hand_over(std::vector<T>&& v) {
  std::vector<T>& held = held_result<T>();
  held = std::move(v);
  return val(emscripten::typed_memory_view(held.size(), held.data()));
}

// A position, count or shift JS sent as a double holding a safe integer (checked in
// wasm/js/check.js): exact as int64.
inline std::int64_t i64(double v) {
  return static_cast<std::int64_t>(v);
}

// A 64-bit seed from the two uint32 halves JS sends (a double cannot hold every uint64).
inline std::uint64_t seed_of(std::uint32_t lo, std::uint32_t hi) {
  return (std::uint64_t{hi} << 32) | lo;
}

// HF's rope_scaling dictionary: `type` and the block of doubles at `block` that
// wasm/js/scaling.js staged (layout described there and in marshal.cpp); block 0: none.
posenc::scaling scaling_at(const std::string& type, std::uintptr_t block);

} // namespace posenc::wasm
