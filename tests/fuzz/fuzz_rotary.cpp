// tests/fuzz/fuzz_rotary.cpp — libFuzzer target for posenc/rotary.hpp and tensor.hpp: caches
// with random config/first/count, every rope_apply overload (in place, out of place, by
// positions or start, forward and inverse), rope_apply_qk and rope_shift, on strided views
// of exactly-sized buffers with positions up to the int32 and max_position extremes, both
// layouts and partial rotary with odd rotary_dim/2 (SIMD body + scalar tail).
// Either a call succeeds or it throws posenc::error. On success:
//  - no float outside the view's rows changes (and pass-through dims are never touched);
//  - for finite, moderate inputs: outputs are finite, each pair's norm is scaled by the
//    attention factor, and inverse(apply(x)) gives x back (rotary.hpp: ≤ 1e−6 relative);
//  - cos² + sin² ≈ 1 in the cache, and row() equals the cached row bit for bit.
#include "fuzz_input.hpp"

#include <span>

namespace {

using namespace posenc;
using fuzz::expect;

struct pair_index {
  std::int64_t a, b;
};

// Pair i of a head row in the cache's layout (rotary.hpp).
pair_index pair_at(const rotary_cache& c, std::int64_t i) {
  const std::int64_t half = c.rotary_dim() / 2;
  if (c.layout() == rope_layout::interleaved) return {2 * i, 2 * i + 1};
  return {i, i + half};
}

// Tokens whose rows hold elements: none when the view has 0 heads or 0 dim (a view of 2^30
// such tokens is valid and must cost nothing, neither in the library nor in these checks).
std::int64_t touched_tokens(const tensor_view& v) { return v.heads == 0 || v.dim == 0 ? 0 : v.tokens; }

// Offsets of every element of the view's rows, as a mask over the buffer (validated views
// only: their rows are inside size and do not overlap).
std::vector<char> row_mask(const tensor_view& v) {
  std::vector<char> mask(v.size, 0);
  for (std::int64_t t = 0; t < touched_tokens(v); ++t)
    for (std::int64_t h = 0; h < v.heads; ++h)
      for (std::int64_t j = 0; j < v.dim; ++j)
        mask[static_cast<std::size_t>(t * v.token_stride + h * v.head_stride + j)] = 1;
  return mask;
}

const float* row(const tensor_view& v, const float* base, std::int64_t t, std::int64_t h) {
  return base + t * v.token_stride + h * v.head_stride;
}

// Floats outside the rows are bit-identical before and after; so are dims ≥ rotary_dim.
void check_untouched(const rotary_cache& c, const tensor_view& v, const float* before,
                     const float* after) {
  const std::vector<char> mask = row_mask(v);
  for (std::size_t i = 0; i < v.size; ++i)
    if (!mask[i]) expect(fuzz::same_bits(before + i, after + i, 1), "floats outside the view untouched");
  for (std::int64_t t = 0; t < touched_tokens(v); ++t)
    for (std::int64_t h = 0; h < v.heads; ++h)
      expect(fuzz::same_bits(row(v, before, t, h) + c.rotary_dim(), row(v, after, t, h) + c.rotary_dim(),
                             static_cast<std::size_t>(v.dim - c.rotary_dim())),
             "pass-through dims untouched");
}

bool moderate(const float* x, std::size_t n) { return fuzz::moderate({x, n}); }

// |pair'| = g·|pair| (a rotation scaled by g), and all finite, for moderate input.
void check_rotated(const rotary_cache& c, const tensor_view& v, const float* before,
                   const float* after, double g) {
  for (std::int64_t t = 0; t < touched_tokens(v); ++t)
    for (std::int64_t h = 0; h < v.heads; ++h) {
      const float* x = row(v, before, t, h);
      const float* y = row(v, after, t, h);
      for (std::int64_t i = 0; i < c.rotary_dim() / 2; ++i) {
        const auto [a, b] = pair_at(c, i);
        const double n0 = std::hypot(double{x[a]}, double{x[b]});
        const double n1 = std::hypot(double{y[a]}, double{y[b]});
        expect(std::isfinite(y[a]) && std::isfinite(y[b]), "rotated values finite", y[a], y[b]);
        // rotary.hpp: ≤ 4e−7·g·(|a| + |b|) per element; allowed here on the norm, ×2.5.
        const double tol = 1e-6 * g * (std::fabs(double{x[a]}) + std::fabs(double{x[b]})) + 1e-30;
        expect(std::fabs(n1 - g * n0) <= tol, "pair norm scaled by the attention factor",
               n1 - g * n0, tol);
      }
    }
}

// inverse(apply(x)) == x to float rounding: ≤ 1e−6 of each pair's norm (rotary.hpp).
void check_round_trip(const rotary_cache& c, const tensor_view& v, const float* original,
                      const float* back) {
  for (std::int64_t t = 0; t < touched_tokens(v); ++t)
    for (std::int64_t h = 0; h < v.heads; ++h) {
      const float* x = row(v, original, t, h);
      const float* y = row(v, back, t, h);
      for (std::int64_t i = 0; i < c.rotary_dim() / 2; ++i) {
        const auto [a, b] = pair_at(c, i);
        const double tol = 1e-6 * std::hypot(double{x[a]}, double{x[b]}) + 1e-30;
        expect(std::fabs(double{y[a]} - x[a]) <= tol && std::fabs(double{y[b]} - x[b]) <= tol,
               "inverse undoes apply", std::fabs(double{y[a]} - x[a]), tol);
      }
    }
}

// Each rotated element against the float64 rotation of the same input by the exact angle
// (long double here): rotary.hpp promises ≤ 4e−7·f·(|a| + |b|) for |p| ≤ 2^24; allowed ×1.25
// for the rounding of f itself. Catches what norms and round trips cannot: a wrong angle,
// pair or sign that is still a rotation and still undone by the inverse.
template <class Position>
void check_reference(const rotary_cache& c, const tensor_view& v, const float* before,
                     const float* after, Position position, direction dir) {
  const double f = c.attention_factor();
  const double g = dir == direction::forward ? f : 1.0 / f;
  const long double sign = dir == direction::forward ? 1.0L : -1.0L;
  for (std::int64_t t = 0; t < touched_tokens(v); ++t) {
    const auto p = static_cast<long double>(position(t));
    for (std::int64_t i = 0; i < c.rotary_dim() / 2; ++i) {
      const long double angle = sign * p * static_cast<long double>(c.inv_freq()[static_cast<std::size_t>(i)]);
      const double cs = static_cast<double>(std::cos(angle));
      const double sn = static_cast<double>(std::sin(angle));
      const auto [ia, ib] = pair_at(c, i);
      for (std::int64_t h = 0; h < v.heads; ++h) {
        const double a = row(v, before, t, h)[ia], b = row(v, before, t, h)[ib];
        const double ya = row(v, after, t, h)[ia], yb = row(v, after, t, h)[ib];
        const double tol = 5e-7 * g * (std::fabs(a) + std::fabs(b)) + 1e-30;
        const double ea = std::fabs(ya - g * (a * cs - b * sn));
        const double eb = std::fabs(yb - g * (b * cs + a * sn));
        if (!(ea <= tol && eb <= tol)) {
          fuzz::note("token %lld (position %.0Lf) head %lld pair %lld: a %.9g b %.9g -> %.9g %.9g",
                     static_cast<long long>(t), p, static_cast<long long>(h),
                     static_cast<long long>(i), a, b, ya, yb);
          fuzz::fail("rotation matches the float64 reference", std::max(ea, eb), tol);
        }
      }
    }
  }
}

void check_cache(const rotary_cache& c) {
  const auto half = static_cast<std::size_t>(c.rotary_dim() / 2);
  const auto cs = c.cos_table(), sn = c.sin_table();
  expect(cs.size() == static_cast<std::size_t>(c.count()) * half, "cos table holds count x r/2");
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const double one = double{cs[i]} * cs[i] + double{sn[i]} * sn[i];
    if (!(std::fabs(one - 1.0) <= 1e-6)) {
      fuzz::note("cache row %lld, theta_%zu = %.17g, attention factor %.17g",
                 static_cast<long long>(c.first()) + static_cast<long long>(i / half), i % half,
                 c.inv_freq()[i % half], c.attention_factor());
      fuzz::fail("cos^2 + sin^2 = 1", one, 1.0);
    }
  }
  std::vector<float> c_row(half), s_row(half);
  for (std::int64_t k = 0; k < c.count(); k += std::max<std::int64_t>(1, c.count() / 4)) {
    c.row(c.first() + k, c_row.data(), s_row.data());
    expect(fuzz::same_bits(c_row.data(), cs.data() + static_cast<std::size_t>(k) * half, half) &&
               fuzz::same_bits(s_row.data(), sn.data() + static_cast<std::size_t>(k) * half, half),
           "row() equals the cached row");
  }
}

