// test_check.cpp — error-message formatting (posenc/detail/check.hpp, core/src/check.cpp):
// numbers read as printf would print them, without printf in the library.
#include "posenc/detail/check.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <tuple>

namespace {

std::string real(double v) {
  char buf[32];
  return {buf, posenc::detail::message_part::format_real(v, buf)};
}

std::string printf_g15(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

TEST_CASE("check: reals print like %.15g", "[check]") {
  for (double v : {0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.3, 1e-4, 1.5e-5, 123456.789, 1e15, 1e14,
                   999999999999999.0, 9999999999999999.0, 0.30000000000000004, 1e300, -1e-300,
                   1e308, 5e-324, 2.2250738585072014e-308, 1e21, 1e22, 1e23, 10000.0,
                   16777216.0, 1e-5, 0.00012345})
    CHECK(real(v) == printf_g15(v));
  CHECK(real(std::numeric_limits<double>::max()).starts_with("1.7976931348623"));
  CHECK(real(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(real(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(real(std::numeric_limits<double>::quiet_NaN()) == "nan");
}

// Exact for the magnitudes messages carry (10^−8 … 10^36, where the scaling power of ten
// is exact and fma recovers the product's rounding); elsewhere the powers round a few times, so the 15th
// digit may differ by one (the value read back stays within 1e−13).
TEST_CASE("check: random reals print like %.15g", "[check]") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  for (auto [lo, hi, exact] : {std::tuple{-8, 36, true}, std::tuple{-320, 307, false}}) {
    std::uniform_int_distribution<int> exponent(lo, hi);
    for (int i = 0; i < 20000; ++i) {
      const double v = mantissa(rng) * std::pow(10.0, exponent(rng)) * (i % 2 ? -1 : 1);
      const std::string mine = real(v), ref = printf_g15(v);
      CAPTURE(v, mine, ref);
      if (exact) {
        REQUIRE(mine == ref);
        continue;
      }
      const double back = std::strtod(mine.c_str(), nullptr), truth = std::strtod(ref.c_str(), nullptr);
      REQUIRE(std::fabs(back - truth) <= 1e-13 * std::fabs(truth));
    }
  }
}

TEST_CASE("check: messages join text, integers, reals and flags", "[check]") {
  const std::string s = posenc::detail::concat("x ", -42, ' ', 18446744073709551615ull, " ",
                                               2.5, " ", true, std::string(" end"));
  CHECK(s == "x -42 18446744073709551615 2.5 true end");
  try {
    posenc::detail::fail_argument("base must be > 1, got ", 0.5);
  } catch (const posenc::invalid_argument& e) {
    CHECK(std::string(e.what()) == "posenc: base must be > 1, got 0.5");
  }
}

TEST_CASE("check: a caller's string is quoted as a short escaped excerpt", "[check]") {
  using posenc::detail::quoted;
  CHECK(quoted("linear") == "'linear'");
  CHECK(quoted("") == "''");
  CHECK(quoted("위치") == "'위치'");  // printable UTF-8 stays as it is
  CHECK(quoted(std::string("a\nb\x1b[31m\0z", 10)) == "'a\\nb\\u{1b}[31m\\u{00}z'");
  CHECK(quoted("it's \\") == "'it\\'s \\\\'");
  CHECK(quoted("\xff\xc0\x80") == "'\\xff\\xc0\\x80'");               // invalid, overlong
  CHECK(quoted("\xe2\x80\xae\xe2\x80\xa8\xc2\x85") == "'\\u{202e}\\u{2028}\\u{85}'");  // bidi, LS, NEL
  const std::string big(1 << 20, 'x');
  CHECK(quoted(big) == "'" + std::string(40, 'x') + "…' (1048576 bytes)");
  // The cut counts code points: 40 Hangul syllables (3 bytes each), then the ellipsis.
  std::string hangul;
  for (int i = 0; i < 50; ++i) hangul += "가";
  CHECK(quoted(hangul) == "'" + hangul.substr(0, 120) + "…' (150 bytes)");
}

TEST_CASE("check: a config key path shows as it is, or quoted when it is not a plain path", "[check]") {
  using posenc::detail::key_text;
  CHECK(key_text("rope_scaling.beta_fast") == "rope_scaling.beta_fast");
  CHECK(key_text("rope_parameters.full-attention.factor") == "rope_parameters.full-attention.factor");
  CHECK(key_text("rope_scaling.a b") == "'rope_scaling.a b'");
  CHECK(key_text("rope_scaling.\n") == "'rope_scaling.\\n'");
  CHECK(key_text(std::string(65, 'k')) == "'" + std::string(40, 'k') + "…' (65 bytes)");
}
