// dispatch.cpp — runtime choice of the SIMD arch for the hot kernels (detail/dispatch.hpp).
#include "detail/dispatch.hpp"

#include "detail/angles.hpp"
#include "detail/dot_kernels.hpp"
#include "detail/table_kernels.hpp"

#include <algorithm>
#include <type_traits>

#if POSENC_DISPATCH
#include <cpuid.h>
#endif

namespace posenc::detail::dispatched {
namespace {

#if POSENC_DISPATCH
// Best first; xsimd::dispatch takes the first arch whose version the CPU reaches. sse2 is
// the x86-64 baseline, so the walk always ends on a supported arch.
using avx2_fma = xsimd::fma3<xsimd::avx2>;
using arch_list = xsimd::arch_list<xsimd::avx512bw, avx2_fma, xsimd::sse2>;

// Calls kernel(Arch{}) for the chosen arch (kernel: a generic lambda over the arch tag).
// xsimd's dispatcher call is noexcept: every kernel here is noexcept except table_rows,
// whose only throw would be bad_alloc of its few row-sized scratch vectors (terminate).
template <class Kernel>
void at_best_arch(Kernel&& kernel) {
  xsimd::dispatch<arch_list>(kernel)();
}

const char* best_arch_name() noexcept {
  const char* name = "sse2";
  at_best_arch([&](auto arch) { name = decltype(arch)::name(); });
  return name;
}
#elif !POSENC_SCALAR_ONLY
template <class Kernel>
void at_best_arch(Kernel&& kernel) {
  kernel(xsimd::default_arch{});
}

const char* best_arch_name() noexcept { return xsimd::default_arch::name(); }
#endif

}  // namespace
}  // namespace posenc::detail::dispatched

#if POSENC_DISPATCH
POSENC_DISPATCHED_KERNELS(extern template, xsimd::fma3<xsimd::avx2>)
POSENC_DISPATCHED_KERNELS(extern template, xsimd::avx512bw)
#endif

namespace posenc::detail::dispatched {

#if POSENC_SCALAR_ONLY

const char* arch_name() noexcept { return "scalar"; }

const half_kernel_table& half_kernels() noexcept {
  static const half_kernel_table table = half_kernels_scalar();
  return table;
}

const rope_kernel_table& rope_kernels() noexcept {
  static constexpr rope_kernel_table table{
      {{&rotate_token_scalar<float, false>, &rotate_token_scalar<float, false>},
       {&rotate_token_scalar<float, true>, &rotate_token_scalar<float, true>}},
      {{&rotate_token_scalar<float, false>, &rotate_token_scalar<float, false>},
       {&rotate_token_scalar<float, true>, &rotate_token_scalar<float, true>}},
      {{&rotate_token_scalar<float, false>, &rotate_token_scalar<float, false>},
       {&rotate_token_scalar<float, true>, &rotate_token_scalar<float, true>}},
      {&rotate_token_scalar<double, false>, &rotate_token_scalar<double, true>},
      &expand_lanes<float>,
      &select_rungs<void>};
  return table;
}

// sincos_rows below evaluates every value directly; offset_block is 1 here, so the one offset
// row is angle 0: cos 1, sin 0.
void fill_offsets(const double* /*inv_freq*/, std::size_t n, double* table) noexcept {
  std::fill(table, table + offset_doubles(n), 0.0);
  std::fill(table, table + n, 1.0);
}

void sincos_rows(const angle_offsets& o, std::int64_t first, std::int64_t count,
                 float* sin_out, float* cos_out) noexcept {
  for (std::int64_t k = 0; k < count; ++k) {
    const auto offset = static_cast<std::size_t>(k) * o.n;
    sincos_row_scalar(static_cast<double>(first + k), o.inv_freq, o.n, sin_out + offset,
                      cos_out + offset);
  }
}

void score_matrix(const float* q, std::size_t tq, const float* k, std::size_t tk,
                  std::size_t dim, double scale, float* out) noexcept {
  score_matrix_scalar(q, tq, k, tk, dim, scale, out);
}

void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out) {
  table_rows_scalar(inv_freq, half, first, count, layout, out);
}

