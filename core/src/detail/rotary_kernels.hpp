// core/src/detail/rotary_kernels.hpp — the RoPE inner loops: rotate the first r dims of
// ONE head row by one cos/sin row. Scalar references first, xsimd twins beside them.
//
// Every kernel computes, for each pair (a, b) and its cos c_i and signed sin s_i
// (s_i = sin for forward, −sin for inverse) and scale g (attention factor, or 1/factor):
//     a' = g·(a·c_i − b·s_i),   b' = g·(b·c_i + a·s_i)          (DESIGN §2, R(α)·(a, b))
// with exactly these float operations in this order (no fused multiply-add), so the SIMD
// kernels reproduce their scalar references bit for bit on targets without FMA contraction
// and to ≤ 1 ulp of max(|a'|, |b'|) otherwise.
// `in` and `out` may be the same row (in place); otherwise they must not overlap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "simd.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__) && !POSENC_SCALAR_ONLY
#include <immintrin.h>  // the streaming stores and masked line accesses below
#endif

namespace posenc::detail {

// One pair rotation — the single statement of the formula above.
inline void rotate_pair(float a, float b, float c, float s, float g, float& a_out,
                        float& b_out) noexcept {
  const float a2 = a * c - b * s;
  const float b2 = b * c + a * s;
  a_out = g * a2;
  b_out = g * b2;
}

// Half layout: pairs (x[i], x[i + half]), i < half = r/2. cos/sin hold `half` values;
// sign = +1 (forward) or −1 (inverse) multiplies sin exactly.
inline void rotate_half_scalar(const float* cos, const float* sin, std::size_t half,
                               float sign, float g, const float* in, float* out) noexcept {
  for (std::size_t i = 0; i < half; ++i)
    rotate_pair(in[i], in[i + half], cos[i], sign * sin[i], g, out[i], out[i + half]);
}

// Interleaved layout: pairs (x[2i], x[2i + 1]), i < half.
inline void rotate_interleaved_scalar(const float* cos, const float* sin, std::size_t half,
                                      float sign, float g, const float* in,
                                      float* out) noexcept {
  for (std::size_t i = 0; i < half; ++i)
    rotate_pair(in[2 * i], in[2 * i + 1], cos[i], sign * sin[i], g, out[2 * i],
                out[2 * i + 1]);
}

// Interleaved kernels read the row pre-expanded once per token (shared by all heads):
// cos2 = (c0, c0, c1, c1, …), sin2 = (−s0, s0, −s1, s1, …) with s = sign·sin. Then
//     x' = g·(x·cos2 + swap_pairs(x)·sin2),  swap_pairs(x) = (x1, x0, x3, x2, …)
// is the pair formula lane by lane (simd.hpp says why a swizzle and not a zip).
inline void expand_interleaved_row(const float* cos, const float* sin, std::size_t half,
                                   float sign, float* cos2, float* sin2) noexcept {
  for (std::size_t i = 0; i < half; ++i) {
    cos2[2 * i] = cos[i];
    cos2[2 * i + 1] = cos[i];
    sin2[2 * i] = -(sign * sin[i]);
    sin2[2 * i + 1] = sign * sin[i];
  }
}

// One token of one tensor: `heads` rows of `dim` floats, each rotated by the same cos/sin
// row (DESIGN §2); dims ≥ r = 2·half pass through (copied when out ≠ in). This is the unit
// of work rotary.cpp hands to the runtime-dispatched kernel (detail/dispatch.hpp): one call
// per token, so the dispatch cost is paid once per `heads` rows.
struct token_rows {
  const float* cos = nullptr;   // half values
  const float* sin = nullptr;
  const float* cos2 = nullptr;  // interleaved only: expand_interleaved_row's output
  const float* sin2 = nullptr;
  std::size_t half = 0;
  bool interleaved = false;
  float sign = 1.0f;  // +1 forward, −1 inverse
  float g = 1.0f;     // attention factor (or its inverse)
  const float* in = nullptr;
  float* out = nullptr;
  std::int64_t in_head_stride = 0;
  std::int64_t out_head_stride = 0;
  std::int64_t heads = 0;
  std::int64_t dim = 0;
  // The next token's first input row (same head stride), or null: the kernels read it
  // ahead (prefetch_span) while rotating this token, so the loads of a large tensor find
  // it in cache instead of waiting on memory (measured 1.3–1.5× faster on 32 MiB).
  const float* prefetch = nullptr;
  // The tensor is past the caches (rotary.cpp, kLargeFloats): the kernels then move it
  // their own way — out of place with non-temporal stores (rotate_token_streaming), in
  // place in WebAssembly staged through L1 (rotate_token_staged). Results are identical
  // either way; only the cache traffic differs.
  bool large = false;
};

// Asks for floats [first, first + count) of head row h of the next token to be brought
// into cache: one prefetch per 64-byte line (points 16 floats apart, plus the last float,
// so every line the span touches is named). The kernels read ahead exactly the span they
// are about to read of this token, so the requests are spread over the token's work
// instead of bunched (which stalled on the line-fill buffers). Into L2 (locality 2,
// prefetcht1), not L1: a token ahead is 16 KiB for 32 × 128, which would evict the rows
// in flight and the out-of-place L1 block; prefetchnta (locality 0) measured 1.7× slower.
// A hint only: no fault, no effect on results; a no-op under WASM. Always inlined: GCC
// deems an out-of-line call side-effect free (a prefetch changes no state it models) and
// deletes it.
[[gnu::always_inline]] inline void prefetch_span(const token_rows& job, std::int64_t h,
                                                 std::int64_t first, std::int64_t count) noexcept {
#ifdef __EMSCRIPTEN__
  // No prefetch instruction in WebAssembly: without this the test below stays, as a load of
  // job.prefetch per head row (a wasm load may trap, so it is not removed as dead).
  (void)job, (void)h, (void)first, (void)count;
  return;
#endif
  if (job.prefetch == nullptr || count <= 0) return;
  const float* row = job.prefetch + h * job.in_head_stride;
  constexpr std::int64_t line = 64 / sizeof(float);
  for (std::int64_t j = first; j < first + count; j += line) __builtin_prefetch(row + j, 0, 2);
  if (count % line != 0) __builtin_prefetch(row + first + count - 1, 0, 2);
}

// Copies the pass-through dims [r, dim) of one row when rotating out of place.
inline void copy_pass_through(const token_rows& job, const float* src, float* dst) noexcept {
  if (src == dst) return;
  for (std::int64_t j = static_cast<std::int64_t>(2 * job.half); j < job.dim; ++j) dst[j] = src[j];
}

// Scalar reference of rotate_token.
inline void rotate_token_scalar(const token_rows& job) noexcept {
  for (std::int64_t h = 0; h < job.heads; ++h) {
    const float* src = job.in + h * job.in_head_stride;
    float* dst = job.out + h * job.out_head_stride;
    if (job.interleaved)
      rotate_interleaved_scalar(job.cos, job.sin, job.half, job.sign, job.g, src, dst);
    else
      rotate_half_scalar(job.cos, job.sin, job.half, job.sign, job.g, src, dst);
    copy_pass_through(job, src, dst);
  }
}

// rope_shift's kernels: the same pair formula (g = 1) with double cos/sin and double
// arithmetic, rounded to float once per element. cos² + sin² = 1 to 1e−16 in double, where
// float cos/sin miss it by up to ~1e−7 — the SAME bias at every repeated shift, which would
// grow the norm linearly (≈ 4e−5 after 1000 shifts of a 2-dim head); here only the final,
// unbiased roundings remain. In place (x is one head row).
inline void shift_pair(double c, double s, float& a, float& b) noexcept {
  const double da = a, db = b;
  a = static_cast<float>(da * c - db * s);
  b = static_cast<float>(db * c + da * s);
}

inline void shift_half_scalar(const double* cos, const double* sin, std::size_t half,
                              float* x) noexcept {
  for (std::size_t i = 0; i < half; ++i) shift_pair(cos[i], sin[i], x[i], x[i + half]);
}

inline void shift_interleaved_scalar(const double* cos, const double* sin, std::size_t half,
                                     float* x) noexcept {
  for (std::size_t i = 0; i < half; ++i) shift_pair(cos[i], sin[i], x[2 * i], x[2 * i + 1]);
}

// The double row expanded like expand_interleaved_row (sign +1).
inline void expand_interleaved_row(const double* cos, const double* sin, std::size_t half,
                                   double* cos2, double* sin2) noexcept {
  for (std::size_t i = 0; i < half; ++i) {
    cos2[2 * i] = cos2[2 * i + 1] = cos[i];
    sin2[2 * i] = -sin[i];
    sin2[2 * i + 1] = sin[i];
  }
}

// Orders the non-temporal stores before anything that follows. The driver calls it once
// after its last token: an sfence per token stalled on the write-combining buffers and
// cost ~14% of a 32 MiB rotation.
inline void stream_fence() noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__) && !POSENC_SCALAR_ONLY
  _mm_sfence();
