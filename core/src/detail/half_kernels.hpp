// core/src/detail/half_kernels.hpp — the RoPE token kernel (rotary_kernels.hpp) on float16 /
// bfloat16 storage: each batch is widened to float32 in registers as it is loaded, rotated
// by the float32 formula, and narrowed to nearest, ties to even, as it is stored. So every
// output is the 16-bit rounding of the float32 kernel's result, and the SIMD kernel equals
// its scalar reference (rotate_token_scalar with half_storage) wherever the float32 one does.
//
// Even/odd split: one full vector of 2W 16-bit values (W floats per batch) is loaded and
// split by a shift and a mask into two float32 batches, its even and its odd elements
// (split_batch), and merged back the same way before one full-width store: no shuffle, no
// partial load or store. Pairs stay whole: in the half layout x[i] pairs with x[i + half],
// whose vector splits alike, so the cos/sin lanes come in the same even/odd order per group
// of 2W (expand_lanes with the table's lane_group, formed once per token); in the
// interleaved layout the even elements are the pairs' first members, the odd their
// second, and swap_pairs of a split batch is free (its odd and even batches exchanged).
// Which arch splits where is `splits` below (measured); the others load four or eight
// consecutive values per batch:
//   - SSE2 (x86-64's baseline): four values per batch, by the integer conversions of
//     half_float.hpp (bit-identical to the scalar ones).
//   - WebAssembly SIMD128 (xsimd's sse2 arch under Emscripten): bfloat16 split (2 × 4 values
//     per step) in the interleaved layout, four per batch in the half layout, by the
//     WebAssembly conversions of half_float.hpp (bit-identical too); float16 staged through
//     a float32 block and the float32 kernel (rotate_token_staged below).
//   - AVX2: bfloat16 split, 2 × 8 values per step (and a 2 × 4 tail), by integer steps;
//     float16 eight per batch by F16C (exact widening, round-to-nearest-even narrowing that
//     quiets NaNs as f32_to_f16 does; one instruction each way). Built in the AVX2
//     translation unit (-mavx2 -mfma -mf16c), chosen only when the CPU has F16C too.
//   - AVX-512 (F + BW): the AVX2 steps at twice the width: bfloat16 split, 2 × 16 values
//     per step; float16 sixteen per batch by vcvtph2ps / vcvtps2ph (the F16C conversions).
//   - Other arches (NEON …): the scalar reference.
#pragma once

#include "half_float.hpp"
#include "rotary_kernels.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace posenc::detail {

#if !POSENC_SCALAR_ONLY
// The even and the odd elements of 2·B::size consecutive values, as two float32 batches:
// what the split kernels compute on (element-wise, as on one batch). Loaded from a lane
// row, its even batch is the first B::size lanes of the group, its odd batch the next.
template <class B>
struct split_batch {
  using arch_type = typename B::arch_type;
  using value_type = typename B::value_type;
  static constexpr std::size_t size = 2 * B::size;
  B even, odd;

  split_batch() noexcept = default;
  split_batch(B e, B o) noexcept : even(e), odd(o) {}
  explicit split_batch(value_type v) noexcept : even(v), odd(v) {}
  static split_batch load_unaligned(const value_type* p) noexcept {
    return {B::load_unaligned(p), B::load_unaligned(p + B::size)};
  }
  friend split_batch operator+(const split_batch& x, const split_batch& y) noexcept { return {x.even + y.even, x.odd + y.odd}; }
  friend split_batch operator-(const split_batch& x, const split_batch& y) noexcept { return {x.even - y.even, x.odd - y.odd}; }
  friend split_batch operator*(const split_batch& x, const split_batch& y) noexcept { return {x.even * y.even, x.odd * y.odd}; }
};

// Each interleaved pair's partner: the even elements are the pairs' first members.
template <class B>
split_batch<B> swap_pairs(const split_batch<B>& x) noexcept { return {x.odd, x.even}; }

// A split batch is two registers: one per row block (four registers of cos and sin) leaves
// the conversions room in 16-register arches.
template <class B>
inline constexpr std::size_t row_block<split_batch<B>> = 1;
#endif