// Finite, moderate data, sane attention factor and no huge positions: the maths checks apply.
struct conditions {
  bool data_ok, factor_ok, positions_ok;
  bool all() const { return data_ok && factor_ok && positions_ok; }
};


bool small_positions(std::span<const std::int32_t> p) {
  for (std::int32_t x : p)
    if (x < -(1 << 24) || x > (1 << 24)) return false;
  return true;
}

void fuzz_apply(fuzz::input& in, const rotary_cache& cache) {
  const std::int64_t tokens = in.count(12), heads = in.count(4);
  const std::int64_t dim = in.rarely(16) ? in.dim(64) : cache.head_dim();
  auto x = in.make_tensor(tokens, heads, dim, in.rarely(4));
  const bool by_positions = in.flag();
  const auto n = static_cast<std::size_t>(std::clamp<std::int64_t>(tokens, 0, 64));
  std::vector<std::int32_t> pos = in.positions(in.rarely(16) ? n + 1 : n);
  const std::int64_t start = in.flag() ? in.position() : in.between<std::int64_t>(-100, 100);
  const direction dir = in.flag() ? direction::forward : direction::inverse;
  // 0 in place, 1 out of place, 2 out is the in view, 3 out shares in's buffer at an offset
  // (must be refused whenever the two views overlap).
  const int mode = in.between<int>(0, 3);
  const auto offset = in.between<std::size_t>(1, 8);
  fuzz::note("apply head_dim %d rotary_dim %d layout %d first %lld count %lld | view %lld x %lld x %lld "
             "strides %lld %lld size %zu | by_positions %d start %lld dir %d mode %d",
             cache.head_dim(), cache.rotary_dim(), static_cast<int>(cache.layout()),
             static_cast<long long>(cache.first()), static_cast<long long>(cache.count()),
             static_cast<long long>(x.view.tokens), static_cast<long long>(x.view.heads),
             static_cast<long long>(x.view.dim), static_cast<long long>(x.view.token_stride),
             static_cast<long long>(x.view.head_stride), x.view.size, by_positions,
             static_cast<long long>(start), static_cast<int>(dir), mode);

  const std::vector<float> before(x.storage.begin(), x.storage.end());
  fuzz::buffer out_storage(mode == 1 ? x.storage.size : 0);
  if (mode == 1) std::copy(x.storage.begin(), x.storage.end(), out_storage.begin());
  tensor_view out = x.view;
  if (mode == 1) out.data = x.view.data ? out_storage.begin() : nullptr;
  if (mode == 3 && x.view.data != nullptr && offset <= x.view.size) {
    out.data = x.view.data + offset;
    out.size = x.view.size - offset;
  }

  auto call = [&](const tensor_view& src, const tensor_view& dst, direction d) {
    if (mode == 0) {
      by_positions ? rope_apply(cache, dst, pos, d) : rope_apply(cache, dst, start, d);
    } else {
      const const_tensor_view csrc = src;
      by_positions ? rope_apply(cache, csrc, dst, pos, d) : rope_apply(cache, csrc, dst, start, d);
    }
  };
  if (!fuzz::attempt([&] { call(x.view, out, dir); })) {
    expect(fuzz::same_bits(before.data(), x.storage.begin(), before.size()),
           "a refused call writes nothing");
    return;
  }
  if (mode == 3) return;  // accepted only when disjoint; ASan watched the accesses
  if (mode == 1) {
    expect(fuzz::same_bits(before.data(), x.storage.begin(), before.size()),
           "out of place leaves the input alone");
    check_untouched(cache, x.view, before.data(), out_storage.begin());
  } else {
    check_untouched(cache, x.view, before.data(), x.storage.begin());
  }
  const float* result = mode == 1 ? out_storage.begin() : x.storage.begin();

  const double f = cache.attention_factor();
  const conditions ok{moderate(before.data(), before.size()), f >= 1e-3 && f <= 1e3,
                      by_positions ? small_positions(pos)
                                   : start >= -(1 << 24) && start <= (1 << 24)};
  if (!ok.all()) return;
  check_rotated(cache, x.view, before.data(), result,
                dir == direction::forward ? double{static_cast<float>(f)}
                                          : double{static_cast<float>(1.0 / f)});
  if (by_positions)
    check_reference(cache, x.view, before.data(), result,
                    [&](std::int64_t t) { return pos[static_cast<std::size_t>(t)]; }, dir);
  else
    check_reference(cache, x.view, before.data(), result,
                    [&](std::int64_t t) { return start + t; }, dir);
  // Undo it: the other direction on the result, in place on a copy.
  fuzz::buffer back(x.storage.size);  // never a null pointer, unlike an empty vector
  std::copy(result, result + x.storage.size, back.begin());
  tensor_view bv = x.view;
  bv.data = back.begin();
  by_positions ? rope_apply(cache, bv, pos, dir == direction::forward ? direction::inverse : direction::forward)
               : rope_apply(cache, bv, start, dir == direction::forward ? direction::inverse : direction::forward);
  check_round_trip(cache, x.view, before.data(), back.begin());
}