#endif
}

#if !POSENC_SCALAR_ONLY

// Non-temporal stores skip the read-for-ownership of every destination line, which is what
// lets memcpy (rep movsb) copy a large tensor faster than a plain load/store loop; with them
// a large out-of-place rotation moves the same bytes as memcpy. x86 only (not under
// Emscripten, whose sse2 is WASM SIMD128). xsimd 8.1 has no streaming store: the two
// intrinsics below are the only hand-written ones in the kernels.
template <class Arch>
constexpr bool has_stream_store() noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
  // xsimd's avx and avx512f derive from generic, not from sse2: name the three families.
  return std::is_base_of_v<xsimd::sse2, Arch> || std::is_base_of_v<xsimd::avx, Arch> ||
         std::is_base_of_v<xsimd::avx512f, Arch>;
#else
  return false;
#endif
}

// One batch to a batch-aligned address, bypassing the cache.
template <class Arch>
void stream_store(xsimd::batch<float, Arch> v, float* p) noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>)
    return _mm512_stream_ps(p, v);
  else if constexpr (std::is_base_of_v<xsimd::avx, Arch>)
    return _mm256_stream_ps(p, v);
  else if constexpr (std::is_base_of_v<xsimd::sse2, Arch>)
    return _mm_stream_ps(p, v);
#endif
  v.store_aligned(p);
}

