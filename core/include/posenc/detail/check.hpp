// posenc/detail/check.hpp — argument validation shared by every public entry point.
// Not part of the public API. Each helper throws a posenc exception whose message names
// the argument and its allowed range, so callers (and the JS bindings) can show it as is.
#pragma once

#include "posenc/errors.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace posenc::detail {

// Message building without iostreams or printf: <sstream> would pull iostream and locale
// code into every binary (a quarter of the WASM module) and snprintf's floating-point
// formatting another 5 KiB gzip, for nothing but error messages.
//
// One piece of a message, formatted where it is made (numbers into the part's own buffer).
// Every fail_* call then reaches the same out-of-line function whatever its argument types;
// one template per argument list cost ~6 KB of WASM code.
class message_part {
public:
  // Exact overloads for text, so a const char* never converts to bool.
  message_part(const char* text) noexcept : text_(text), size_(std::char_traits<char>::length(text)) {}
  message_part(std::string_view text) noexcept : text_(text.data()), size_(text.size()) {}
  message_part(const std::string& text) noexcept : text_(text.data()), size_(text.size()) {}
  message_part(char c) noexcept : size_(1) { buf_[0] = c; }
  message_part(bool b) noexcept : text_(b ? "true" : "false"), size_(b ? 4 : 5) {}
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  message_part(T value) noexcept {
    if constexpr (std::is_signed_v<T>)
      size_ = format_integer(static_cast<long long>(value), buf_);
    else
      size_ = format_integer(static_cast<unsigned long long>(value), buf_);
  }
  template <std::floating_point T>
  message_part(T value) noexcept : size_(format_real(static_cast<double>(value), buf_)) {}

  std::string_view view() const noexcept { return {text_ ? text_ : buf_, size_}; }

  // Decimal digits of value; returns the count written (buf holds 32).
  static std::size_t format_integer(long long value, char* buf) noexcept;
  static std::size_t format_integer(unsigned long long value, char* buf) noexcept;
  // value like printf's "%.15g" ("1.5", "0.0001", "1e+300", "-inf", "nan"): 15 significant
  // digits, the same digits as printf for magnitudes 1e−8 … 1e36, beyond within a few ulp.
  static std::size_t format_real(double value, char* buf) noexcept;

private:
  const char* text_ = nullptr;  // external text, or null: the text is in buf_
  std::size_t size_ = 0;
  char buf_[32];
};

// A caller's string as a message shows it: in single quotes, its first 40 code points with
// every control character (C0, C1, DEL), line or paragraph separator, bidirectional or
// zero-width format character, invalid UTF-8 byte, quote and backslash escaped (\n, \xNN,
// \u{XXXX}), and for a longer string "…" and its size in bytes. So a message never carries
// a caller's newline, ANSI escape or NUL, nor more than a short excerpt of it.
[[nodiscard]] std::string quoted(std::string_view text);

// A config key path from a caller's JSON as a message shows it: as it is when it reads as
// one word (at most 64 bytes, no space, nothing quoted() would escape), else quoted().
[[nodiscard]] std::string key_text(std::string_view key);

// The parts joined (out of line: core/src/check.cpp).
[[nodiscard]] std::string join(std::initializer_list<message_part> parts);
[[noreturn]] void throw_invalid_argument(std::initializer_list<message_part> parts);
[[noreturn]] void throw_length_error(std::initializer_list<message_part> parts);

template <class... Parts>
[[nodiscard]] std::string concat(const Parts&... parts) {
  return join({message_part(parts)...});
}

// posenc::invalid_argument("posenc: " + parts…).
template <class... Parts>
[[noreturn]] void fail_argument(const Parts&... parts) {
  throw_invalid_argument({message_part(parts)...});
}

// posenc::length_error("posenc: " + parts…).
template <class... Parts>
[[noreturn]] void fail_length(const Parts&... parts) {
  throw_length_error({message_part(parts)...});
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
