// tests/core/test_frequencies.cpp — the ladder θ_i, wavelengths, and HF's scaling variants.
//
// Expected numbers are worked by hand in closed form (comments show the working), never
// copied from the code under test. The golden JSON cases (tests/vectors/ladder.json) are
// checked in test_vectors.cpp.
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using posenc::scaling;
using posenc::scaling_type;

namespace {

constexpr double kPi = std::numbers::pi;

std::vector<double> theta(int dim, double base = 10000.0, const scaling& s = {}) {
  return posenc::inverse_frequencies(dim, base, s).inv_freq;
}

void require_close(const std::vector<double>& got, const std::vector<double>& want,
                   double rel = 1e-14) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("i = " << i << ": got " << got[i] << ", want " << want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <= rel * std::abs(want[i]));
  }
}

// Throws posenc::invalid_argument (also a posenc::error and a std::exception) whose message
// names `name`.
void require_invalid(const std::function<void()>& call, const std::string& name) {
  REQUIRE_THROWS_AS(call(), posenc::invalid_argument);
  REQUIRE_THROWS_AS(call(), posenc::error);
  REQUIRE_THROWS_AS(call(), std::exception);
  REQUIRE_THROWS_WITH(call(), Catch::Contains(name));
}

scaling make(scaling_type type, std::optional<double> factor = std::nullopt) {
  scaling s;
  s.type = type;
  s.factor = factor;
  return s;
}

} // namespace

TEST_CASE("ladder facts, d = 8 and d = 4", "[frequencies]") {
  require_close(theta(8), {1.0, 0.1, 0.01, 0.001});
  require_close(theta(4), {1.0, 0.01});
  const auto l8 = posenc::wavelengths(8);
  const double printed8[] = {6.28, 62.8, 628, 6283};  // the textbook values, to the printed digits
  for (int i = 0; i < 4; ++i) REQUIRE(l8[i] == Approx(printed8[i]).epsilon(1e-3));
  require_close(l8, {2 * kPi, 20 * kPi, 200 * kPi, 2000 * kPi});
  const auto l4 = posenc::wavelengths(4);
  REQUIRE(l4[0] == Approx(6.28).epsilon(1e-3));
  REQUIRE(std::round(l4[1] * 100) / 100 == 628.32);
  REQUIRE(posenc::inverse_frequencies(8).attention_factor == 1.0);
}

TEST_CASE("default ladder within 1 ulp of b^(-2i/d) (long double truth)", "[frequencies]") {
  // long double (x87, 64-bit mantissa) evaluates b^(-2i/d) with ~11 more bits than double.
  const double bases[] = {2.0, 10.0, 10000.0, 500000.0, 1e6, 123456.789, 1e300};
  double worst = 0;
  for (const double b : bases)
    for (const int d : {2, 4, 6, 8, 10, 64, 80, 96, 128, 130, 256, 4096, 65536}) {
      const auto t = theta(d, b);
      for (int i = 0; i < d / 2; ++i) {
        const long double truth = std::pow(static_cast<long double>(b),
                                           -static_cast<long double>(2 * i) / d);
        const double ulp = std::nextafter(static_cast<double>(truth), 2.0) -
                           static_cast<double>(truth);
        worst = std::max(worst, static_cast<double>(std::abs(t[i] - truth) / ulp));
      }
    }
  INFO("worst error: " << worst << " ulp");
  REQUIRE(worst <= 1.0);
}

TEST_CASE("ladder is strictly decreasing from θ_0 = 1", "[frequencies]") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 50; ++trial) {
    const int d = 2 * std::uniform_int_distribution<int>(1, 512)(rng);
    const double b = std::exp(std::uniform_real_distribution<double>(0.01, 20.0)(rng));
    const auto t = theta(d, b);
    REQUIRE(t.size() == static_cast<std::size_t>(d / 2));
    REQUIRE(t[0] == 1.0);
    for (std::size_t i = 1; i < t.size(); ++i) REQUIRE(t[i] < t[i - 1]);
  }
}

