// tests/fuzz/fuzz_input.hpp — the decoder shared by every libFuzzer target: turns the fuzz
// bytes into posenc arguments. Values are mostly inside the documented ranges (so the maths
// runs) and deliberately often at, or one step past, a limit: odd and huge dims, bases at 1,
// NaN and ±inf, int32/int64 extremes, ±max_position ± 1, overlapping or out-of-buffer
// strides. Sizes that would make posenc allocate or loop a lot are capped here, so one
// execution stays under ~10 ms; sizes past a limit are only ever ones posenc must refuse.
//
// Every buffer a target hands to posenc is allocated with exactly the number of elements
// the call is told it has, so AddressSanitizer sees any access past it.
#pragma once

#include "posenc/posenc.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <span>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <vector>

namespace posenc::fuzz {

// The decoded arguments of the current execution, printed with a violated invariant so a
// finding can be reported without a debugger. Targets fill it with note().
inline char* context() {
  static char text[512];
  return text;
}

// POSENC_FUZZ_TRACE=1 also prints every note (to see what a slow input is doing).
template <class... Args>
void note(const char* format, Args... args) {
  std::snprintf(context(), 512, format, args...);
  static const bool trace = std::getenv("POSENC_FUZZ_TRACE") != nullptr;
  if (trace) std::fprintf(stderr, "posenc fuzz: %s\n", context());
}

// An invariant did not hold: print it and abort, so libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* what, double got, double limit) {
  std::fprintf(stderr, "posenc fuzz invariant violated: %s (got %.17g, limit %.17g)\n  at %s\n",
               what, got, limit, context());
  std::abort();
}

inline void expect(bool ok, const char* what, double got = 0, double limit = 0) {
  if (!ok) fail(what, got, limit);
}

// Value checks (finite outputs, error bounds) apply to inputs of moderate size only: huge
// or non-finite inputs may legitimately overflow.
inline bool moderate(std::span<const float> x) {
  for (float v : x)
    if (!(std::fabs(v) <= 1e3f)) return false;
  return true;
}

// Runs `call`; a posenc::error is an accepted outcome (false), success is true. Any other
// exception escapes to libFuzzer, which reports it as a crash — a finding.
template <class Call>
bool attempt(Call&& call) {
  try {
    call();
    return true;
  } catch (const posenc::error&) {
    return false;
  }
}

// A float buffer owned by the target: exactly `size` elements (new float[0] is a distinct,
// non-null, zero-byte allocation, so even an empty buffer has a red zone behind it).
struct buffer {
  std::unique_ptr<float[]> data;
  std::size_t size = 0;

  explicit buffer(std::size_t n) : data(new float[n]), size(n) {}
  float* begin() const { return data.get(); }
  float* end() const { return data.get() + size; }
};

// Saturating int64 arithmetic for shapes built from absurd counts (the decoder itself must
// not overflow; posenc then sees INT64_MAX-sized strides and must refuse them).
inline std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}
inline std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return b < 0 ? INT64_MIN : INT64_MAX;
  return r;
}

class input {
public:
  input(const std::uint8_t* data, std::size_t size) : fdp_(data, size) {}

  bool flag() { return fdp_.ConsumeBool(); }
  // True one time in n (as far as the bytes are uniform).
  bool rarely(unsigned n = 8) { return fdp_.ConsumeIntegralInRange<unsigned>(0, n - 1) == 0; }

  template <class T>
  T between(T lo, T hi) {
    return fdp_.ConsumeIntegralInRange<T>(lo, hi);
  }

  template <class T>
  T one_of(std::initializer_list<T> values) {
    const auto i = between<std::size_t>(0, values.size() - 1);
    return values.begin()[i];
  }

  double real(double lo, double hi) { return fdp_.ConsumeFloatingPointInRange(lo, hi); }