// n floats src → dst with non-temporal stores. The first floats up to a batch boundary of
// dst go through plain stores: a stream store must be aligned, and whole aligned batches
// fill each destination line in consecutive stores (write-combining flushes whole lines;
// a 16-byte-aligned output written as split 32-byte batches measured 1.2× slower).
template <class Arch>
void stream_copy(const float* src, float* dst, std::int64_t n) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::int64_t width = batch::size;
  constexpr std::uintptr_t bytes = width * sizeof(float);
  std::int64_t k = 0;
  for (; k < n && reinterpret_cast<std::uintptr_t>(dst + k) % bytes != 0; ++k) dst[k] = src[k];
  for (; k + width <= n; k += width) stream_store<Arch>(batch::load_unaligned(src + k), dst + k);
  for (; k < n; ++k) dst[k] = src[k];
}

// rotate_pair on batches, the one SIMD statement of the formula at the top: s carries the
// sign; `Scaled` = false when g == 1, where g·x = x exactly, so skipping the multiply
// changes no bit (and saves a third of the arithmetic of the blocked loops).
template <bool Scaled, class Batch>
inline void rotate_pair_batch(const Batch& a, const Batch& b, const Batch& c, const Batch& s,
                              const Batch& g, Batch& a_out, Batch& b_out) noexcept {
  Batch a2 = a * c - b * s;
  Batch b2 = b * c + a * s;
  if constexpr (Scaled) {
    a2 = g * a2;
    b2 = g * b2;
  }
  a_out = a2;
  b_out = b2;
}

// The interleaved layout's lanes, x' = g·(x·cos2 + swap(x)·sin2) (expand_interleaved_row):
// lane 2i is a·c + b·(−s) = a·c − b·s exactly, lane 2i+1 b·c + a·s, as rotate_pair.
template <bool Scaled, class Batch>
inline Batch rotate_interleaved_batch(const Batch& x, const Batch& c2, const Batch& s2,
                                      const Batch& g) noexcept {
  Batch y = x * c2 + swap_pairs(x) * s2;
  if constexpr (Scaled) y = g * y;
  return y;
}

// Pairs [first, half) of one half-layout row (first = 0: the whole row).
template <class Arch>
void rotate_half_from(const float* cos, const float* sin, std::size_t first, std::size_t half,
                      float sign, float g, const float* in, float* out) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size;
  const batch gb(g);
  const batch signb(sign);
  std::size_t i = first;
  for (; i + width <= half; i += width) {
    batch a2, b2;
    rotate_pair_batch<true>(batch::load_unaligned(in + i), batch::load_unaligned(in + i + half),
                            batch::load_unaligned(cos + i), signb * batch::load_unaligned(sin + i),
                            gb, a2, b2);
    a2.store_unaligned(out + i);
    b2.store_unaligned(out + i + half);
  }
  // Tail: the scalar reference on the remaining pairs (both streams offset by i).
  for (; i < half; ++i)
    rotate_pair(in[i], in[i + half], cos[i], sign * sin[i], g, out[i], out[i + half]);
}

// Floats [first, r) of one interleaved row, r = 2·half, first even (first = 0: the whole
// row); cos2/sin2 from expand_interleaved_row (with `sign`); cos/sin are the unexpanded row,
// used by the scalar tail.
template <class Arch>
void rotate_interleaved_from(const float* cos, const float* sin, const float* cos2,
                             const float* sin2, std::size_t first, std::size_t half,
                             float sign, float g, const float* in, float* out) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size;  // even on every arch, so pairs never straddle
  const batch gb(g);
  const std::size_t r = 2 * half;
  std::size_t j = first;
  for (; j + width <= r; j += width)
    rotate_interleaved_batch<true>(batch::load_unaligned(in + j), batch::load_unaligned(cos2 + j),
                                   batch::load_unaligned(sin2 + j), gb)
        .store_unaligned(out + j);
  const std::size_t done = j / 2;
  rotate_interleaved_scalar(cos + done, sin + done, half - done, sign, g, in + j,
                            out + j);
}

// Double batches read and write float memory (xsimd converts on load/store).
template <class Arch>
void shift_half(const double* cos, const double* sin, std::size_t half, float* x) noexcept {
  using batch = xsimd::batch<double, Arch>;
  constexpr std::size_t width = batch::size;
  std::size_t i = 0;
  for (; i + width <= half; i += width) {
    const batch c = batch::load_unaligned(cos + i);
    const batch s = batch::load_unaligned(sin + i);
    const batch a = batch::load_unaligned(x + i);
    const batch b = batch::load_unaligned(x + i + half);
    (a * c - b * s).store_unaligned(x + i);
    (b * c + a * s).store_unaligned(x + i + half);
  }
  for (; i < half; ++i) shift_pair(cos[i], sin[i], x[i], x[i + half]);
}

template <class Arch>
void shift_interleaved(const double* cos, const double* sin, const double* cos2,
                       const double* sin2, std::size_t half, float* x) noexcept {
  using batch = xsimd::batch<double, Arch>;
  constexpr std::size_t width = batch::size;  // 2, 4 or 8: pairs never straddle
  const std::size_t r = 2 * half;
  std::size_t j = 0;
  for (; j + width <= r; j += width) {
    const batch v = batch::load_unaligned(x + j);
    const batch c = batch::load_unaligned(cos2 + j);
    const batch s = batch::load_unaligned(sin2 + j);
    (v * c + swap_pairs(v) * s).store_unaligned(x + j);
  }
  const std::size_t done = j / 2;
  shift_interleaved_scalar(cos + done, sin + done, half - done, x + j);
}

