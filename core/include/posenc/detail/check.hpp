// posenc/detail/check.hpp — argument validation shared by every public entry point.
// Not part of the public API. Each helper throws a posenc exception whose message names
// the argument and its allowed range, so callers (and the JS bindings) can show it as is.
#pragma once

#include "posenc/errors.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <charconv>
#include <concepts>
#include <cstdio>
#include <string>
#include <string_view>

namespace posenc::detail {

// Message building without iostreams: <sstream> would pull iostream and locale code into
// every binary (a quarter of the WASM module), for nothing but error messages.
// Exact overloads for text, so a const char* never converts to bool.
inline void append(std::string& out, const char* text) { out += text; }
inline void append(std::string& out, const std::string& text) { out += text; }
inline void append(std::string& out, std::string_view text) { out += text; }
inline void append(std::string& out, char c) { out += c; }
inline void append(std::string& out, bool b) { out += b ? "true" : "false"; }
template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>)
void append(std::string& out, T value) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  out.append(buf, end);
}
template <std::floating_point T>
void append(std::string& out, T value) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%.16g", static_cast<double>(value));
  out.append(buf, static_cast<std::size_t>(n > 0 ? n : 0));
}

template <class... Parts>
[[nodiscard]] std::string concat(const Parts&... parts) {
  std::string out;
  (append(out, parts), ...);
  return out;
}

template <class... Parts>
[[noreturn]] void fail_argument(const Parts&... parts) {
  throw invalid_argument(concat("posenc: ", parts...));
}

template <class... Parts>
[[noreturn]] void fail_length(const Parts&... parts) {
  throw length_error(concat("posenc: ", parts...));
}

// lo <= value <= hi, for integers.
inline void check_range(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    fail_argument(name, " must be an integer in [", lo, ", ", hi, "], got ", value);
}

// An even integer in [lo, hi].
inline void check_even(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi || value % 2 != 0)
    fail_argument(name, " must be an even integer in [", lo, ", ", hi, "], got ", value);
}

// A finite real in the open/closed interval described by `range` (only used for the message).
inline void check_finite(const char* name, double value) {
  if (!std::isfinite(value)) fail_argument(name, " must be a finite number, got ", value);
}

// a * b without overflow of size_t, else length_error naming `what`.
[[nodiscard]] inline std::size_t checked_mul(const char* what, std::size_t a, std::size_t b) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a)
    fail_length(what, " overflows size_t (", a, " x ", b, ")");
  return a * b;
}

// A caller buffer of `have` elements must hold at least `need`.
inline void check_buffer(const char* name, std::size_t have, std::size_t need) {
  if (have < need)
    fail_length(name, " holds ", have, " elements but ", need, " are needed");
}

} // namespace posenc::detail