void fuzz_qk(fuzz::input& in, const rotary_cache& cache) {
  const std::int64_t tokens = in.count(12);
  auto q = in.make_tensor(tokens, in.count(4), cache.head_dim(), in.rarely(4));
  auto k = in.make_tensor(in.rarely(16) ? in.count(12) : tokens, in.count(4), cache.head_dim(),
                          in.rarely(4));
  if (in.rarely(16)) k.view = q.view;  // aliasing q and k must be refused
  const auto n = static_cast<std::size_t>(std::clamp<std::int64_t>(tokens, 0, 64));
  const std::vector<std::int32_t> pos = in.positions(n);
  const bool by_positions = in.flag();
  const std::int64_t start = in.position();
  fuzz::note("qk head_dim %d rotary_dim %d layout %d | q %lld x %lld size %zu, k %lld x %lld size %zu | start %lld",
             cache.head_dim(), cache.rotary_dim(), static_cast<int>(cache.layout()),
             static_cast<long long>(q.view.tokens), static_cast<long long>(q.view.heads), q.view.size,
             static_cast<long long>(k.view.tokens), static_cast<long long>(k.view.heads), k.view.size,
             static_cast<long long>(start));
  const std::vector<float> q0(q.storage.begin(), q.storage.end());
  const std::vector<float> k0(k.storage.begin(), k.storage.end());
  if (!fuzz::attempt([&] {
        by_positions ? rope_apply_qk(cache, q.view, k.view, pos)
                     : rope_apply_qk(cache, q.view, k.view, start);
      })) {
    expect(fuzz::same_bits(q0.data(), q.storage.begin(), q0.size()) &&
               fuzz::same_bits(k0.data(), k.storage.begin(), k0.size()),
           "a refused qk call writes nothing");
    return;
  }
  check_untouched(cache, q.view, q0.data(), q.storage.begin());
  if (k.view.data != k.storage.begin()) return;  // k aliased q (accepted only when empty)
  check_untouched(cache, k.view, k0.data(), k.storage.begin());
  // Bit-identical to rope_apply on each (rotary.hpp).
  fuzz::buffer q1(q0.size()), k1(k0.size());  // non-null even when empty
  std::copy(q0.begin(), q0.end(), q1.begin());
  std::copy(k0.begin(), k0.end(), k1.begin());
  tensor_view qv = q.view, kv = k.view;
  qv.data = q.view.data ? q1.begin() : nullptr;
  kv.data = k.view.data ? k1.begin() : nullptr;
  by_positions ? rope_apply(cache, qv, pos) : rope_apply(cache, qv, start);
  by_positions ? rope_apply(cache, kv, pos) : rope_apply(cache, kv, start);
  expect(fuzz::same_bits(q1.begin(), q.storage.begin(), q1.size) &&
             fuzz::same_bits(k1.begin(), k.storage.begin(), k1.size),
         "rope_apply_qk equals two rope_apply calls");
}