// rotate_token's register blocking: kRegisterBlock batches of the cos/sin row stay in
// registers while EVERY head row of the token is rotated by them, so a pair costs 2 loads +
// 2 stores instead of 4 + 2 (the row is shared by all heads; loads were the bottleneck).
// Four batches of each (8 registers) leave 8 for the work on 16-register arches (SSE2,
// AVX2, WASM SIMD128). Each head row is visited in r/(4·width) slices; the token's rows
// stay in L1 between slices.
inline constexpr std::size_t kRegisterBlock = 4;

// Calls body(n, k0) for k0 = 0, Block, 2·Block, … over batches [0, count), n =
// std::integral_constant of the block's batch count (Block, the last block possibly fewer):
// a compile-time count, so a block's cos/sin and row arrays are registers (with a run-time
// count GCC kept them on the stack: 3× slower).
template <std::size_t N, class Body>
void partial_block(std::size_t n, std::size_t k0, Body& body) {
  if constexpr (N > 0) {
    if (n == N) return body(std::integral_constant<std::size_t, N>{}, k0);
    partial_block<N - 1>(n, k0, body);
  }
}

template <std::size_t Block, class Body>
void for_each_block(std::size_t count, Body&& body) {
  std::size_t k0 = 0;
  for (; k0 + Block <= count; k0 += Block) body(std::integral_constant<std::size_t, Block>{}, k0);
  partial_block<Block - 1>(count - k0, k0, body);
}

// Runs head_loop(std::true_type) when the job has a next token to read ahead, else
// head_loop(std::false_type): two copies of the loop, so the one without read-ahead tests
// nothing per row (a run-time test inside it measured 1.1× slower).
template <class HeadLoop>
void with_read_ahead(const token_rows& job, HeadLoop&& head_loop) {
  if (job.prefetch != nullptr)
    head_loop(std::true_type{});
  else
    head_loop(std::false_type{});
}

// The blocked kernels. The job's fields are copied to locals because the stores through
// float* may alias them.
template <class Arch, bool Scaled>
void rotate_token_half_blocked(const token_rows& job) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size, block = kRegisterBlock * width;
  const std::size_t half = job.half;
  const float* const in0 = job.in;
  float* const out0 = job.out;
  const std::int64_t heads = job.heads, in_stride = job.in_head_stride,
                     out_stride = job.out_head_stride;
  const batch gb(job.g);
  const batch signb(job.sign);
  std::size_t i0 = 0;
  for (; i0 + block <= half; i0 += block) {
    batch c[kRegisterBlock], s[kRegisterBlock];
    for (std::size_t k = 0; k < kRegisterBlock; ++k) {
      c[k] = batch::load_unaligned(job.cos + i0 + k * width);
      s[k] = signb * batch::load_unaligned(job.sin + i0 + k * width);
    }
    // One pointer per stream, stepped by the strides: the k·width offsets then fold into
    // the loads and stores (in wasm32, h·stride is an i64 multiply per row and x + half + k·width
    // two adds per access).
    const float* in_a = in0 + i0;
    const float* in_b = in_a + half;
    float* out_a = out0 + i0;
    float* out_b = out_a + half;
    for (std::int64_t h = 0; h < heads; ++h) {
      prefetch_span(job, h, static_cast<std::int64_t>(i0), block);
      prefetch_span(job, h, static_cast<std::int64_t>(i0 + half), block);
      for (std::size_t k = 0; k < kRegisterBlock; ++k) {
        batch a2, b2;
        rotate_pair_batch<Scaled>(batch::load_unaligned(in_a + k * width),
                                  batch::load_unaligned(in_b + k * width), c[k], s[k], gb, a2, b2);
        a2.store_unaligned(out_a + k * width);
        b2.store_unaligned(out_b + k * width);
      }
      in_a += in_stride;
      in_b += in_stride;
      out_a += out_stride;
      out_b += out_stride;
    }
  }
  if (i0 == half) return;
  for (std::int64_t h = 0; h < heads; ++h) {  // pairs past the last full block
    prefetch_span(job, h, static_cast<std::int64_t>(i0), static_cast<std::int64_t>(half - i0));
    prefetch_span(job, h, static_cast<std::int64_t>(half + i0), static_cast<std::int64_t>(half - i0));
    rotate_half_from<Arch>(job.cos, job.sin, i0, half, job.sign, job.g, in0 + h * in_stride,
                           out0 + h * out_stride);
  }
}

