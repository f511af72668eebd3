// posenc/errors.hpp — the one exception hierarchy of posenc.
//
// Every public function validates its arguments before it touches memory and throws
// one of these; the message names the argument and the allowed range, e.g.
//   "posenc: dim must be an even integer in [2, 65536], got 7".
// Catch `posenc::error` to catch everything posenc throws.
#pragma once

#include <stdexcept>
#include <string>

namespace posenc {

// Tag base shared by every posenc exception (catch this to catch them all).
class error {
public:
  virtual ~error() = default;
  virtual const char* message() const noexcept = 0;
};

// An argument is out of its documented range (odd dim, base <= 1, unknown layout, ...).
class invalid_argument : public std::invalid_argument, public error {
public:
  explicit invalid_argument(const std::string& what) : std::invalid_argument(what) {}
  const char* message() const noexcept override { return what(); }
};

// A size does not fit: a buffer is too small, strides overlap or leave the buffer,
// or a size product would overflow size_t / exceed the documented maximum.
class length_error : public std::length_error, public error {
public:
  explicit length_error(const std::string& what) : std::length_error(what) {}
  const char* message() const noexcept override { return what(); }
};

} // namespace posenc
