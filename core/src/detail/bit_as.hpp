// core/src/detail/bit_as.hpp — a value's bits as another type of the same size.
#pragma once

namespace posenc::detail {

// std::bit_cast (missing from the libc++ Emscripten ships), as the builtin both GCC and
// Clang provide.
template <class To, class From>
constexpr To bit_as(From v) noexcept {
  return __builtin_bit_cast(To, v);
}

}  // namespace posenc::detail
