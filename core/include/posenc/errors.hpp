// posenc/errors.hpp — the one exception hierarchy of posenc.
//
// Every public function validates its arguments before it touches memory and throws
// one of these; what() names the argument and the allowed range, e.g.
//   "posenc: dim must be an even integer in [2, 65536], got 7".
// Catch `posenc::error` (a std::exception) to catch everything posenc throws:
//   std::exception ← posenc::error ← posenc::invalid_argument, posenc::length_error
#pragma once

#include <exception>
#include <memory>
#include <string>

namespace posenc {

// Base of every posenc exception. The message is shared, not copied, so copying an
// exception (as throw and catch may) cannot throw.
class error : public std::exception {
public:
  explicit error(const std::string& what) : what_(std::make_shared<const std::string>(what)) {}
  const char* what() const noexcept override { return what_->c_str(); }
  // The same text as what(), under the name earlier versions used.
  const char* message() const noexcept { return what(); }

private:
  std::shared_ptr<const std::string> what_;
};

// An argument is out of its documented range (odd dim, base <= 1, unknown layout, ...).
class invalid_argument : public error {
public:
  using error::error;
};

// A size does not fit: a buffer is too small, strides overlap or leave the buffer,
// or a size product would overflow size_t / exceed the documented maximum.
class length_error : public error {
public:
  using error::error;
};

} // namespace posenc
