// core/src/detail/row_storage.hpp — per-call scratch for a few cos/sin rows (the rope
// drivers' row_buffer, axis_rows): up to N values inside the object, so a call on a common
// head allocates nothing, else one heap block. The start is on a 64-byte line and rows are
// placed at whole lines (row_stride), so the kernels' vector loads of a row never split a
// cache line.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace posenc::detail {

template <class T, std::size_t N>
class row_storage {
public:
  static constexpr std::size_t kLine = 64 / sizeof(T);  // values per 64-byte line

  // Space for n values (uninitialised until written).
  explicit row_storage(std::size_t n) {
    if (n <= N) {
      data_ = inline_.data();
      return;
    }
    heap_.resize(n + kLine);
    const auto misalign = reinterpret_cast<std::uintptr_t>(heap_.data()) % 64;
    data_ = heap_.data() + (misalign == 0 ? 0 : (64 - misalign) / sizeof(T));
  }
  row_storage(const row_storage&) = delete;  // data_ may point into inline_
  row_storage& operator=(const row_storage&) = delete;

  T* data() const noexcept { return data_; }

  // The stride between rows of n values: whole 64-byte lines, plus one, so that two rows the
  // kernel reads side by side are never a power of two apart, as 512-byte rows (128-dim
  // interleaved lanes) would be; beside 512-byte head rows that ran slower on AMD Zen 4
  // (bench/results/decisions.md).
  static constexpr std::size_t row_stride(std::size_t n) noexcept {
    return (n + kLine - 1) / kLine * kLine + kLine;
  }

private:
  alignas(64) std::array<T, N> inline_;
  std::vector<T> heap_;
  T* data_ = nullptr;
};

}  // namespace posenc::detail