template <class Arch, bool Scaled>
void rotate_token_interleaved_blocked(const token_rows& job) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size, block = kRegisterBlock * width;
  const std::size_t r = 2 * job.half;
  const float* const in0 = job.in;
  float* const out0 = job.out;
  const std::int64_t heads = job.heads, in_stride = job.in_head_stride,
                     out_stride = job.out_head_stride;
  const batch gb(job.g);
  std::size_t j0 = 0;
  for (; j0 + block <= r; j0 += block) {
    batch c[kRegisterBlock], s[kRegisterBlock];
    for (std::size_t k = 0; k < kRegisterBlock; ++k) {
      c[k] = batch::load_unaligned(job.cos2 + j0 + k * width);
      s[k] = batch::load_unaligned(job.sin2 + j0 + k * width);
    }
    const float* in = in0 + j0;  // stepped, as in rotate_token_half_blocked
    float* out = out0 + j0;
    for (std::int64_t h = 0; h < heads; ++h, in += in_stride, out += out_stride) {
      prefetch_span(job, h, static_cast<std::int64_t>(j0), block);
      for (std::size_t k = 0; k < kRegisterBlock; ++k)
        rotate_interleaved_batch<Scaled>(batch::load_unaligned(in + k * width), c[k], s[k], gb)
            .store_unaligned(out + k * width);
    }
  }
  if (j0 == r) return;
  for (std::int64_t h = 0; h < heads; ++h) {
    prefetch_span(job, h, static_cast<std::int64_t>(j0), static_cast<std::int64_t>(r - j0));
    rotate_interleaved_from<Arch>(job.cos, job.sin, job.cos2, job.sin2, j0, job.half, job.sign,
                                  job.g, in0 + h * in_stride, out0 + h * out_stride);
  }
}

// Floats per stream of a row: a (and, at +half, b) of the half layout, the whole
// interleaved row.
inline std::size_t stream_floats(const token_rows& job) noexcept {
  return job.interleaved ? 2 * job.half : job.half;
}

// AVX-512 on rows that do not start on a 64-byte line (a malloc'd buffer is 16-byte
// aligned): every 16-float access of the blocked kernels would then straddle two lines,
// which measured 1.6× slower than on aligned rows (a 32 × 128 decode token: 240 ns vs
// 150 ns). Here a row's rotated floats are covered instead by the aligned 64-byte lines
// around them, `lead` = the floats from the line start to the row start: stream/16 + 1
// line-aligned batches per stream, the first and last masked to the row's own floats
// (masked-off lanes are neither read, faulted on, nor written), so no access splits
// (180 ns). Two orderings avoid store-to-load forwarding from a masked store, which cannot
// forward and stalled the loop to 2.9× slower: the line that ends row h begins row h + 1,
// so even heads are rotated before odd ones; and a half row's a-part ends in the line
// where its b-part begins, so all of a row's loads come before its stores. x86 AVX-512
// only (xsimd 8.1 has no masked load/store: hand intrinsics).
template <class Arch>
constexpr bool has_masked_lines() noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
  return std::is_base_of_v<xsimd::avx512f, Arch>;
#else
  return false;
#endif
}

inline constexpr std::size_t kLineFloats = 64 / sizeof(float);

// The floats between the 64-byte line start and the row start, shared by every input and
// output row of the job, or 0 when the masked kernels do not apply: rows already aligned
// or at different offsets, a half layout whose b-part is not at its a-part's offset
// (half not a multiple of 16), an interleaved row whose pairs would straddle lanes (odd
// lead) or whose r floats are not whole lines (so the masks of the first and last batch
// would not complement each other).
inline std::size_t shared_lead(const token_rows& job) noexcept {
  const auto bytes_past_line = [](const float* p) {
    return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) % 64);
  };
  const std::size_t bytes = bytes_past_line(job.in), lead = bytes / sizeof(float);
  const bool strides_keep_it = job.in_head_stride % kLineFloats == 0 &&
                               job.out_head_stride % kLineFloats == 0;
  const bool shape_fits = stream_floats(job) % kLineFloats == 0 && (!job.interleaved || lead % 2 == 0);
  if (bytes == 0 || bytes % sizeof(float) != 0 || bytes_past_line(job.out) != bytes ||
      !strides_keep_it || !shape_fits)
    return 0;
  return lead;
}

// AVX2 on rows 16 bytes past a 32-byte boundary (malloc's alignment): every other 8-float
// access of the blocked kernels would straddle a 64-byte line, which measured 1.4× slower
// than on aligned rows (a 32 × 128 decode token: 403 ns vs 288 ns). AVX2 has no cheap
// masked store, so here each stream of a row is split instead into a 4-float piece at each
// end, done with 128-bit batches, and the 32-byte-aligned 8-float batches between them
// (257 ns).
template <class Arch>
constexpr bool has_split_rows() noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
  return std::is_base_of_v<xsimd::avx, Arch> && !std::is_base_of_v<xsimd::avx512f, Arch>;
#else
  return false;
#endif
}