#if POSENC_HALF_AVX2
// The 16-bit loads and stores of the AVX2 and AVX-512 kernels, one shape for both: float16
// packed (W values ↔ one float32 batch), bfloat16 split (2W values ↔ even, odd batches).
template <class Arch>
struct wide_half;
template <>
struct wide_half<xsimd::fma3<xsimd::avx2>> {
  using f32 = __m256;
  [[gnu::target("avx2,f16c")]] static f32 widen_f16(const std::uint16_t* p) noexcept {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  [[gnu::target("avx2,f16c")]] static void narrow_f16(f32 v, std::uint16_t* p) noexcept {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  static void split_bf16(const std::uint16_t* p, f32& even, f32& odd) noexcept { avx2_half::split16_bf16(p, even, odd); }
  static void merge_bf16(f32 even, f32 odd, std::uint16_t* p) noexcept { avx2_half::merge16_bf16(even, odd, p); }
};
template <>
struct wide_half<xsimd::avx512bw> {
  using f32 = __m512;
  [[gnu::target("avx512f")]] static f32 widen_f16(const std::uint16_t* p) noexcept {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  [[gnu::target("avx512f")]] static void narrow_f16(f32 v, std::uint16_t* p) noexcept {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  static void split_bf16(const std::uint16_t* p, f32& even, f32& odd) noexcept { avx512_half::split32_bf16(p, even, odd); }
  static void merge_bf16(f32 even, f32 odd, std::uint16_t* p) noexcept { avx512_half::merge32_bf16(even, odd, p); }
};

// AVX-512's tail batches (tail_arch: plain avx2, the AVX-512 unit has no FMA flag): AVX2's.
template <>
struct wide_half<xsimd::avx2> : wide_half<xsimd::fma3<xsimd::avx2>> {};

// The arches with 16-bit loads and stores of their own (wide_half).
template <class Arch>
inline constexpr bool kWideHalf = std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>> ||
                                  std::is_same_v<Arch, xsimd::avx2> || std::is_same_v<Arch, xsimd::avx512bw>;
#endif

// 16-bit storage, bfloat16 when BF, else IEEE float16; its SIMD kernels compute on split
// batches when Split, else on batches of consecutive values.
template <bool BF, bool Split = false>
struct half_storage {
  using value = std::uint16_t;
#if !POSENC_SCALAR_ONLY && defined(__SSE2__)
  template <class T, class Arch, class Tail = typename tail_arch<Arch>::type>
  struct half_tail {  // (tail_batch below)
    using type = std::conditional_t<Split, split_batch<xsimd::batch<T, Tail>>,
                                    std::conditional_t<std::is_same_v<Arch, xsimd::avx512bw>, xsimd::batch<T, Tail>, void>>;
  };
  template <class T, class Arch>
  struct half_tail<T, Arch, void> { using type = void; };
#endif
  static float widen(std::uint16_t h) noexcept { return BF ? bf16_to_f32(h) : f16_to_f32(h); }
  static std::uint16_t narrow(float f) noexcept { return BF ? f32_to_bf16(f) : f32_to_f16(f); }

#if !POSENC_SCALAR_ONLY && defined(__SSE2__)
  // What rotate_token computes on, and the lane_group its lane rows need (expand_lanes).
  template <class T, class Arch>
  using batch = std::conditional_t<Split, split_batch<xsimd::batch<T, Arch>>, xsimd::batch<T, Arch>>;
  template <class Arch>
  static constexpr std::size_t lane_group = Split ? 2 * xsimd::batch<float, Arch>::size : 0;
  // The half-width tail batch (tail_arch's; rotary_kernels.hpp): a split of its batches,
  // lane_group / 2 lanes, for the split kernels (AVX2, AVX-512); AVX-512 float16 eight
  // packed values by F16C; none elsewhere.
  template <class T, class Arch>
  using tail_batch = typename half_tail<T, Arch>::type;

  template <class Batch>
  static Batch load(const std::uint16_t* p) noexcept {
    using arch = typename Batch::arch_type;
#if POSENC_HALF_AVX2
    if constexpr (std::is_same_v<arch, xsimd::sse4_2>) {  // the AVX2 split kernels' tail
      __m128 even, odd;
      avx2_half::split8_bf16(p, even, odd);
      return {even, odd};
    } else if constexpr (kWideHalf<arch>) {
      static_assert(BF == Split, "AVX2 / AVX-512: bfloat16 split, float16 packed");
      using ops = wide_half<arch>;
      if constexpr (!Split) {
        return ops::widen_f16(p);
      } else {
        typename ops::f32 even, odd;
        ops::split_bf16(p, even, odd);
        return {even, odd};
      }
    } else
#endif
    {
      static_assert(std::is_same_v<arch, xsimd::sse2>, "16-bit kernels: sse2, fma3<avx2>, avx512bw");
#ifdef __wasm_simd128__
      static_assert(BF, "WebAssembly float16 is staged (rotate_token_staged)");
      if constexpr (!Split) {
        return __m128(wasm_half::load_high4(p));  // bfloat16: already the float32 bits
      } else {
        v128_t even, odd;
        wasm_half::split8(p, even, odd);
        return {__m128(even), __m128(odd)};
      }
#else
      static_assert(!Split, "native SSE2: packed batches");
      const __m128i h = _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                                           _mm_setzero_si128());
      return _mm_castsi128_ps(sse2_half::widen4(h, BF));
#endif
    }
  }

  template <class Batch>
  static void store(const Batch& v, std::uint16_t* p) noexcept {
#if POSENC_HALF_AVX2
    if constexpr (std::is_same_v<typename Batch::arch_type, xsimd::sse4_2>) {
      avx2_half::merge8_bf16(v.even, v.odd, p);
    } else if constexpr (kWideHalf<typename Batch::arch_type>) {
      using ops = wide_half<typename Batch::arch_type>;
      if constexpr (!Split) ops::narrow_f16(v, p);
      else ops::merge_bf16(v.even, v.odd, p);
    } else
#endif
    {
#ifdef __wasm_simd128__
      if constexpr (!Split) {
        wasm_half::store16x4<true>(wasm_half::narrow_bf16(v128_t(__m128(v))), p);
      } else {
        wasm_half::narrow8_bf16(v128_t(__m128(v.even)), v128_t(__m128(v.odd)), p);
      }
#else
      const __m128i h = sse2_half::narrow4(_mm_castps_si128(v), BF);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p), sse2_half::pack_low16(h, h));
#endif
    }
  }
#endif
};

// One arch's 16-bit token kernels: apply[bf][interleaved][scaled] (scaled: g ≠ 1), and the
// lane_group[bf][interleaved] their lane rows are formed with (expand_lanes; 0: plain lanes).
struct half_kernel_table {
  using apply_fn = void (*)(const token_rows<float, std::uint16_t>&) noexcept;
  apply_fn apply[2][2][2];
  std::size_t lane_group[2][2] = {{0, 0}, {0, 0}};
};

// The scalar references of every entry.
inline half_kernel_table half_kernels_scalar() noexcept {
  return {{{{&rotate_token_scalar<float, false, half_storage<false>>, &rotate_token_scalar<float, false, half_storage<false>>},
            {&rotate_token_scalar<float, true, half_storage<false>>, &rotate_token_scalar<float, true, half_storage<false>>}},
           {{&rotate_token_scalar<float, false, half_storage<true>>, &rotate_token_scalar<float, false, half_storage<true>>},
            {&rotate_token_scalar<float, true, half_storage<true>>, &rotate_token_scalar<float, true, half_storage<true>>}}}};
}

#if !POSENC_SCALAR_ONLY
#ifdef __wasm_simd128__
inline constexpr bool kWasm = true;
#else
inline constexpr bool kWasm = false;
#endif
// Where Arch's kernels split (the measurements: bench/results/decisions.md): AVX2 bfloat16
// in both layouts (its packed conversions need lane shuffles; float16 converts by F16C,
// packed); WebAssembly bfloat16 in the interleaved layout, where the split also saves the
// pair swap; the WebAssembly half layout and native SSE2 stay packed.
template <class Arch, bool BF, bool Interleaved>
inline constexpr bool splits = std::is_same_v<Arch, xsimd::sse2> ? kWasm && BF && Interleaved : BF;
// Where Arch's 16-bit kernels are staged (rotate_token_staged): WebAssembly float16.
template <class Arch, bool BF>
inline constexpr bool staged = kWasm && !BF && std::is_same_v<Arch, xsimd::sse2>;

#ifdef __wasm_simd128__
// WebAssembly float16, staged: the rotated dims of up to kStagedFloats / r head rows at a
// time widened into a float32 block on the stack (wasm_half::widen_row_f16), rotated there
// by the float32 kernel, narrowed back (narrow_row_f16); a row with a rare value is redone
// by the conversions that test each batch. The same exact widening, float32 operations and
// rounding as the fused kernel, so the same bits (a NaN's payload aside); but three short
// loops, which engines compile without the fused loop's spills, and one range test per row.
// Measured (bench/results/decisions.md): float16 0.55–0.69× the fused kernel's time,
// bfloat16 (whose conversions are a shift and an add) 1.1–1.4×, so bfloat16 stays fused.
// Rows longer than the block (no model's) take the scalar reference.
inline constexpr std::size_t kStagedFloats = 2048;

// One body for the four entries: `rotate` is the float32 kernel of the layout and scale,
// `scalar` the layout's 16-bit reference.
inline void rotate_token_staged(const token_rows<float, std::uint16_t>& job,
                                void (*rotate)(const token_rows<float>&) noexcept,
                                void (*scalar)(const token_rows<float, std::uint16_t>&) noexcept) noexcept {
  const std::size_t r = 2 * job.half, whole = r - r % 8;
  if (r > kStagedFloats) return scalar(job);
  const std::int64_t per_block = static_cast<std::int64_t>(kStagedFloats / r);
  alignas(16) float block[kStagedFloats];
  for (std::int64_t h0 = 0; h0 < job.heads; h0 += per_block) {
    const std::int64_t heads = std::min(per_block, job.heads - h0);
    for (std::int64_t h = 0; h < heads; ++h) {
      const std::uint16_t* in = job.in + (h0 + h) * job.in_head_stride;
      float* f = block + h * r;
      if (!wasm_half::widen_row_f16(in, whole, f)) [[unlikely]] wasm_half::widen_row_f16_each(in, whole, f);
      for (std::size_t j = whole; j < r; ++j) f[j] = f16_to_f32(in[j]);
    }
    const auto stride = static_cast<std::int64_t>(r);
    rotate({job.cos, job.sin, job.lane_cos, job.lane_sin, job.half, job.sign, job.g, block, block,
            stride, stride, heads, stride, heads});
    for (std::int64_t h = 0; h < heads; ++h) {
      const std::uint16_t* in = job.in + (h0 + h) * job.in_head_stride;
      std::uint16_t* out = job.out + (h0 + h) * job.out_head_stride;
      const float* f = block + h * r;
      if (!wasm_half::narrow_row_f16(f, whole, out)) [[unlikely]] wasm_half::narrow_row_f16_each(f, whole, out);
      for (std::size_t j = whole; j < r; ++j) out[j] = f32_to_f16(f[j]);
      if (in != out) std::copy(in + r, in + job.dim, out + r);  // the dims past r pass through
    }
  }
}

template <bool Interleaved, bool Scaled>
void rotate_token_staged(const token_rows<float, std::uint16_t>& job) noexcept {
  rotate_token_staged(job, &rotate_token<xsimd::sse2, float, Interleaved, Scaled>,
                      &rotate_token_scalar<float, Interleaved, half_storage<false>>);
}
#endif

// One entry of the table of Arch.
template <class Arch, bool BF, bool Interleaved, bool Scaled>
constexpr half_kernel_table::apply_fn half_kernel_entry() noexcept {
#ifdef __wasm_simd128__
  if constexpr (staged<Arch, BF>) return &rotate_token_staged<Interleaved, Scaled>;
  else
#endif
    return &rotate_token<Arch, float, Interleaved, Scaled, half_storage<BF, splits<Arch, BF, Interleaved>>>;
}
template <class Arch, bool BF, bool Interleaved, bool Scaled>
inline constexpr half_kernel_table::apply_fn half_kernel = half_kernel_entry<Arch, BF, Interleaved, Scaled>();
template <class Arch, bool BF, bool Interleaved>
inline constexpr std::size_t half_lane_group =
    staged<Arch, BF> ? 0 : half_storage<BF, splits<Arch, BF, Interleaved>>::template lane_group<Arch>;

// The table of one arch: its rotate_token instantiations where it has 16-bit loads and
// stores (sse2, fma3<avx2>, avx512bw), else the scalar references.
template <class Arch>
half_kernel_table half_kernels_of() noexcept {
  constexpr bool simd = std::is_same_v<Arch, xsimd::sse2>
#if POSENC_HALF_AVX2
                        || kWideHalf<Arch>
#endif
      ;
  if constexpr (simd) {
    return {{{{half_kernel<Arch, false, false, false>, half_kernel<Arch, false, false, true>},
              {half_kernel<Arch, false, true, false>, half_kernel<Arch, false, true, true>}},
             {{half_kernel<Arch, true, false, false>, half_kernel<Arch, true, false, true>},
              {half_kernel<Arch, true, true, false>, half_kernel<Arch, true, true, true>}}},
            {{half_lane_group<Arch, false, false>, half_lane_group<Arch, false, true>},
             {half_lane_group<Arch, true, false>, half_lane_group<Arch, true, true>}}};
  } else {
    return half_kernels_scalar();
  }
}
#endif

}  // namespace posenc::detail
