// core/src/detail/dispatch.hpp — the hot kernels at the best SIMD arch this CPU runs.
//
// The library is built for baseline x86-64 (SSE2), so `xsimd::default_arch` is sse2. The
// kernels below are ALSO compiled for AVX2 + FMA and for AVX-512 (F+CD+DQ+BW), each in
// its own translation unit (core/src/arch/avx2_fma.cpp with -mavx2 -mfma,
// core/src/arch/avx512bw.cpp with -mavx512f -mavx512cd -mavx512dq -mavx512bw) and chosen by
// xsimd::dispatch (xsimd's ifunc-like walk of an arch_list, best first). Each function here
// computes exactly what its kernel template computes for the chosen arch; see the kernel's
// own contract and error bound (angles.hpp, rotary_kernels.hpp, table_kernels.hpp).
// Without POSENC_DISPATCH (Emscripten's sse2-as-SIMD128 build, non-x86 targets) they call
// the default arch directly; under POSENC_SCALAR_ONLY the scalar references.
// The RoPE kernels are called once per token, so they are not dispatched per call: the
// driver takes one function pointer from rope_kernels() and calls it for every token.
#pragma once

#include "angles.hpp"
#include "half_kernels.hpp"
#include "posenc/sinusoidal.hpp"
#include "rotary_kernels.hpp"
#include "rung_select.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace posenc::detail::dispatched {

// The arch the dispatched kernels run on here: "fma3+avx2", "sse2", … or "scalar".
const char* arch_name() noexcept;

// One arch's RoPE token kernels (rotary_kernels.hpp, rotate_token<Arch, T, Interleaved,
// Scaled>), each [interleaved][scaled] (scaled: g ≠ 1), by the tier of a rope_apply call
// (rotate in rotary.cpp): apply for calls whose rows all sit on 64-byte lines, apply_off_line
// for calls with a row off a line that touch at most 64 KiB, streaming_off_line for larger
// ones. Each is the arch's own kernel except where a narrower arch's measured faster on that
// tier (bench/results/decisions.md). shift[interleaved] serves rope_shift (double rows,
// g = 1), expand forms a float row's lanes (expand_lanes) and select the merged rows of
// multi-position tokens (rung_select.hpp).
struct rope_kernel_table {
  using apply_fn = void (*)(const token_rows<float>&) noexcept;
  using shift_fn = void (*)(const token_rows<double>&) noexcept;
  using select_fn = rung_select_fn;
  using expand_fn = void (*)(const float*, const float*, std::size_t, float, bool, float*,
                             float*, std::size_t) noexcept;
  apply_fn apply[2][2];
  apply_fn apply_off_line[2][2];
  apply_fn streaming_off_line[2][2];
  shift_fn shift[2];
  expand_fn expand;
  select_fn select;
};

// The table of the best arch this CPU runs, chosen on the first call.
const rope_kernel_table& rope_kernels() noexcept;

#if !POSENC_SCALAR_ONLY
// The table of one arch: its instantiations of rotate_token.
template <class Arch>
rope_kernel_table rope_kernels_of() noexcept {
  rope_kernel_table t{
      {{&rotate_token<Arch, float, false, false>, &rotate_token<Arch, float, false, true>},
       {&rotate_token<Arch, float, true, false>, &rotate_token<Arch, float, true, true>}},
      {},
      {},
      {&rotate_token<Arch, double, false, false>, &rotate_token<Arch, double, true, false>},
      &expand_lanes<float, Arch>,
      &select_rungs<Arch>};
  for (auto* tier : {&t.apply_off_line, &t.streaming_off_line})
    std::copy(&t.apply[0][0], &t.apply[0][0] + 4, &(*tier)[0][0]);
  return t;
}
#endif

#if POSENC_DISPATCH
// The AVX-512 CPUs whose fastest kernel for some tier differs, as measured: AMD family 19h
// (Zen 4; Zen 3, the same family, has no AVX-512). Others take each arch's own kernels,
// apart from the choices measured on every AVX-512 CPU recorded.
enum class avx512_cpu { other, amd_zen4 };

// This CPU's, by cpuid (other: not one of those, or no AVX-512).
avx512_cpu this_avx512_cpu() noexcept;

// Each arch's table, defined in that arch's translation unit (the tests call every arch
// the CPU runs). Only call one the CPU supports.
rope_kernel_table rope_kernels_for(xsimd::sse2) noexcept;
rope_kernel_table rope_kernels_for(xsimd::fma3<xsimd::avx2>) noexcept;
rope_kernel_table rope_kernels_for(xsimd::avx512bw, avx512_cpu cpu) noexcept;
#endif

// The 16-bit token kernels (half_kernels.hpp) of the best arch this CPU runs them on,
// chosen on the first call: AVX-512 (F+CD+DQ+BW), else AVX2 with F16C, else SSE2.
const half_kernel_table& half_kernels() noexcept;

#if POSENC_DISPATCH
// Each arch's 16-bit table (the tests call every one the CPU runs).
half_kernel_table half_kernels_for(xsimd::sse2) noexcept;
half_kernel_table half_kernels_for(xsimd::fma3<xsimd::avx2>) noexcept;
half_kernel_table half_kernels_for(xsimd::avx512bw) noexcept;
#endif

// fill_offsets<Arch> / sincos_rows<Arch>: the angle-addition offsets of a ladder, and
// `count` cos/sin rows of consecutive positions from `first` (angles.hpp).
void fill_offsets(const double* inv_freq, std::size_t n, double* table) noexcept;
void sincos_rows(const angle_offsets& o, std::int64_t first, std::int64_t count,
                 float* sin_out, float* cos_out) noexcept;

// score_matrix<Arch>: out[m·tk + n] = scale·⟨q_m, k_n⟩ (dot_kernels.hpp).
void score_matrix(const float* q, std::size_t tq, const float* k, std::size_t tk,
                  std::size_t dim, double scale, float* out) noexcept;

// table_rows<Arch> / table_positions<Arch>: sinusoidal table rows (table_kernels.hpp).
void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out);
void table_positions(const double* inv_freq, std::size_t half, const std::int32_t* positions,
                     std::size_t count, pe_layout layout, float* out);

}  // namespace posenc::detail::dispatched

#if POSENC_DISPATCH
#include "dot_kernels.hpp"
#include "table_kernels.hpp"

// The kernel instantiations each arch translation unit provides: `template` there (explicit
// instantiation), `extern template` in dispatch.cpp (so the baseline TU never instantiates
// them with instructions it is not compiled for). One list, so the two cannot disagree.
#define POSENC_DISPATCHED_KERNELS(KIND, ARCH)                                          \
  KIND void posenc::detail::fill_offsets<ARCH>(const double*, std::size_t, double*) noexcept; \
  KIND void posenc::detail::sincos_rows<ARCH>(const posenc::detail::angle_offsets&,     \
                                              std::int64_t, std::int64_t, float*, float*) noexcept; \
  KIND void posenc::detail::score_matrix<ARCH>(const float*, std::size_t, const float*, \
                                               std::size_t, std::size_t, double, float*) noexcept; \
  KIND void posenc::detail::table_rows<ARCH>(const double*, std::size_t, std::int64_t, \
                                             std::int64_t, posenc::pe_layout, float*); \
  KIND void posenc::detail::table_positions<ARCH>(                                     \
      const double*, std::size_t, const std::int32_t*, std::size_t, posenc::pe_layout, float*);
#endif
