// test_embedding.cpp — scale·e + PE(p) (posenc/embedding.hpp) and the angle table p·θ_i
// (posenc/angle_table.hpp): the worked numbers of the source articles, one rounding per
// value, and every bad argument.
#include "posenc/angle_table.hpp"
#include "posenc/embedding.hpp"
#include "posenc/errors.hpp"

#include <catch2/catch.hpp>
#include "support.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using posenc::test::require_throws;

TEST_CASE("add_sinusoidal: the same word at positions 0 and 3 differs by PE(3) − PE(0)") {
  const int dim = 32;
  std::vector<float> word(dim);
  for (int j = 0; j < dim; ++j) word[j] = 0.01f * static_cast<float>(j - 16);
  std::vector<float> e(word);
  e.insert(e.end(), word.begin(), word.end());
  const std::vector<std::int32_t> pos{0, 3};
  const auto x = posenc::add_sinusoidal(e, dim, 10000, pos);
  double gap = 0;
  for (int j = 0; j < dim; ++j) gap = std::max(gap, std::abs(double(x[dim + j]) - double(x[j])));
  // max |PE(3) − PE(0)| = |cos 3 − 1| = 1.98999…, the article's 1.9900.
  CHECK(gap == Approx(1.0 - std::cos(3.0)).margin(3e-7));
  const auto table = posenc::sinusoidal_row(dim, 10000, 3);
  for (int j = 0; j < dim; ++j)
    CHECK(x[dim + j] == static_cast<float>(double(word[j]) + double(table[j])));
}

TEST_CASE("add_sinusoidal: scale multiplies the embedding only (×√d_model)") {
  const int dim = 8;
  const std::vector<float> e{0.5f, -0.25f, 0.125f, 1, 0, 2, -1, 0.75f};
  const std::vector<std::int32_t> pos{5};
  const auto row = posenc::sinusoidal_row(dim, 10000, 5, posenc::pe_layout::concat);
  const double s = std::sqrt(8.0);
  const auto x = posenc::add_sinusoidal(e, dim, 10000, pos, s, posenc::pe_layout::concat);
  for (int j = 0; j < dim; ++j) CHECK(x[j] == static_cast<float>(s * e[j] + double(row[j])));
  CHECK(posenc::add_sinusoidal({}, dim, 10000, {}).empty());
}

TEST_CASE("add_sinusoidal: bad arguments name themselves") {
  const std::vector<float> e(8);
  const std::vector<std::int32_t> one{0};
  using posenc::invalid_argument;
  using posenc::length_error;
  require_throws<invalid_argument>([&] { (void)posenc::add_sinusoidal(e, 7, 10000, one); }, "dim");
  require_throws<invalid_argument>([&] { (void)posenc::add_sinusoidal(e, 8, 1, one); }, "base");
  require_throws<invalid_argument>([&] { (void)posenc::add_sinusoidal(e, 8, 10000, one, NAN); }, "scale");
  require_throws<length_error>([&] { (void)posenc::add_sinusoidal(e, 4, 10000, one); }, "e must hold");
}

TEST_CASE("position_angles: p·θ_i, the d = 4 angle columns of article 001") {
  const std::vector<std::int32_t> pos{0, 1, 2, 3, -7};
  const auto a = posenc::position_angles(4, 10000, pos);
  REQUIRE(a.size() == 10);
  const auto inv = posenc::inverse_frequencies(4, 10000).inv_freq;
  for (std::size_t r = 0; r < pos.size(); ++r)
    for (std::size_t i = 0; i < 2; ++i) CHECK(a[r * 2 + i] == double(pos[r]) * inv[i]);
  CHECK(a[3 * 2 + 1] == Approx(0.03).epsilon(1e-15));
  using posenc::invalid_argument;
  require_throws<invalid_argument>([&] { (void)posenc::position_angles(3, 10000, pos); }, "dim");
  require_throws<invalid_argument>([&] { (void)posenc::position_angles(4, 0.5, pos); }, "base");
}

} // namespace