void fuzz_shift(fuzz::input& in, const rotary_cache& cache) {
  auto k = in.make_tensor(in.count(12), in.count(4), cache.head_dim(), in.rarely(4));
  const std::int64_t delta = in.position();
  fuzz::note("shift head_dim %d rotary_dim %d layout %d | k %lld x %lld strides %lld %lld size %zu | delta %lld",
             cache.head_dim(), cache.rotary_dim(), static_cast<int>(cache.layout()),
             static_cast<long long>(k.view.tokens), static_cast<long long>(k.view.heads),
             static_cast<long long>(k.view.token_stride), static_cast<long long>(k.view.head_stride),
             k.view.size, static_cast<long long>(delta));
  const std::vector<float> k0(k.storage.begin(), k.storage.end());
  if (!fuzz::attempt([&] { rope_shift(cache, k.view, delta); })) {
    expect(fuzz::same_bits(k0.data(), k.storage.begin(), k0.size()), "a refused shift writes nothing");
    return;
  }
  check_untouched(cache, k.view, k0.data(), k.storage.begin());
  if (!moderate(k0.data(), k0.size())) return;
  check_rotated(cache, k.view, k0.data(), k.storage.begin(), 1.0);  // no attention factor
  rope_shift(cache, k.view, -delta);
  check_round_trip(cache, k.view, k0.data(), k.storage.begin());
}