TEST_CASE("linear: θ_i / factor", "[frequencies]") {
  require_close(theta(8, 10000, make(scaling_type::linear, 4.0)), {0.25, 0.025, 0.0025, 0.00025});
  REQUIRE(posenc::inverse_frequencies(8, 10000, make(scaling_type::linear, 4.0))
              .attention_factor == 1.0);
}

TEST_CASE("dynamic NTK: base·(factor·L/M − (factor − 1))^(d/(d−2))", "[frequencies]") {
  scaling s = make(scaling_type::dynamic, 2.0);
  s.max_position_embeddings = 100;
  SECTION("seq_len ≤ M (or unset) leaves the ladder unchanged: 2·100/100 − 1 = 1") {
    require_close(theta(8, 10000, s), theta(8));
    s.seq_len = 50;
    require_close(theta(8, 10000, s), theta(8));
  }
  SECTION("seq_len = 300: scale 2·3 − 1 = 5, base' = 10⁴·5^(4/3), θ_i = 10^(−i)·5^(−i/3)") {
    s.seq_len = 300;
    std::vector<double> want;
    for (int i = 0; i < 4; ++i) want.push_back(std::pow(10.0, -i) * std::pow(5.0, -i / 3.0));
    require_close(theta(8, 10000, s), want);
    REQUIRE(want[1] == Approx(0.0584803548));
  }
}

TEST_CASE("yarn, worked by hand for d = 8, b = 10⁴, factor 4, original 4096", "[frequencies]") {
  // find_correction_dim(r) = 8·ln(4096/(2π·r)) / (2·ln 10⁴) = log10(4096/(2π·r)):
  //   beta_fast 32 → log10(20.37) = 1.309 → floor 1;  beta_slow 1 → log10(651.9) = 2.814 → ceil 3.
  // ramp_i = clamp((i − 1)/2, 0, 1) = [0, 0, 0.5, 1];  θ'_i = θ_i·(ramp/4 + (1 − ramp)).
  const std::vector<double> truncated = {1.0, 0.1, 0.01 * (0.5 / 4 + 0.5), 0.001 / 4};
  const double attention = 0.1 * std::log(4.0) + 1.0;  // get_mscale(4) = 1.1386294
  scaling s = make(scaling_type::yarn, 4.0);
  s.original_max_position_embeddings = 4096;
  SECTION("defaults: truncate, beta 32/1, attention 0.1·ln 4 + 1") {
    const auto f = posenc::inverse_frequencies(8, 10000, s);
    require_close(f.inv_freq, truncated);
    REQUIRE(f.attention_factor == Approx(attention).epsilon(1e-15));
    REQUIRE(f.attention_factor == Approx(1.1386294361));
  }
  SECTION("truncate = false keeps the fractional ramp ends") {
    s.truncate = false;
    const double lo = std::log10(4096 / (64 * kPi)), hi = std::log10(4096 / (2 * kPi));
    const double r2 = (2 - lo) / (hi - lo);
    REQUIRE(r2 == Approx(0.45904).epsilon(1e-4));
    require_close(theta(8, 10000, s),
                  {1.0, 0.1, 0.01 * (1 - r2 * 0.75), 0.00025});  // ramp_1 < 0, ramp_3 > 1
  }
  SECTION("beta 0 means HF's default (`or 32`, `or 1`)") {
    s.beta_fast = 0;
    s.beta_slow = 0;
    require_close(theta(8, 10000, s), truncated);
  }
  SECTION("original falls back to max_position_embeddings") {
    s.original_max_position_embeddings.reset();
    s.max_position_embeddings = 4096;
    require_close(theta(8, 10000, s), truncated);
  }
  SECTION("factor unset: max_position_embeddings / original = 16384/4096 = 4") {
    s.factor.reset();
    s.max_position_embeddings = 16384;
    const auto f = posenc::inverse_frequencies(8, 10000, s);
    require_close(f.inv_freq, truncated);
    REQUIRE(f.attention_factor == Approx(attention).epsilon(1e-15));
  }
  SECTION("mscale / mscale_all_dim ratio, and explicit attention_factor wins") {
    s.mscale = 1.0;
    s.mscale_all_dim = 0.5;
    const double ln4 = std::log(4.0);
    REQUIRE(posenc::inverse_frequencies(8, 10000, s).attention_factor ==
            Approx((0.1 * ln4 + 1) / (0.05 * ln4 + 1)).epsilon(1e-15));
    s.mscale_all_dim = 0.0;  // falsy in HF: back to get_mscale(factor)
    REQUIRE(posenc::inverse_frequencies(8, 10000, s).attention_factor ==
            Approx(attention).epsilon(1e-15));
    s.attention_factor = 0.75;
    REQUIRE(posenc::inverse_frequencies(8, 10000, s).attention_factor == 0.75);
  }
  SECTION("factor 1 is the plain ladder with attention 1") {
    s.factor = 1.0;
    const auto f = posenc::inverse_frequencies(8, 10000, s);
    require_close(f.inv_freq, theta(8));
    REQUIRE(f.attention_factor == 1.0);
  }
}

