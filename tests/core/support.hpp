// tests/core/support.hpp — small helpers shared by the Catch2 test files.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace posenc::test {

// f() must throw exactly E (a posenc exception type) whose message names `needle`.
template <class E, class F>
void require_throws(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const E& e) {
    CHECK_THAT(e.what(), Catch::Contains(needle));
    return;
  }
  FAIL("expected an exception naming " << needle);
}

// n values uniform in [−1, 1) from a seeded generator.
inline std::vector<float> random_tensor(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

} // namespace posenc::test