void fuzz_row(fuzz::input& in, const rotary_cache& cache) {
  const std::int64_t p = in.position();
  const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
  fuzz::buffer c(half), s(half);
  if (!fuzz::attempt([&] { cache.row(p, c.begin(), s.begin()); })) return;
  for (std::size_t i = 0; i < half; ++i)
    expect(std::fabs(double{c.begin()[i]} * c.begin()[i] + double{s.begin()[i]} * s.begin()[i] - 1.0) <= 1e-6,
           "row: cos^2 + sin^2 = 1");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  rope_config config;
  config.head_dim = in.dim(in.flag() ? 24 : 160);
  config.rotary_dim = in.rotary_dim(config.head_dim);
  config.base = in.base();
  config.layout = in.pick_rope_layout();
  if (in.rarely(4)) config.scaling = in.scaling_for(config.rotary_dim ? config.rotary_dim : config.head_dim);
  // Cache rows: mostly a few around small positions; rarely counts that must be refused
  // (over max_position, or tables over 2^28 floats) — never a legal huge table.
  std::int64_t first = in.flag() ? in.between<std::int64_t>(-40, 40) : in.position();
  std::int64_t count = in.between<std::int64_t>(0, 48);
  if (in.rarely(16)) {
    const int r = config.rotary_dim != 0 ? config.rotary_dim : config.head_dim;
    const std::int64_t over_table = (std::int64_t{1} << 28) / std::max(1, r / 2) + 1;
    count = in.one_of<std::int64_t>({-1, max_position + 1, std::int64_t{1} << 40, INT64_MIN,
                                     r > 2 ? over_table : -1});
  }
  fuzz::note("cache head_dim %d rotary_dim %d base %.17g layout %d scaling %d first %lld count %lld",
             config.head_dim, config.rotary_dim, config.base, static_cast<int>(config.layout),
             static_cast<int>(config.scaling.type), static_cast<long long>(first),
             static_cast<long long>(count));
  std::unique_ptr<rotary_cache> cache;
  if (!fuzz::attempt([&] { cache = std::make_unique<rotary_cache>(config, first, count); }))
    return 0;
  // Every accepted ladder is finite and bounded (finding-longrope-tiny-factor-nan, fixed:
  // inverse_frequencies refuses θ_i outside (0, max_inv_freq]).
  for (double t : cache->inv_freq())
    expect(t > 0 && t <= max_inv_freq, "theta in (0, max_inv_freq]", t);
  check_cache(*cache);
  switch (in.between<int>(0, 3)) {
    case 0: fuzz_apply(in, *cache); break;
    case 1: fuzz_qk(in, *cache); break;
    case 2: fuzz_shift(in, *cache); break;
    default: fuzz_row(in, *cache); break;
  }
  return 0;
}