TEST_CASE("llama3, worked by hand for d = 8, factor 8, original 2048", "[frequencies]") {
  // λ = 2π·[1, 10, 100, 1000]; low_freq_wavelen = 2048/1 = 2048, high = 2048/4 = 512.
  // λ0, λ1 < 512 kept; λ3 = 6283 > 2048 divided by 8; λ2 = 628.3 blended with
  // smooth = (2048/(200π) − 1)/3 = 0.753164.
  scaling s = make(scaling_type::llama3, 8.0);
  s.original_max_position_embeddings = 2048;
  const double smooth = (2048 / (200 * kPi) - 1) / 3;
  REQUIRE(smooth == Approx(0.753164).epsilon(1e-6));
  const auto f = posenc::inverse_frequencies(8, 10000, s);
  require_close(f.inv_freq, {1.0, 0.1, 0.01 * ((1 - smooth) / 8 + smooth), 0.001 / 8});
  REQUIRE(f.attention_factor == 1.0);
  SECTION("factor 1 leaves every frequency") {
    s.factor = 1.0;
    require_close(theta(8, 10000, s), theta(8));
  }
}

TEST_CASE("longrope, worked by hand for d = 8, original 4096, max 16384", "[frequencies]") {
  scaling s = make(scaling_type::longrope);
  s.original_max_position_embeddings = 4096;
  s.max_position_embeddings = 16384;
  s.short_factor = {1, 2, 4, 8};
  s.long_factor = {2, 4, 8, 16};
  // factor = 16384/4096 = 4, attention = √(1 + ln 4/ln 4096) = √(1 + 2/12) = √(7/6).
  const double attention = std::sqrt(7.0 / 6.0);
  SECTION("seq_len unset or ≤ original: short factors") {
    const auto f = posenc::inverse_frequencies(8, 10000, s);
    require_close(f.inv_freq, {1.0, 0.05, 0.0025, 0.000125});
    REQUIRE(f.attention_factor == Approx(attention).epsilon(1e-15));
    s.seq_len = 4096;
    require_close(theta(8, 10000, s), {1.0, 0.05, 0.0025, 0.000125});
  }
  SECTION("seq_len > original: long factors") {
    s.seq_len = 4097;
    require_close(theta(8, 10000, s), {0.5, 0.025, 0.00125, 0.0000625});
  }
  SECTION("an explicit factor wins over the ratio; factor 1 means attention 1") {
    s.factor = 1.0;
    REQUIRE(posenc::inverse_frequencies(8, 10000, s).attention_factor == 1.0);
    s.factor = 64.0;  // √(1 + ln 64/ln 4096) = √(1 + 6/12)
    REQUIRE(posenc::inverse_frequencies(8, 10000, s).attention_factor ==
            Approx(std::sqrt(1.5)).epsilon(1e-15));
  }
}

