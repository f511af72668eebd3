// wasm/src/marshal.hpp — translation between JS values and core types (no maths here).
//
// Conventions shared with wasm/js/: big arrays travel as heap pointers (numbers) that the
// JS side malloc'd; results the core returns as std::vector are copied once into a fresh
// JS typed array. JS has already checked types (integers are int32, numbers finite, option
// names known), so these helpers only map shapes; ranges are the core's business.
#pragma once

#include "posenc/frequencies.hpp"

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace posenc::wasm {

using emscripten::val;

// A heap address handed over from JS (always < 2 GiB: MAXIMUM_MEMORY).
template <class T>
T* from_address(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

// The JS typed array type holding T.
template <class T>
constexpr const char* js_array_type() {
  if constexpr (std::is_same_v<T, double>) return "Float64Array";
  else if constexpr (std::is_same_v<T, float>) return "Float32Array";
  else {
    static_assert(std::is_same_v<T, std::int32_t>);
    return "Int32Array";
  }
}

// A JS typed array holding a copy of [data, data + n): `new Float64Array(heapView)`.
template <class T>
val copy_to_js(const T* data, std::size_t n) {
  return val::global(js_array_type<T>()).new_(val(emscripten::typed_memory_view(n, data)));
}

template <class T>
val copy_to_js(const std::vector<T>& v) {
  return copy_to_js(v.data(), v.size());
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

inline bool has(const val& object, const char* key) {
  return !object[key].isUndefined();
}

// HF's rope_scaling dictionary from the normalized JS object (wasm/js/scaling.js);
// `undefined` means no scaling.
posenc::scaling scaling_from_js(const val& js);

} // namespace posenc::wasm