void table_positions(const double* inv_freq, std::size_t half, const std::int32_t* positions,
                     std::size_t count, pe_layout layout, float* out) {
  for (std::size_t r = 0; r < count; ++r)
    pe_row_scalar(positions[r], inv_freq, half, layout, out + r * 2 * half);
}

#else

const char* arch_name() noexcept {
  static const char* const name = best_arch_name();
  return name;
}

#if POSENC_DISPATCH
avx512_cpu this_avx512_cpu() noexcept {
  if (!xsimd::available_architectures().avx512bw) return avx512_cpu::other;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d) == 0) return avx512_cpu::other;
  const bool amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163;  // "AuthenticAMD"
  if (!amd || __get_cpuid(1, &a, &b, &c, &d) == 0) return avx512_cpu::other;
  unsigned family = (a >> 8) & 0xF;  // the base family, extended when it reads 0xF
  if (family == 0xF) family += (a >> 20) & 0xFF;
  return family == 0x19 ? avx512_cpu::amd_zen4 : avx512_cpu::other;
}

rope_kernel_table rope_kernels_for(xsimd::sse2) noexcept { return rope_kernels_of<xsimd::sse2>(); }
half_kernel_table half_kernels_for(xsimd::sse2) noexcept { return half_kernels_of<xsimd::sse2>(); }
#endif

const half_kernel_table& half_kernels() noexcept {
  static const half_kernel_table table = [] {
#if POSENC_DISPATCH
    if (xsimd::available_architectures().avx512bw) return half_kernels_for(xsimd::avx512bw{});
    if (xsimd::available_architectures().fma3_avx2 && avx2_half::available())
      return half_kernels_for(xsimd::fma3<xsimd::avx2>{});
    return half_kernels_for(xsimd::sse2{});
#else
    return half_kernels_of<xsimd::default_arch>();
#endif
  }();
  return table;
}

const rope_kernel_table& rope_kernels() noexcept {
  static const rope_kernel_table table = [] {
#if POSENC_DISPATCH
    rope_kernel_table best{};
    at_best_arch([&](auto arch) {
      if constexpr (std::is_same_v<decltype(arch), xsimd::avx512bw>)
        best = rope_kernels_for(arch, this_avx512_cpu());
      else
        best = rope_kernels_for(arch);
    });
    return best;
#else
    return rope_kernels_of<xsimd::default_arch>();
#endif
  }();
  return table;
}

void fill_offsets(const double* inv_freq, std::size_t n, double* table) noexcept {
  at_best_arch([&](auto arch) { detail::fill_offsets<decltype(arch)>(inv_freq, n, table); });
}

void sincos_rows(const angle_offsets& o, std::int64_t first, std::int64_t count,
                 float* sin_out, float* cos_out) noexcept {
  at_best_arch([&](auto arch) {
    detail::sincos_rows<decltype(arch)>(o, first, count, sin_out, cos_out);
  });
}

void score_matrix(const float* q, std::size_t tq, const float* k, std::size_t tk,
                  std::size_t dim, double scale, float* out) noexcept {
  at_best_arch([&](auto arch) {
    detail::score_matrix<decltype(arch)>(q, tq, k, tk, dim, scale, out);
  });
}

void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out) {
  at_best_arch([&](auto arch) {
    detail::table_rows<decltype(arch)>(inv_freq, half, first, count, layout, out);
  });
}

void table_positions(const double* inv_freq, std::size_t half, const std::int32_t* positions,
                     std::size_t count, pe_layout layout, float* out) {
  at_best_arch([&](auto arch) {
    detail::table_positions<decltype(arch)>(inv_freq, half, positions, count, layout, out);
  });
}

#endif

}  // namespace posenc::detail::dispatched