TEST_CASE("scaling identities and bounds on random ladders", "[frequencies]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const int d = 2 * std::uniform_int_distribution<int>(2, 256)(rng);
    const double b = std::exp(0.1 + 16 * unit(rng));
    const double f = 1.0 + 63 * unit(rng);
    const int original = std::uniform_int_distribution<int>(16, 1 << 17)(rng);
    INFO("d = " << d << ", base = " << b << ", factor = " << f << ", original = " << original);
    const auto plain = theta(d, b);
    // linear: the same division HF does, so exactly θ_i / factor.
    const auto lin = theta(d, b, make(scaling_type::linear, f));
    for (int i = 0; i < d / 2; ++i) REQUIRE(lin[i] == plain[i] / f);
    // dynamic at seq_len ≤ M: the bracket is exactly 1, the base unchanged.
    scaling dyn = make(scaling_type::dynamic, f);
    dyn.max_position_embeddings = original;
    dyn.seq_len = original / 2;
    REQUIRE(theta(d, b, dyn) == plain);
    // yarn and llama3 interpolate between θ_i/factor and θ_i, keep the order of the ladder,
    // and are the plain ladder (to rounding) at factor 1.
    scaling yarn = make(scaling_type::yarn, f), llama = make(scaling_type::llama3, f);
    yarn.original_max_position_embeddings = llama.original_max_position_embeddings = original;
    yarn.truncate = trial % 2 == 0;
    for (const scaling& s : {yarn, llama}) {
      const auto t = theta(d, b, s);
      for (int i = 0; i < d / 2; ++i) {
        REQUIRE(t[i] <= plain[i] * (1 + 1e-15));
        REQUIRE(t[i] >= plain[i] / f * (1 - 1e-15));
        if (i > 0) REQUIRE(t[i] < t[i - 1]);
      }
      scaling one = s;
      one.factor = 1.0;
      const auto f1 = posenc::inverse_frequencies(d, b, one);
      require_close(f1.inv_freq, plain, 3e-16);
      REQUIRE(f1.attention_factor == 1.0);
    }
    // longrope with unit short factors is the plain ladder.
    scaling lr = make(scaling_type::longrope, f);
    lr.original_max_position_embeddings = original;
    lr.short_factor.assign(d / 2, 1.0);
    lr.long_factor.assign(d / 2, 2.0);
    REQUIRE(theta(d, b, lr) == plain);
  }
}

TEST_CASE("scaling type names round-trip (HF rope_type)", "[frequencies]") {
  for (const char* name : {"default", "linear", "dynamic", "yarn", "llama3", "longrope"})
    REQUIRE(posenc::to_string(posenc::parse_scaling_type(name)) == name);
  REQUIRE(posenc::parse_scaling_type("default") == scaling_type::none);
  require_invalid([] { posenc::parse_scaling_type("ntk"); }, "scaling.type");
  require_invalid([] { posenc::parse_scaling_type(""); }, "scaling.type");
  require_invalid([] { posenc::parse_scaling_type("Linear"); }, "scaling.type");
}

TEST_CASE("bad dim and base throw invalid_argument naming them", "[frequencies]") {
  for (const int d : {-2, 0, 1, 7, posenc::max_dim + 2, posenc::max_dim + 1})
    require_invalid([d] { theta(d); }, "dim");
  REQUIRE(theta(posenc::max_dim).size() == posenc::max_dim / 2);
  for (const double b : {1.0, 0.5, 0.0, -10.0, std::nan(""), HUGE_VAL})
    require_invalid([b] { theta(8, b); }, "base");
  require_invalid([] { posenc::wavelengths(9); }, "dim");
  require_invalid([] { posenc::wavelengths(8, 1.0); }, "base");
}