// True when every input and output row of the job starts 16 bytes past a 32-byte boundary
// and the row's streams are whole 32-byte batches long, so one split fits every row.
inline bool rows_split_evenly(const token_rows& job) noexcept {
  const auto past_32 = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 32; };
  return past_32(job.in) == 16 && past_32(job.out) == 16 && job.in_head_stride % 8 == 0 &&
         job.out_head_stride % 8 == 0 && stream_floats(job) % 8 == 0;
}

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
// Line-aligned batches [k0, k0 + N) of every row, for every head (see has_masked_lines).
template <class Arch, bool Interleaved, bool Scaled, std::size_t N>
void rotate_lines_block(const token_rows& job_in, std::size_t lead, std::size_t k0,
                        std::size_t count) noexcept {
  const token_rows job = job_in;  // a local copy: the stores through float* cannot alias it
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = kLineFloats;
  static_assert(batch::size == width);
  const std::size_t half = job.half, stream = stream_floats(job);
  const auto first_mask = static_cast<__mmask16>(0xFFFFu << lead);
  __mmask16 mask[N];
  batch c[N], s[N];
  for (std::size_t k = 0; k < N; ++k) {  // the row's cos/sin (interleaved: expanded) lanes
    const std::size_t b = k0 + k;
    mask[k] = b == 0 ? first_mask : b + 1 == count ? __mmask16(~first_mask) : __mmask16(0xFFFF);
    const std::size_t at = b * width;  // from `lead` floats before the row
    c[k] = _mm512_maskz_loadu_ps(mask[k], (Interleaved ? job.cos2 : job.cos) - lead + at);
    s[k] = _mm512_maskz_loadu_ps(mask[k], (Interleaved ? job.sin2 : job.sin) - lead + at);
    if constexpr (!Interleaved) s[k] = batch(job.sign) * s[k];
  }
  const float* const in0 = job.in - lead + k0 * width;  // line-aligned
  float* const out0 = job.out - lead + k0 * width;
  const auto first = static_cast<std::int64_t>(std::min(k0 * width, stream));
  const auto span = std::min(static_cast<std::int64_t>(N * width),
                             static_cast<std::int64_t>(stream) - first);
  const batch gb(job.g);
  with_read_ahead(job, [&](auto read_ahead) {
    for (std::int64_t i = 0; i < job.heads; ++i) {
      const std::int64_t evens = (job.heads + 1) / 2;  // even heads first, then odd ones
      const std::int64_t h = i < evens ? 2 * i : 2 * (i - evens) + 1;
      if constexpr (decltype(read_ahead)::value) {
        prefetch_span(job, h, first, span);
        if constexpr (!Interleaved)
          prefetch_span(job, h, static_cast<std::int64_t>(half) + first, span);
      }
      const float* in = in0 + h * job.in_head_stride;
      float* out = out0 + h * job.out_head_stride;
      batch a[N], b[N];
      for (std::size_t k = 0; k < N; ++k) {
        a[k] = _mm512_maskz_load_ps(mask[k], in + k * width);
        if constexpr (!Interleaved) b[k] = _mm512_maskz_load_ps(mask[k], in + k * width + half);
      }
      for (std::size_t k = 0; k < N; ++k) {
        if constexpr (Interleaved) {
          _mm512_mask_store_ps(out + k * width, mask[k],
                               rotate_interleaved_batch<Scaled>(a[k], c[k], s[k], gb));
        } else {
          batch a2, b2;
          rotate_pair_batch<Scaled>(a[k], b[k], c[k], s[k], gb, a2, b2);
          _mm512_mask_store_ps(out + k * width, mask[k], a2);
          _mm512_mask_store_ps(out + k * width + half, mask[k], b2);
        }
      }
    }
  });
}

template <class Arch, bool Interleaved, bool Scaled>
void rotate_token_lines(const token_rows& job, std::size_t lead) noexcept {
  const std::size_t count = stream_floats(job) / kLineFloats + 1;
  for_each_block<5>(count, [&](auto n, std::size_t k0) {  // 10 row + 10 cos/sin registers of 32
    rotate_lines_block<Arch, Interleaved, Scaled, decltype(n)::value>(job, lead, k0, count);
  });
}

// One piece of a row at `in`/`out`: Batch::size floats of each stream, by the cos/sin
// batches c, s (see load_row).
template <bool Interleaved, bool Scaled, class Batch>
inline void rotate_piece(const float* in, float* out, std::size_t half, const Batch& c,
                         const Batch& s, const Batch& g) noexcept {
  if constexpr (Interleaved) {
    rotate_interleaved_batch<Scaled>(Batch::load_unaligned(in), c, s, g).store_unaligned(out);
  } else {
    Batch a2, b2;
    rotate_pair_batch<Scaled>(Batch::load_unaligned(in), Batch::load_unaligned(in + half), c, s,
                              g, a2, b2);
    a2.store_unaligned(out);
    b2.store_unaligned(out + half);
  }
}

// The cos/sin lanes of stream floats [at, at + Batch::size) (half layout: sign applied).
template <bool Interleaved, class Batch>
inline void load_row(const token_rows& job, std::size_t at, Batch& c, Batch& s) noexcept {
  c = Batch::load_unaligned((Interleaved ? job.cos2 : job.cos) + at);
  s = Batch::load_unaligned((Interleaved ? job.sin2 : job.sin) + at);
  if constexpr (!Interleaved) s = Batch(job.sign) * s;
}

// The aligned batches k0 … k0 + N − 1 (floats 4 + 8k) of every row's streams, for every head.
template <class Arch, bool Interleaved, bool Scaled, std::size_t N>
void rotate_split_block(const token_rows& job_in, std::size_t k0) noexcept {
  const token_rows job = job_in;  // a local copy: the stores through float* cannot alias it
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size;
  batch c[N], s[N];
  for (std::size_t k = 0; k < N; ++k) load_row<Interleaved>(job, 4 + (k0 + k) * width, c[k], s[k]);
  const batch g(job.g);
  const std::size_t first = 4 + k0 * width;
  const auto span = static_cast<std::int64_t>(std::min(N * width, stream_floats(job) - first));
  with_read_ahead(job, [&](auto read_ahead) {
    for (std::int64_t h = 0; h < job.heads; ++h) {
      if constexpr (decltype(read_ahead)::value) {
        prefetch_span(job, h, static_cast<std::int64_t>(first), span);
        if constexpr (!Interleaved)
          prefetch_span(job, h, static_cast<std::int64_t>(job.half + first), span);
      }
      const float* in = job.in + h * job.in_head_stride + first;
      float* out = job.out + h * job.out_head_stride + first;
      for (std::size_t k = 0; k < N; ++k)
        rotate_piece<Interleaved, Scaled>(in + k * width, out + k * width, job.half, c[k], s[k], g);
    }
  });
}

