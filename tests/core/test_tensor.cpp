// test_tensor.cpp — check_view: every strided view that fits is accepted, every one that
// leaves its buffer, overlaps itself or overflows is refused with the argument named.
#include "posenc/errors.hpp"
#include "posenc/tensor.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

using posenc::check_view;
using posenc::const_tensor_view;
using posenc::tensor_view;

namespace {

const_tensor_view view(const float* data, std::size_t size, std::int64_t tokens,
                       std::int64_t heads, std::int64_t dim, std::int64_t ts,
                       std::int64_t hs) {
  return {data, size, tokens, heads, dim, ts, hs};
}

} // namespace

TEST_CASE("check_view accepts dense, transposed and padded layouts", "[tensor]") {
  std::vector<float> buf(3 * 5 * 8);
  // [tokens][heads][dim]
  CHECK_NOTHROW(check_view("x", const_tensor_view::dense(buf.data(), buf.size(), 3, 5, 8)));
  // [heads][tokens][dim]: token_stride = dim, head_stride = tokens·dim
  CHECK_NOTHROW(check_view("x", view(buf.data(), buf.size(), 3, 5, 8, 8, 24)));
  // Padded rows: dim 6 inside 8-float slots.
  CHECK_NOTHROW(check_view("x", view(buf.data(), buf.size(), 3, 5, 6, 40, 8)));
  // The furthest element is exactly the last float of the buffer.
  CHECK_NOTHROW(check_view("x", view(buf.data(), buf.size(), 3, 5, 8, 40, 8)));
  // One token or one head: its stride is never used, so anything goes.
  CHECK_NOTHROW(check_view("x", view(buf.data(), 8, 1, 1, 8, 0, 0)));
  // Empty views touch nothing, even with a null pointer.
  CHECK_NOTHROW(check_view("x", view(nullptr, 0, 0, 5, 8, 40, 8)));
  CHECK_NOTHROW(check_view("x", view(nullptr, 0, 3, 0, 8, 40, 8)));
}

TEST_CASE("check_view refuses views that leave the buffer", "[tensor]") {
  std::vector<float> buf(3 * 5 * 8);
  CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size() - 1, 3, 5, 8, 40, 8)),
                  posenc::length_error);
  CHECK_THROWS_WITH(check_view("keys", view(buf.data(), 10, 3, 5, 8, 40, 8)),
                    Catch::Contains("keys"));
  // (tokens − 1)·token_stride overflows int64.
  const auto big = std::numeric_limits<std::int64_t>::max() / 2;
  CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size(), 3, 1, 8, big, 8)),
                  posenc::length_error);
  // Each span fits, their sum does not.
  CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size(), 2, 2, 8, big, big)),
                  posenc::length_error);
}

TEST_CASE("check_view refuses overlapping rows", "[tensor]") {
  std::vector<float> buf(1000);
  SECTION("token stride shorter than a row") {
    CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size(), 4, 1, 8, 7, 8)),
                    posenc::length_error);
  }
  SECTION("zero stride with several heads") {
    CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size(), 1, 3, 8, 0, 0)),
                    posenc::length_error);
  }
  SECTION("equal strides alias (t=1,h=0) with (t=0,h=1)") {
    CHECK_THROWS_AS(check_view("x", view(buf.data(), buf.size(), 2, 2, 8, 8, 8)),
                    posenc::length_error);
  }
  SECTION("heads axis does not clear the token axis") {
    // tokens at 0, 8, 16 (extent 24) but heads step only 16.
    CHECK_THROWS_WITH(check_view("q", view(buf.data(), buf.size(), 3, 2, 8, 8, 16)),
                      Catch::Contains("q") && Catch::Contains("overlap"));
  }
}

TEST_CASE("check_view refuses negative sizes and a null buffer", "[tensor]") {
  std::vector<float> buf(64);
  CHECK_THROWS_AS(check_view("x", view(buf.data(), 64, -1, 1, 8, 8, 8)),
                  posenc::invalid_argument);
  CHECK_THROWS_WITH(check_view("x", view(buf.data(), 64, 1, -2, 8, 8, 8)),
                    Catch::Contains("x.heads"));
  CHECK_THROWS_WITH(check_view("x", view(buf.data(), 64, 1, 1, -8, 8, 8)),
                    Catch::Contains("x.dim"));
  CHECK_THROWS_WITH(check_view("x", view(buf.data(), 64, 2, 1, 8, -8, 8)),
                    Catch::Contains("x.token_stride"));
  CHECK_THROWS_WITH(check_view("x", view(buf.data(), 64, 1, 2, 8, 8, -8)),
                    Catch::Contains("x.head_stride"));
  CHECK_THROWS_AS(check_view("x", view(nullptr, 64, 1, 1, 8, 8, 8)), posenc::invalid_argument);
}

TEST_CASE("dense() checks heads x dim before forming the token stride", "[tensor]") {
  std::vector<float> buf(8);
  using posenc::length_error;
  using posenc::invalid_argument;
  constexpr std::int64_t big = std::int64_t{1} << 61;
  CHECK_THROWS_AS(tensor_view::dense(buf.data(), buf.size(), 1, big, 8), length_error);
  CHECK_THROWS_AS(const_tensor_view::dense(buf.data(), buf.size(), 1, big, 8), length_error);
  CHECK_THROWS_AS(tensor_view::dense(buf.data(), buf.size(), 1, 8, big), length_error);
  CHECK_THROWS_AS(
      tensor_view::dense(buf.data(), buf.size(), 1, std::numeric_limits<std::int64_t>::max(), 2),
      length_error);
  CHECK_THROWS_AS(tensor_view::dense(buf.data(), buf.size(), 1, -1, 8), invalid_argument);
  CHECK_THROWS_AS(tensor_view::dense(buf.data(), buf.size(), 1, 2, -8), invalid_argument);
  try {
    (void)tensor_view::dense(buf.data(), buf.size(), 1, big, 8);
  } catch (const length_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("heads x dim"));
  }
  // The largest products that fit are formed exactly.
  CHECK(tensor_view::dense(buf.data(), buf.size(), 1, big - 1, 4).token_stride == (big - 1) * 4);
  CHECK(tensor_view::dense(buf.data(), buf.size(), 1, 0, big).token_stride == 0);
  CHECK(const_tensor_view::dense(buf.data(), buf.size(), 1, 2, 4).token_stride == 8);
}