TEST_CASE("bad scaling parameters throw invalid_argument naming the field", "[frequencies]") {
  const auto bad = [](const scaling& s, const std::string& name, int dim = 8) {
    INFO("expects " << name);
    require_invalid([&] { theta(dim, 10000, s); }, name);
  };
  for (const auto type : {scaling_type::linear, scaling_type::dynamic, scaling_type::llama3}) {
    scaling s = make(type);
    s.max_position_embeddings = 100;
    s.original_max_position_embeddings = 50;
    bad(s, "scaling.factor");  // required for these types
    for (const double f : {0.5, 0.0, -1.0, std::nan(""), HUGE_VAL}) {
      s.factor = f;
      bad(s, "scaling.factor");
    }
  }
  scaling dyn = make(scaling_type::dynamic, 2.0);
  bad(dyn, "scaling.max_position_embeddings");
  dyn.max_position_embeddings = 0;
  bad(dyn, "scaling.max_position_embeddings");
  dyn.max_position_embeddings = 100;
  bad(dyn, "dim", 2);  // HF divides by dim − 2
  dyn.seq_len = 0;
  bad(dyn, "scaling.seq_len");

  scaling yarn = make(scaling_type::yarn, 4.0);
  bad(yarn, "scaling.original_max_position_embeddings");
  yarn.original_max_position_embeddings = -5;
  bad(yarn, "scaling.original_max_position_embeddings");
  yarn.original_max_position_embeddings = 4096;
  for (const double a : {0.0, -1.0, std::nan("")}) {
    scaling t = yarn;
    t.attention_factor = a;
    bad(t, "scaling.attention_factor");
  }
  scaling t = yarn;
  t.beta_fast = 1;
  t.beta_slow = 2;
  bad(t, "scaling.beta_fast");
  t = yarn;
  t.beta_slow = -1;
  bad(t, "scaling.beta_slow");
  t = yarn;
  t.mscale = -1;
  bad(t, "scaling.mscale");
  t = yarn;
  t.mscale_all_dim = std::nan("");
  bad(t, "scaling.mscale_all_dim");
  t = yarn;
  t.factor.reset();
  bad(t, "scaling.factor");  // neither factor nor max_position_embeddings
  t.factor = 0.9;
  bad(t, "scaling.factor");

  scaling llama = make(scaling_type::llama3, 8.0);
  llama.original_max_position_embeddings = 8192;
  llama.high_freq_factor = 0.5;  // must be >= low_freq_factor (1); equal is Llama 4's
  bad(llama, "scaling.high_freq_factor");
  llama.high_freq_factor = 4.0;
  llama.low_freq_factor = 0.0;
  bad(llama, "scaling.low_freq_factor");
  llama.low_freq_factor = 1.0;
  llama.original_max_position_embeddings.reset();
  bad(llama, "scaling.original_max_position_embeddings");

  scaling lr = make(scaling_type::longrope);
  lr.original_max_position_embeddings = 4096;
  lr.max_position_embeddings = 16384;
  lr.short_factor = {1, 1, 1};
  lr.long_factor = {1, 1, 1, 1};
  bad(lr, "scaling.short_factor");
  lr.short_factor = {1, 1, 1, 1};
  lr.long_factor = {1, 1, 0, 1};
  bad(lr, "scaling.long_factor[2]");
  lr.long_factor = {1, 1, 1, std::nan("")};
  bad(lr, "scaling.long_factor[3]");
  lr.long_factor = {1, 1, 1, 1};
  REQUIRE_NOTHROW(theta(8, 10000, lr));
  bad(lr, "scaling.short_factor", 10);  // dim/2 = 5 values needed
  lr.original_max_position_embeddings = 1;  // ln 1 = 0 in the attention factor
  bad(lr, "scaling.original_max_position_embeddings");
}

