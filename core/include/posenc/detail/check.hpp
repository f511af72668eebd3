// posenc/detail/check.hpp — argument validation shared by every public entry point.
// Not part of the public API. Each helper throws a posenc exception whose message names
// the argument and its allowed range, so callers (and the JS bindings) can show it as is.
#pragma once

#include "posenc/errors.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace posenc::detail {

template <class... Parts>
[[nodiscard]] std::string concat(const Parts&... parts) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << parts);
  return out.str();
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
