// core/src/detail/rotary_kernels.hpp — the RoPE inner loop: rotate the first r = 2·half
// dims of every head row of ONE token by one cos/sin row. The scalar reference first, its
// xsimd twin beside it; both are templates over the layout, the row's precision and the
// tensor's storage (float32 here; 16-bit formats in half_kernels.hpp, converted in registers).
//
// For each pair (a, b) with cos c_i, signed sin s_i (s_i = sin for forward, −sin for
// inverse) and scale g (the attention factor, or its inverse):
//     a' = g·(a·c_i − b·s_i),   b' = g·(b·c_i + a·s_i)          (R(α)·(a, b), scaled)
// with exactly these operations in this order, in the row's precision T: float for
// rope_apply, double for rope_shift (a, b widened, the result rounded to float once). So
// the SIMD kernel reproduces the reference bit for bit: the library is compiled with
// -ffp-contract=off, so no compiler fuses a·c − b·s into a multiply-add on any arch.
// Pairs: half layout (x[i], x[i + half]); interleaved layout (x[2i], x[2i + 1]).
// Dims [r, dim) pass through (copied when out ≠ in). `in` and `out` rows are either the same
// memory (in place) or do not overlap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "simd.hpp"

namespace posenc::detail {

// One token of one tensor: `heads` rows of `dim` values V (float, or 16-bit bits), all
// rotated by the same row.
template <class T, class V = float>
struct token_rows {
  const T* cos = nullptr;  // half values: cos(p·θ_i)
  const T* sin = nullptr;  // half values: sin(p·θ_i), unsigned
  // The SIMD kernel's lanes of the same row (expand_lanes): half layout half values
  // (cos, sign·sin); interleaved 2·half values (c0, c0, c1, c1, …), (−s0, s0, −s1, s1, …).
  const T* lane_cos = nullptr;
  const T* lane_sin = nullptr;
  std::size_t half = 0;
  float sign = 1.0f;  // +1 forward, −1 inverse
  float g = 1.0f;     // attention factor (or its inverse); 1 for rope_shift
  const V* in = nullptr;
  V* out = nullptr;
  std::int64_t in_head_stride = 0;
  std::int64_t out_head_stride = 0;
  std::int64_t heads = 0;
  std::int64_t dim = 0;
  // Head rows the SIMD kernel sweeps per row block (≥ 1; see rotate_token).
  std::int64_t head_group = 1;
};

// Lanes [j, j + 2h) of one group of the split kernels (expand_lanes): the even lanes' values
// first, then the odd ones'. The buffers never overlap, which lets the compiler vectorise
// the strided reads.
template <class T>
inline void group_lanes(const T* __restrict cos, const T* __restrict sin, std::size_t j,
                        std::size_t h, T sg, bool interleaved, T* __restrict lane_cos,
                        T* __restrict lane_sin) noexcept {
  for (std::size_t k = 0; k < h; ++k) {
    if (interleaved) {
      const std::size_t p = j / 2 + k;
      lane_cos[j + k] = lane_cos[j + h + k] = cos[p];
      lane_sin[j + k] = -(sg * sin[p]);
      lane_sin[j + h + k] = sg * sin[p];
    } else {
      lane_cos[j + k] = cos[j + 2 * k];
      lane_cos[j + h + k] = cos[j + 2 * k + 1];
      lane_sin[j + k] = sg * sin[j + 2 * k];
      lane_sin[j + h + k] = sg * sin[j + 2 * k + 1];
    }
  }
}

#if !POSENC_SCALAR_ONLY
// True when Arch's batches of T are 128 bits wide: zip_lo / zip_hi then interleave in order
// (on AVX they interleave per 128-bit lane, which is not this layout).
template <class T, class Arch>
constexpr bool zips_in_order() noexcept {
  if constexpr (std::is_void_v<Arch>) return false;
  else return sizeof(xsimd::batch<T, Arch>) == 16;
}

// The interleaved lanes of pairs [i, half) by whole batches (the twin of expand_lanes' last
// loop: the same copies and the same product sg·sin, negated): each batch of cos gives two
// of (c0, c0, c1, c1, …), each of sin two of (−s0, s0, −s1, s1, …). Returns the first pair
// left to that loop. The copies, scattered one float at a time, cost a tenth of a 128-dim
// token's rotation in WebAssembly.
template <class T, class Arch>
std::size_t zip_lanes(const T* cos, const T* sin, std::size_t i, std::size_t half, T sg,
                      T* lane_cos, T* lane_sin) noexcept {
  using batch = xsimd::batch<T, Arch>;
  constexpr std::size_t w = batch::size;
  for (; i + w <= half; i += w) {
    const batch c = batch::load_unaligned(cos + i), s = batch(sg) * batch::load_unaligned(sin + i);
    const batch n = -s;
    xsimd::zip_lo(c, c).store_unaligned(lane_cos + 2 * i);
    xsimd::zip_hi(c, c).store_unaligned(lane_cos + 2 * i + w);
    xsimd::zip_lo(n, s).store_unaligned(lane_sin + 2 * i);
    xsimd::zip_hi(n, s).store_unaligned(lane_sin + 2 * i + w);
  }
  return i;
}
#endif

// The lanes of a row for the SIMD kernel (see token_rows). Half layout with sign +1 and no
// group needs none: the kernel then reads cos/sin themselves. group ≠ 0 (a multiple of 4):
// kernels that split their values into even and odd elements (half_kernels.hpp) read, within
// every whole group of `group` lanes, then one group of group / 2 if that many lanes remain
// (a half-width tail batch), the even lanes first, then the odd ones (interleaved: the
// group's pairs' cos twice, their −sin then their sin); the lanes after stay in order.
// Arch names the translation unit that compiles a copy (the kernel tables of
// detail/dispatch.hpp), so each arch's copy is vectorised at its width; 128-bit arches zip
// the interleaved lanes by batches (zip_lanes).
template <class T, class Arch = void>
void expand_lanes(const T* cos, const T* sin, std::size_t half, float sign, bool interleaved,
                  T* lane_cos, T* lane_sin, std::size_t group = 0) noexcept {
  const T sg = static_cast<T>(sign);
  const std::size_t lanes = interleaved ? 2 * half : half;
  std::size_t grouped = 0;  // lanes in groups
  for (std::size_t size = group; size != 0 && grouped + size / 2 <= lanes;) {
    if (grouped + size > lanes) size /= 2;  // the tail group, the last one
    group_lanes(cos, sin, grouped, size / 2, sg, interleaved, lane_cos, lane_sin);
    grouped += size;
    if (size != group) break;
  }
  if (!interleaved) {
    std::copy(cos + grouped, cos + half, lane_cos + grouped);
    for (std::size_t i = grouped; i < half; ++i) lane_sin[i] = sg * sin[i];
    return;
  }
  std::size_t first = grouped / 2;
#if !POSENC_SCALAR_ONLY
  if constexpr (zips_in_order<T, Arch>()) first = zip_lanes<T, Arch>(cos, sin, first, half, sg, lane_cos, lane_sin);
#endif
  for (std::size_t i = first; i < half; ++i) {
    lane_cos[2 * i] = lane_cos[2 * i + 1] = cos[i];
    lane_sin[2 * i] = -(sg * sin[i]);
    lane_sin[2 * i + 1] = sg * sin[i];
  }
}

#if !POSENC_SCALAR_ONLY
// The half-width arch of Arch whose one batch takes a row's lanes past Arch's whole batches
// (the scalar reference then the rest), or void. A 128-dim head's 64 pairs are whole
// batches everywhere; an 80-dim head's 40 would leave 8 pairs per row to the scalar loop on
// AVX-512 without it. (The AVX-512 translation unit has AVX2 but not FMA: plain avx2.)
template <class Arch>
struct tail_arch { using type = void; };
#if POSENC_X86
template <>
struct tail_arch<xsimd::avx512bw> { using type = xsimd::avx2; };
template <>
struct tail_arch<xsimd::fma3<xsimd::avx2>> { using type = xsimd::sse4_2; };
#endif

// xsimd::batch<T, Arch>, or void for no arch.
template <class T, class Arch>
struct batch_of { using type = xsimd::batch<T, Arch>; };
template <class T>
struct batch_of<T, void> { using type = void; };
#endif

// Float32 storage: values are read and written as they are (the default of every kernel).
struct float_storage {
  using value = float;
  static float widen(float v) noexcept { return v; }
  static float narrow(float v) noexcept { return v; }
#if !POSENC_SCALAR_ONLY
  template <class T, class Arch>
  using batch = xsimd::batch<T, Arch>;  // what rotate_token computes on
  template <class T, class Arch>  // a half-width batch for the lanes past the last whole batch, or none
  using tail_batch = typename batch_of<T, typename tail_arch<Arch>::type>::type;
  template <class Batch>
  static Batch load(const float* p) noexcept { return Batch::load_unaligned(p); }
  template <class Batch>
  static void store(const Batch& v, float* p) noexcept { v.store_unaligned(p); }
#endif
};

// One pair rotation: the single scalar statement of the formula above.
template <class T>
inline void rotate_pair(T a, T b, T c, T s, T g, float& a_out, float& b_out) noexcept {
  const T a2 = a * c - b * s;
  const T b2 = b * c + a * s;
  a_out = static_cast<float>(g * a2);
  b_out = static_cast<float>(g * b2);
}

// Pairs [first, half) of one row, then its pass-through dims: the scalar reference of a
// row, and the SIMD kernel's tail. Values are widened to float and each result narrowed
// once by the Storage (identity for float32).
template <class T, bool Interleaved, class Storage = float_storage>
void rotate_row_scalar(const token_rows<T, typename Storage::value>& job, std::size_t first,
                       const typename Storage::value* in, typename Storage::value* out) noexcept {
  const std::size_t half = job.half;
  const T sign = static_cast<T>(job.sign), g = static_cast<T>(job.g);
  for (std::size_t i = first; i < half; ++i) {
    const std::size_t ja = Interleaved ? 2 * i : i, jb = Interleaved ? 2 * i + 1 : i + half;
    float a = 0, b = 0;
    rotate_pair<T>(Storage::widen(in[ja]), Storage::widen(in[jb]), job.cos[i], sign * job.sin[i],
                   g, a, b);
    out[ja] = Storage::narrow(a);
    out[jb] = Storage::narrow(b);
  }
  if (in != out) std::copy(in + 2 * half, in + job.dim, out + 2 * half);
}

// Scalar reference of the token kernel: every head row.
template <class T, bool Interleaved, class Storage = float_storage>
void rotate_token_scalar(const token_rows<T, typename Storage::value>& job) noexcept {
  for (std::int64_t h = 0; h < job.heads; ++h)
    rotate_row_scalar<T, Interleaved, Storage>(job, 0, job.in + h * job.in_head_stride,
                                               job.out + h * job.out_head_stride);
}

#if !POSENC_SCALAR_ONLY

// g·v, or v itself when g = 1 (Scaled = false): g·v = v exactly, so skipping the multiply
// changes no bit and saves a third of the arithmetic.
template <bool Scaled, class Batch>
inline Batch scaled(const Batch& v, const Batch& g) noexcept {
  if constexpr (Scaled) return g * v;
  return v;
}

// One batch of a row's pairs by the lanes c, s: in the half layout the first and second
// halves at a/a_out and b/b_out (b = a + half, formed once per row by the caller so every
// batch's address is a constant offset); in the interleaved layout a/a_out alone, where lane
// 2i computes a·c + b·(−s) = a·c − b·s and lane 2i + 1 b·c + a·s: the pair formula through
// swap_pairs (simd.hpp). Memory is read and written as batches of T by the Storage
// (float32: xsimd converts; 16-bit: converted in registers).
template <bool Interleaved, bool Scaled, class Storage, class Batch>
inline void rotate_batch(const typename Storage::value* a, const typename Storage::value* b,
                         typename Storage::value* a_out, typename Storage::value* b_out,
                         const Batch& c, const Batch& s, const Batch& g) noexcept {
  if constexpr (Interleaved) {
    const Batch x = Storage::template load<Batch>(a);
    Storage::store(scaled<Scaled>(x * c + swap_pairs(x) * s, g), a_out);
  } else {
    const Batch x = Storage::template load<Batch>(a), y = Storage::template load<Batch>(b);
    Storage::store(scaled<Scaled>(x * c - y * s, g), a_out);
    Storage::store(scaled<Scaled>(y * c + x * s, g), b_out);
  }
}

// Batches of the row kept in registers while a group of head rows is rotated by them: the
// row is shared by all heads, so a pair then costs the loads of x alone. Four batches of cos
// and of sin (8 registers) leave 8 for the work on 16-register arches (SSE2, AVX2, WASM).
inline constexpr std::size_t kRowBlock = 4;
// The batches of Batch per row block: kRowBlock vector registers' worth of cos and of sin.
template <class Batch>
inline constexpr std::size_t row_block = kRowBlock;

// One token's head rows [h0, h0 + heads) as the SIMD kernels see them.
template <class T, class V>
struct head_rows {
  const T* lane_cos;
  const T* lane_sin;
  const V* in;
  V* out;
  // Pointer-sized: a valid view's offsets fit (32 bits in WebAssembly, where 64-bit index
  // arithmetic costs extra instructions per row).
  std::ptrdiff_t in_stride, out_stride, heads;
  std::size_t half;
};

// Lanes [j, end) of every row of r, by batches of Batch (end − j a multiple of its width):
// kRowBlock batches of the row at a time (then one at a time), each block applied to every
// head, so the row's batches stay in registers across the heads.
template <class Batch, bool Interleaved, bool Scaled, class Storage, class T>
inline void rotate_lanes(const head_rows<T, typename Storage::value>& r, std::size_t j,
                         std::size_t end, T g_value) noexcept {
  using V = typename Storage::value;
  constexpr std::size_t width = Batch::size;
  const Batch g(g_value);
  const auto block = [&]<std::size_t N>(std::size_t j0) {
    Batch c[N], s[N];
    for (std::size_t k = 0; k < N; ++k) {
      c[k] = Batch::load_unaligned(r.lane_cos + j0 + k * width);
      s[k] = Batch::load_unaligned(r.lane_sin + j0 + k * width);
    }
    // Row pointers step by the strides, but never past the last head: a huge stride
    // would form an address outside the tensor.
    const V* x = r.in + j0;
    V* y = r.out + j0;
    for (std::ptrdiff_t h = 0;;) {
      const V* xb = Interleaved ? x : x + r.half;
      V* yb = Interleaved ? y : y + r.half;
      for (std::size_t k = 0; k < N; ++k)
        rotate_batch<Interleaved, Scaled, Storage>(x + k * width, xb + k * width, y + k * width,
                                                   yb + k * width, c[k], s[k], g);
      if (++h == r.heads) break;
      x += r.in_stride;
      y += r.out_stride;
    }
  };
  constexpr std::size_t n = row_block<Batch>;
  for (; j + n * width <= end; j += n * width) block.template operator()<n>(j);
  for (; j < end; j += width) block.template operator()<1>(j);
}

// The half-width arch (tail_arch) whose batches peel a row to Arch's alignment, or void (no
// peel). Only AVX2 peels: measured on AMD Zen 3, float32 rows 16 bytes off a 32-byte boundary
// (what malloc guarantees) split every other 32-byte access across cache lines and ran 1.6×
// slower than aligned rows; peeling 16 bytes at each end with SSE removes the splits.
template <class Arch>
struct peel_arch { using type = void; };
template <>
struct peel_arch<xsimd::fma3<xsimd::avx2>> : tail_arch<xsimd::fma3<xsimd::avx2>> {};

// True when every row of r starts half a vector of `bytes` past a vector boundary, in and
// out, and the half layout's second halves do too: then lanes [w/2, end − w/2) are aligned.
template <bool Interleaved, class T>
bool half_off(const head_rows<T, float>& r, std::size_t bytes) noexcept {
  const auto off = [bytes](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % bytes; };
  const auto whole = [bytes](std::int64_t floats) { return (floats * 4) % std::int64_t(bytes) == 0; };
  return off(r.in) == bytes / 2 && off(r.out) == bytes / 2 && (r.heads == 1 || (whole(r.in_stride) &&
         whole(r.out_stride))) && (Interleaved || whole(std::int64_t(r.half)));
}

// The SIMD twin of rotate_token_scalar: per group of job.head_group heads, the row's lanes
// by rotate_lanes; the scalar reference finishes rows whose length is not a whole number of
// batches. Small groups keep few rows in flight (memory streams well); one group of all
// heads loads each row block once per token (what counts while the tensor stays in cache).
template <class Arch, class T, bool Interleaved, bool Scaled, class Storage = float_storage>
void rotate_token(const token_rows<T, typename Storage::value>& job) noexcept {
  using V = typename Storage::value;
  // Fields read one by one into locals: stores through V* cannot alias them, and no
  // wide load spans the narrow stores that just wrote the job (a stalled store forward).
  head_rows<T, V> r{job.lane_cos, job.lane_sin, job.in, job.out,
                    static_cast<std::ptrdiff_t>(job.in_head_stride),
                    static_cast<std::ptrdiff_t>(job.out_head_stride), 0, job.half};
  using batch = typename Storage::template batch<T, Arch>;
  using peel = typename peel_arch<Arch>::type;
  constexpr std::size_t width = batch::size;  // even on every arch: pairs never straddle
  const std::size_t lanes = Interleaved ? 2 * r.half : r.half;
  const std::size_t simd_end = lanes - lanes % width;
  // When one row block spans the row, sweeping every head per block walks memory in order
  // anyway: one group, so the row's batches are loaded once per token, not once per head.
  const std::int64_t all_heads = job.heads;
  const std::int64_t head_group = simd_end <= row_block<batch> * width ? all_heads : job.head_group;
  // Storage's half-width batch, if any, takes the lanes past the whole batches when they fill it.
  using tail = typename Storage::template tail_batch<T, Arch>;
  std::size_t tail_end = simd_end;
  if constexpr (!std::is_void_v<tail>)
    if (lanes - simd_end >= tail::size) tail_end += tail::size;
  const bool row_tail = tail_end != lanes || (r.in != r.out && job.dim != std::int64_t(2 * r.half));
  const T g = static_cast<T>(job.g);
  const V* const in = r.in;
  V* const out = r.out;
  // Peel when every row (all heads) sits half a vector off: decided once for all groups.
  bool peel_rows = false;
  if constexpr (!std::is_void_v<peel> && std::is_same_v<T, float> &&
                std::is_same_v<Storage, float_storage>) {
    r.heads = static_cast<std::ptrdiff_t>(all_heads);
    peel_rows = simd_end >= 2 * width && half_off<Interleaved>(r, sizeof(batch));
  }
  for (std::int64_t h0 = 0; h0 < all_heads; h0 += head_group) {
    r.heads = static_cast<std::ptrdiff_t>(std::min(head_group, all_heads - h0));
    r.in = in + h0 * r.in_stride;
    r.out = out + h0 * r.out_stride;
    if constexpr (!std::is_void_v<peel> && std::is_same_v<T, float> &&
                  std::is_same_v<Storage, float_storage>) {
      using half_batch = xsimd::batch<T, peel>;
      constexpr std::size_t w2 = half_batch::size;
      if (peel_rows) {
        rotate_lanes<half_batch, Interleaved, Scaled, Storage>(r, 0, w2, g);
        rotate_lanes<batch, Interleaved, Scaled, Storage>(r, w2, simd_end - w2, g);
        rotate_lanes<half_batch, Interleaved, Scaled, Storage>(r, simd_end - w2, simd_end, g);
      }
    }
    if (!peel_rows) rotate_lanes<batch, Interleaved, Scaled, Storage>(r, 0, simd_end, g);
    if constexpr (!std::is_void_v<tail>)
      if (tail_end != simd_end) rotate_lanes<tail, Interleaved, Scaled, Storage>(r, simd_end, tail_end, g);
    if (!row_tail) continue;
    for (std::int64_t h = 0; h < r.heads; ++h)
      rotate_row_scalar<T, Interleaved, Storage>(job, Interleaved ? tail_end / 2 : tail_end,
                                                 r.in + h * r.in_stride, r.out + h * r.out_stride);
  }
}

#endif  // !POSENC_SCALAR_ONLY

}  // namespace posenc::detail