TEST_CASE("extreme parameters give a usable ladder or a named error, never NaN", "[frequencies]") {
  // Fuzz findings (tests/fuzz/corpus): each would have produced NaN or inf θ.
  scaling dyn = make(scaling_type::dynamic, 1e300);
  dyn.max_position_embeddings = 100;
  SECTION("dynamic, huge factor at seq_len ≤ M: 1 + factor·0 = 1, the plain ladder") {
    // HF's factor·L/M − (factor − 1) cancels to 0 here (factor − 1 rounds to factor).
    require_close(theta(8, 10000, dyn), theta(8));
  }
  SECTION("dynamic, huge factor past M overflows the base: named error") {
    dyn.seq_len = 200;
    require_invalid([&] { theta(8, 10000, dyn); }, "scaling.factor");
  }
  SECTION("yarn, mscales that overflow get_mscale") {
    scaling y = make(scaling_type::yarn, 1e300);
    y.original_max_position_embeddings = 4096;
    y.mscale = 1e308;
    y.mscale_all_dim = 1.0;
    require_invalid([&] { theta(8, 10000, y); }, "scaling.mscale");
  }
  SECTION("yarn, subnormal betas overflow the correction range") {
    scaling y = make(scaling_type::yarn, 4.0);
    y.original_max_position_embeddings = 4096;
    y.beta_fast = y.beta_slow = 1e-320;
    require_invalid([&] { theta(8, 10000, y); }, "scaling.beta_fast");
  }
  SECTION("longrope, a subnormal factor overflows θ_i / factor") {
    scaling lr = make(scaling_type::longrope, 2.0);
    lr.original_max_position_embeddings = 4096;
    lr.short_factor = {1, 1, 1, 1e-320};
    lr.long_factor = {1, 1, 1, 1};
    require_invalid([&] { theta(8, 10000, lr); }, "scaling.short_factor[3]");
  }
  SECTION("an attention factor (given or from the mscale ratio) below 1e-4 is refused") {
    for (const double tiny : {5e-324, 1e-300, 9.9e-5}) {
      scaling y = make(scaling_type::yarn, 4.0);
      y.original_max_position_embeddings = 4096;
      y.attention_factor = tiny;
      require_invalid([&] { posenc::inverse_frequencies(8, 10000, y); }, "scaling.attention_factor");
      scaling lr = make(scaling_type::longrope, 2.0);
      lr.original_max_position_embeddings = 4096;
      lr.short_factor = lr.long_factor = {1, 1, 1, 1};
      lr.attention_factor = tiny;
      require_invalid([&] { posenc::inverse_frequencies(8, 10000, lr); }, "scaling.attention_factor");
    }
    // mscale 1e-9 over mscale_all_dim 1e9: a ratio ~1e-8, finite but too small to invert.
    scaling y = make(scaling_type::yarn, 1e6);
    y.original_max_position_embeddings = 4096;
    y.mscale = 1e-9;
    y.mscale_all_dim = 1e9;
    require_invalid([&] { posenc::inverse_frequencies(8, 10000, y); }, "mscale");
    y.attention_factor = posenc::min_attention_factor;  // the bound itself is accepted
    REQUIRE(posenc::inverse_frequencies(8, 10000, y).attention_factor == posenc::min_attention_factor);
  }
  SECTION("huge linear factors underflow θ to 0, which is still a valid ladder") {
    const auto t = theta(8, 10000, make(scaling_type::linear, 1e308));
    for (const double v : t) REQUIRE((std::isfinite(v) && v >= 0.0));
  }
}

TEST_CASE("fields a type does not read are not validated", "[frequencies]") {
  scaling s;  // type none
  s.factor = -3;
  s.short_factor = {1};
  s.beta_fast = -1;
  REQUIRE_NOTHROW(theta(8, 10000, s));
  s.type = scaling_type::linear;  // reads only factor
  s.factor = 2.0;
  REQUIRE_NOTHROW(theta(8, 10000, s));
}