  // Doubles that break naive arithmetic.
  double special_double() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return one_of<double>({std::numeric_limits<double>::quiet_NaN(), inf, -inf, 0.0, -0.0,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max(), 1.0,
                           std::nextafter(1.0, 2.0), std::nextafter(1.0, 0.0), -1.0, 0x1p53,
                           0x1p1023, 1e-300, 1e300});
  }

  // ---- dims ---------------------------------------------------------------------------

  // Mostly an even dim in [2, cap]; sometimes odd; rarely a value every function refuses.
  int dim(int cap) {
    if (rarely(10))
      return one_of<int>({0, -2, -1, 1, max_dim + 1, max_dim + 2, INT_MIN, INT_MAX});
    if (rarely(6)) return between<int>(1, cap);
    return 2 * between<int>(1, cap / 2);
  }

  // rope_config.rotary_dim for a head_dim: 0 (= head_dim), an even value ≤ head_dim (often
  // with an odd half, the ragged-tail case), or rarely an odd / too large / negative one.
  int rotary_dim(int head_dim) {
    if (rarely(10)) {
      const int above = head_dim < INT_MAX - 2 ? head_dim + 1 : INT_MAX;
      return one_of<int>({-2, -1, 1, 3, above, above + (above < INT_MAX), INT_MAX});
    }
    if (flag() || head_dim < 2) return 0;
    return 2 * between<int>(1, std::max(1, head_dim / 2));
  }

  // ---- reals --------------------------------------------------------------------------

  double base() {
    if (rarely(8)) return special_double();
    if (rarely(4)) return real(1.0, 1e12);
    return one_of<double>({10000.0, 500000.0, 1e6, 2.0, 1.0001, 10.0, 1e4 + 1});
  }

  // A scaling parameter: mostly a plausible factor, sometimes at/below its limit or special.
  double parameter() {
    if (rarely(6)) return special_double();
    if (rarely(4)) return real(-2.0, 2.0);
    return one_of<double>({1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 0.5, 64.0}) + (flag() ? 0.0 : real(0, 1));
  }

  // Optional int key (lengths): plausible, or rarely an out-of-range one.
  int length() {
    if (rarely(8)) return one_of<int>({0, -1, 1, 2, INT_MIN, INT_MAX});
    return one_of<int>({2048, 4096, 8192, 32768, 131072}) + between<int>(-2, 2);
  }

  // ---- positions ----------------------------------------------------------------------

  // Any int64 with the limits of rotary (max_position) and sinusoidal (max_table_position)
  // and int32 strongly represented.
  std::int64_t position() {
    constexpr std::int64_t i32lo = INT32_MIN, i32hi = INT32_MAX;
    constexpr std::int64_t i64lo = INT64_MIN, i64hi = INT64_MAX;
    switch (between<int>(0, 5)) {
      case 0: return between<std::int64_t>(-64, 64);
      case 1: return between<std::int64_t>(-(1 << 24), 1 << 24);
      case 2:
        return one_of<std::int64_t>({i32lo, i32hi, i32lo + 1, i32hi - 1, max_position,
                                     -max_position, max_position + 1, -max_position - 1,
                                     max_position - 1, max_table_position,
                                     -max_table_position, max_table_position + 1,
                                     -max_table_position - 1, i64lo, i64hi, i64lo + 1});
      case 3: return between<std::int64_t>(i32lo, i32hi);
      default: return between<std::int64_t>(i64lo, i64hi);
    }
  }

  // A position that stays where positions are exact and cheap: |p| ≤ 2^24 mostly.
  std::int32_t position32() {
    switch (between<int>(0, 3)) {
      case 0: return between<std::int32_t>(-64, 64);
      case 1: return between<std::int32_t>(-(1 << 24), 1 << 24);
      case 2: return one_of<std::int32_t>({INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, 0});
      default: return between<std::int32_t>(INT32_MIN, INT32_MAX);
    }
  }

  std::vector<std::int32_t> positions(std::size_t n) {
    std::vector<std::int32_t> p(n);
    const bool contiguous = flag();
    const std::int32_t start = position32();
    for (std::size_t i = 0; i < n; ++i)
      p[i] = contiguous && start < INT32_MAX - 64 ? start + static_cast<std::int32_t>(i)
                                                  : position32();
    return p;
  }

  // ---- data ---------------------------------------------------------------------------

  // A float of the data (q, k, x, tensors): mostly in [−4, 4]; sometimes special when
  // `specials` is set (NaN, ±inf, huge, denormal, −0).
  float value(bool specials) {
    if (specials && rarely(16)) {
      constexpr float inf = std::numeric_limits<float>::infinity();
      return one_of<float>({std::numeric_limits<float>::quiet_NaN(), inf, -inf, -0.0f,
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(), 1e30f, -1e30f});
    }
    return static_cast<float>(between<int>(-32768, 32767)) / 8192.0f;
  }

  void fill(float* out, std::size_t n, bool specials) {
    for (std::size_t i = 0; i < n; ++i) out[i] = value(specials);
  }

  std::vector<float> values(std::size_t n, bool specials) {
    std::vector<float> v(n);
    fill(v.data(), n, specials);
    return v;
  }

  // ---- enums --------------------------------------------------------------------------
  // Scoped enums hold any int, so a caller can pass a value outside the enumerators (a
  // careless cast from JS or a file): rarely produce one.

  template <class Enum>
  Enum enumerator(int count) {
    if (rarely(32)) return static_cast<Enum>(one_of<int>({count, count + 1, -1, INT_MAX}));
    return static_cast<Enum>(between<int>(0, count - 1));
  }
  rope_layout pick_rope_layout() { return enumerator<rope_layout>(2); }
  pe_layout pick_pe_layout() { return enumerator<pe_layout>(2); }
  score_mode pick_score_mode() { return enumerator<score_mode>(3); }

  // ---- scaling ------------------------------------------------------------------------

  // HF's rope_scaling dictionary: each key present or absent, values as parameter();
  // longrope factor lists hold dim/2 values (rarely one more or one less).
  scaling scaling_for(int dim) {
    scaling s;
    if (rarely(3)) return s;
    s.type = enumerator<scaling_type>(6);
    auto maybe = [&](auto& field, auto make) {
      if (flag()) field = make();
    };
    maybe(s.factor, [&] { return parameter(); });
    maybe(s.original_max_position_embeddings, [&] { return length(); });
    maybe(s.max_position_embeddings, [&] { return length(); });
    maybe(s.seq_len, [&] { return length(); });
    maybe(s.attention_factor, [&] { return parameter(); });
    maybe(s.mscale, [&] { return parameter(); });
    maybe(s.mscale_all_dim, [&] { return parameter(); });
    if (flag()) s.beta_fast = parameter() * 8;
    if (flag()) s.beta_slow = parameter();
    s.truncate = flag();
    if (flag()) s.low_freq_factor = parameter();
    if (flag()) s.high_freq_factor = parameter() * 4;
    if (s.type == scaling_type::longrope && dim > 0 && dim <= 4096) {
      for (auto* list : {&s.short_factor, &s.long_factor}) {
        std::size_t n = static_cast<std::size_t>(dim / 2);
        if (rarely(10)) n = flag() ? n + 1 : (n > 0 ? n - 1 : 0);
        list->resize(n);
        for (double& v : *list) v = rarely(32) ? special_double() : real(1.0, 8.0);
      }
    }
    return s;
  }

  // ---- strided tensors ----------------------------------------------------------------

  // A [tokens][heads][dim] view over its own buffer. Shapes and strides are mostly valid
  // (dense, heads-major, padded), sometimes overlapping or too large for the buffer; the
  // buffer holds exactly view.size floats whatever the shape claims.
  struct tensor {
    buffer storage;
    tensor_view view;
  };

  tensor make_tensor(std::int64_t tokens, std::int64_t heads, std::int64_t dim,
                     bool specials) {
    constexpr std::size_t max_floats = std::size_t{1} << 16;
    std::int64_t ts = 0, hs = 0;
    switch (between<int>(0, 4)) {
      case 0: ts = sat_mul(heads, dim), hs = dim; break;               // [tokens][heads][dim]
      case 1: ts = dim, hs = sat_mul(tokens, dim); break;              // [heads][tokens][dim]
      case 2: {                                                        // padded rows
        hs = sat_add(dim, between<std::int64_t>(0, 5));
        ts = sat_add(sat_mul(heads, hs), between<std::int64_t>(0, 7));
        break;
      }
      case 3: ts = between<std::int64_t>(0, 300), hs = between<std::int64_t>(0, 300); break;
      default:
        ts = one_of<std::int64_t>({-1, 0, INT64_MAX, INT64_MAX / 2, INT64_MIN, 1 << 20});
        hs = one_of<std::int64_t>({-1, 0, 1, INT64_MAX, dim, INT64_MAX / 3});
    }
    // Elements the view reaches (when it fits in int64 and is small): the exact buffer.
    std::size_t need = 0;
    if (tokens > 0 && heads > 0 && dim > 0 && ts >= 0 && hs >= 0 && tokens <= 4096 &&
        heads <= 4096 && ts <= (1 << 20) && hs <= (1 << 20) && dim <= (1 << 20))
      need = static_cast<std::size_t>((tokens - 1) * ts + (heads - 1) * hs + dim);
    std::size_t size = need;
    switch (between<int>(0, 7)) {
      case 0: size = need + between<std::size_t>(1, 9); break;
      case 1: size = need > 0 ? need - between<std::size_t>(1, std::min<std::size_t>(need, 3)) : 0; break;
      case 2: size = between<std::size_t>(0, 64); break;
      default: break;
    }
    size = std::min(size, max_floats);
    tensor t{buffer(size), {}};
    fill(t.storage.begin(), size, specials);
    t.view = {t.storage.begin(), size, tokens, heads, dim, ts, hs};
    if (rarely(64)) t.view.data = nullptr;
    return t;
  }

  // Token and head counts: small, rarely zero, negative or absurd.
  std::int64_t count(std::int64_t cap) {
    if (rarely(16)) return one_of<std::int64_t>({-1, INT64_MIN, INT64_MAX, 1 << 30, cap + 1});
    return between<std::int64_t>(0, cap);
  }

private:
  FuzzedDataProvider fdp_;
};

// Bitwise equality (NaN payloads included), for "untouched" checks.
inline bool same_bits(const float* a, const float* b, std::size_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(float)) == 0;
}

}  // namespace posenc::fuzz