// The 128-bit arch of the end pieces (AVX and AVX2 include SSE4.2). A trait of Arch, so the
// batch type is dependent: translation units not compiled for SSE4.2 never instantiate it.
template <class Arch>
struct piece_arch {
  using type = xsimd::sse4_2;
};

template <class Arch, bool Interleaved, bool Scaled>
void rotate_token_split(const token_rows& job_in) noexcept {
  const token_rows job = job_in;
  using narrow = xsimd::batch<float, typename piece_arch<Arch>::type>;  // 16-byte end pieces
  constexpr std::size_t width = xsimd::batch<float, Arch>::size;
  const std::size_t stream = stream_floats(job);
  // The end pieces [0, 4) and [stream − 4, stream) of every row.
  narrow c0, s0, c1, s1;
  load_row<Interleaved>(job, 0, c0, s0);
  load_row<Interleaved>(job, stream - 4, c1, s1);
  const narrow g(job.g);
  for (std::int64_t h = 0; h < job.heads; ++h) {
    for (std::size_t at : {std::size_t{0}, stream - 4}) {  // their lines of the next token
      prefetch_span(job, h, static_cast<std::int64_t>(at), 4);
      if constexpr (!Interleaved) prefetch_span(job, h, static_cast<std::int64_t>(job.half + at), 4);
    }
    const float* in = job.in + h * job.in_head_stride;
    float* out = job.out + h * job.out_head_stride;
    rotate_piece<Interleaved, Scaled>(in, out, job.half, c0, s0, g);
    rotate_piece<Interleaved, Scaled>(in + stream - 4, out + stream - 4, job.half, c1, s1, g);
  }
  // The (stream − 8)/8 aligned batches between them, kRegisterBlock at a time.
  for_each_block<kRegisterBlock>((stream - 8) / width, [&](auto n, std::size_t k0) {
    rotate_split_block<Arch, Interleaved, Scaled, decltype(n)::value>(job, k0);
  });
}
#endif

// The rotated dims of every head row of the token, for one layout and scale: on rows off a
// vector boundary the masked line-aligned kernel (AVX-512) or the split one (AVX2) where it
// applies, else the blocked kernels.
template <class Arch, bool Interleaved, bool Scaled>
void rotate_rows(const token_rows& job) noexcept {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
  if constexpr (has_masked_lines<Arch>()) {
    if (const std::size_t lead = shared_lead(job); lead != 0)
      return rotate_token_lines<Arch, Interleaved, Scaled>(job, lead);
  }
  if constexpr (has_split_rows<Arch>()) {
    if (rows_split_evenly(job)) return rotate_token_split<Arch, Interleaved, Scaled>(job);
  }
#endif
  if constexpr (Interleaved)
    rotate_token_interleaved_blocked<Arch, Scaled>(job);
  else
    rotate_token_half_blocked<Arch, Scaled>(job);
}

// The one choice of layout and scale (g = 1: the unscaled twins, see rotate_pair_batch).
// Out of line: the direct and the staged paths share one copy of the kernels (−0.5 KiB
// gzip of WASM); one call per token, no slower natively (32 MiB out of place, paired runs).
template <class Arch>
[[gnu::noinline]] void rotate_token_rotary_dims(const token_rows& job) noexcept {
  const bool scaled = job.g != 1.0f;
  if (job.interleaved)
    return scaled ? rotate_rows<Arch, true, true>(job) : rotate_rows<Arch, true, false>(job);
  scaled ? rotate_rows<Arch, false, true>(job) : rotate_rows<Arch, false, false>(job);
}

// Every head row of the token rotated, pass-through dims copied.
template <class Arch>
void rotate_token_blocked(const token_rows& job) noexcept {
  rotate_token_rotary_dims<Arch>(job);
  if (job.in == job.out || static_cast<std::int64_t>(2 * job.half) == job.dim) return;
  for (std::int64_t h = 0; h < job.heads; ++h)
    copy_pass_through(job, job.in + h * job.in_head_stride, job.out + h * job.out_head_stride);
}

// Head rows [h0, h0 + count) of the job: the same token and cos/sin row, fewer rows.
inline token_rows head_rows(const token_rows& job, std::int64_t h0, std::int64_t count) noexcept {
  token_rows part = job;
  part.heads = count;
  part.in = job.in + h0 * job.in_head_stride;
  part.out = job.out + h0 * job.out_head_stride;
  if (job.prefetch) part.prefetch = job.prefetch + h0 * job.in_head_stride;
  return part;
}

// Out of place into memory (not the L1 block of the streaming path below), one whole row
// after another (the blocked kernels on one head at a time): each destination line is then
// completed by consecutive stores. Blocked over all heads, every line of the token is
// written in slices a pass over the heads apart, which measured 1.4–1.5× slower on 32 MiB
// in WebAssembly (which has no streaming path).
template <class Arch>
void rotate_token_row_by_row(const token_rows& job) noexcept {
  for (std::int64_t h = 0; h < job.heads; ++h) rotate_token_blocked<Arch>(head_rows(job, h, 1));
}

// Large out-of-place outputs are rotated a group of head rows at a time into a scratch
// block that stays in L1 (16 KiB on the stack), by the blocked kernels above (so the same
// results, and the same per-slice read-ahead), and the block is then copied out with
// aligned non-temporal stores (stream_copy). Writing the rows directly with stream stores
// was measured 1.2–1.5× slower: the half layout fills each line from two places and a
// malloc'd output is only 16-byte aligned. The caller must call stream_fence after its last
// streamed token.
inline constexpr std::int64_t kScratchFloats = 4096;  // 16 KiB: a 32-head × 128 token

template <class Arch>
bool can_stream(const token_rows& job) noexcept {
  return has_stream_store<Arch>() && job.large && job.in != job.out &&
         job.dim <= kScratchFloats;
}

template <class Arch>
void rotate_token_streaming(const token_rows& job) noexcept {
  alignas(64) float scratch[kScratchFloats];
  const std::int64_t group = kScratchFloats / job.dim;  // ≥ 1 by can_stream
  for (std::int64_t h0 = 0; h0 < job.heads; h0 += group) {
    const std::int64_t heads = std::min(group, job.heads - h0);
    token_rows part = head_rows(job, h0, heads);
    float* const out = part.out;
    part.out = scratch;
    part.out_head_stride = job.dim;
    rotate_token_blocked<Arch>(part);
    if (job.out_head_stride == job.dim) {  // the group's rows are one run of memory
      stream_copy<Arch>(scratch, out, heads * job.dim);
      continue;
    }
    for (std::int64_t h = 0; h < heads; ++h)
      stream_copy<Arch>(scratch + h * job.dim, out + h * job.out_head_stride, job.dim);
  }
}

#ifdef __EMSCRIPTEN__
// WebAssembly has no prefetch, and with 16-byte loads and the pair arithmetic between them
// too few lines of a large in-place tensor are in flight at once: on 32 MiB the blocked
// kernel took 1.2–1.4× the time of a bare v128 load-store pass over the same bytes
// (bench/wasm/bare-pass.mjs). memory.copy, though, runs as the engine's native memmove, with
// wide loads and many misses in flight. So each group of a token's head rows (all 32 × 128
// of a 16 KiB token at once) is first copied by it into a block that stays in L1, and
// rotated from there back into place by the same kernels (so the same results). Paired A/B
// runs on 16 and 32 MiB: 1.03–1.2× faster (median 1.07×), on 64 MiB and on heads-major
// storage (one row per block) no different; on tensors that fit the caches the extra copy
// only costs (1 MiB: 1.4× slower), hence only for large ones (rotary.cpp). The copy spans
// whole groups of rows, gaps of a strided view included; only the rotated dims are written
// back, so the gaps and the pass-through dims are never written. Tokens of fewer than 512
// floats go direct: per small token the memory.copy call costs more than it saves (16 MiB
// as 1 or 2 heads × 128 per token: 1.0–1.2× slower staged; 4 heads: 1.0–1.1× faster).
inline constexpr std::int64_t kStageMinFloats = 512;

inline bool can_stage(const token_rows& job) noexcept {
  return job.large && job.in == job.out && job.dim <= kScratchFloats &&
         job.heads * job.dim >= kStageMinFloats &&
         (job.heads == 1 || job.in_head_stride >= job.dim);
}

template <class Arch>
void rotate_token_staged(const token_rows& job) noexcept {
  alignas(64) float scratch[kScratchFloats];
  const std::int64_t stride = job.in_head_stride;
  // Rows per block: (group − 1)·stride + dim ≤ kScratchFloats (≥ 1 by can_stage).
  const std::int64_t group = job.heads == 1 ? 1 : (kScratchFloats - job.dim) / stride + 1;
  for (std::int64_t h0 = 0; h0 < job.heads; h0 += group) {
    const std::int64_t heads = std::min(group, job.heads - h0);
    const std::int64_t floats = (heads - 1) * stride + job.dim;
    token_rows part = head_rows(job, h0, heads);
    std::memcpy(scratch, part.in, sizeof(float) * static_cast<std::size_t>(floats));
    part.in = scratch;
    rotate_token_rotary_dims<Arch>(part);
  }
}
#endif

// SIMD twin of rotate_token_scalar: the same float operations per pair as rotate_half_from /
// rotate_interleaved_from (so the same results): in place blocked over heads as described
// above (in WebAssembly, large tensors staged through an L1 block); out of place row by row,
// or through an L1 block and streaming stores for large outputs.
template <class Arch>
void rotate_token(const token_rows& job) noexcept {
#ifdef __EMSCRIPTEN__
  if (can_stage(job)) return rotate_token_staged<Arch>(job);
#endif
  if constexpr (has_stream_store<Arch>()) {
    if (can_stream<Arch>(job)) return rotate_token_streaming<Arch>(job);
  }
  if (job.in != job.out) return rotate_token_row_by_row<Arch>(job);
  rotate_token_blocked<Arch>(job);
}

#endif // !POSENC_SCALAR_ONLY

} // namespace posenc::detail
