// bench/native/bench_variants.cpp — the RoPE conventions beside plain RoPE on the same
// tensor, in place: M-RoPE (contiguous and interleaved sections; a video of 8 frames ×
// 16 × 16 patches), 2-D vision rotary (Qwen2-VL, Pixtral; a 32 × 64 patch grid), every
// member with a cache holding its positions; and 16-bit storage (float16, bfloat16) beside
// float32 on the same element count. Tokens × 32 heads × 128, at 2048 tokens (32 MiB of
// float32, from memory) and 64 tokens (1 MiB, in cache); every tensor starts on a 64-byte line.
#include "harness.hpp"

#include "posenc/axes.hpp"
#include "posenc/axes_positions.hpp"
#include "posenc/half.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace posenc::bench {
namespace {

std::shared_ptr<const rotary_cache> cache_of(rope_axes axes, rope_layout layout = rope_layout::half) {
  rope_config config;
  config.head_dim = static_cast<int>(kHeadDim);
  config.base = 1e6;
  config.axes = axes;
  config.layout = layout;
  return std::make_shared<const rotary_cache>(config, 0, kTokens);
}

// Token t of a [frames][16][16] video at (t/256, t/16 mod 16, t mod 16), or of a [32][64]
// image at (t/64, t mod 64); [axes][tokens] as rope_apply takes them.
std::vector<std::int32_t> axis_positions(int axes, std::int64_t tokens) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(axes * tokens));
  for (std::int64_t t = 0; t < tokens; ++t) {
    const auto at = [&](int a) -> std::int32_t& { return ids[static_cast<std::size_t>(a * tokens + t)]; };
    if (axes == 3) {
      at(0) = static_cast<std::int32_t>(t / 256);
      at(1) = static_cast<std::int32_t>(t / 16 % 16);
      at(2) = static_cast<std::int32_t>(t % 16);
    } else {
      at(0) = static_cast<std::int32_t>(t / 64);
      at(1) = static_cast<std::int32_t>(t % 64);
    }
  }
  return ids;
}

// One member: its own tensor, rotated in place by `cache` at `ids`.
member rope_member(const std::string& name, std::shared_ptr<const rotary_cache> cache,
                   int axes, std::int64_t tokens) {
  const std::int64_t n = tokens * kHeads * kHeadDim;
  auto x = std::make_shared<line_buffer<float>>(random_floats(static_cast<std::size_t>(n), 5), 0);
  std::vector<std::int32_t> ids = axes == 1 ? std::vector<std::int32_t>(tokens) : axis_positions(axes, tokens);
  if (axes == 1)
    for (std::int64_t t = 0; t < tokens; ++t) ids[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(t);
  auto p = std::make_shared<const std::vector<std::int32_t>>(std::move(ids));
  return {name, [=] {
            rope_apply(*cache, tensor_view::dense(x->x, static_cast<std::size_t>(n), tokens, kHeads, kHeadDim), *p);
          }};
}

// "variants/<tokens>x32x128": plain, mrope, mrope_interleaved, qwen2vl_2d, pixtral_2d.
void register_conventions(std::int64_t tokens) {
  register_paired("variants/" + std::to_string(tokens) + "x32x128", [=] {
    return std::vector<member>{
        rope_member("plain", cache_of({}), 1, tokens),
        rope_member("mrope", cache_of({rope_axes_kind::mrope, {16, 24, 24}}), 3, tokens),
        rope_member("mrope_interleaved", cache_of({rope_axes_kind::mrope_interleaved, {24, 20, 20}}), 3,
                    tokens),
        rope_member("qwen2vl_2d", cache_of({rope_axes_kind::vision_qwen2vl, {}}), 2, tokens),
        rope_member("pixtral_2d", cache_of({rope_axes_kind::vision_pixtral, {}}), 2, tokens)};
  }, tokens < 256 ? 20 : 1);
}

// One 16-bit member: its own tensor of the same values, rotated in place at start 0.
member half_member(const std::string& name, std::shared_ptr<const rotary_cache> cache,
                   half_format format, std::int64_t tokens) {
  const std::int64_t n = tokens * kHeads * kHeadDim;
  const std::vector<float> v = random_floats(static_cast<std::size_t>(n), 6);
  std::vector<std::uint16_t> bits(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) bits[i] = from_float(v[i], format);
  auto x = std::make_shared<line_buffer<std::uint16_t>>(bits, 0);
  return {name, [=] {
            rope_apply(*cache, half_tensor_view::dense(x->x, static_cast<std::size_t>(n), tokens, kHeads, kHeadDim, format),
                       std::int64_t{0});
          }};
}

// "half/<tokens>x32x128" (half layout), "half_interleaved/<tokens>x32x128": float32, float16,
// bfloat16, each at start 0 (all cached).
void register_half(std::int64_t tokens, rope_layout layout) {
  const std::string group = layout == rope_layout::half ? "half/" : "half_interleaved/";
  register_paired(group + std::to_string(tokens) + "x32x128", [=] {
    auto cache = cache_of({}, layout);
    const std::int64_t n = tokens * kHeads * kHeadDim;
    auto x = std::make_shared<line_buffer<float>>(random_floats(static_cast<std::size_t>(n), 6), 0);
    return std::vector<member>{
        {"float32",
         [=] { rope_apply(*cache, tensor_view::dense(x->x, static_cast<std::size_t>(n), tokens, kHeads, kHeadDim), std::int64_t{0}); }},
        half_member("float16", cache, half_format::float16, tokens),
        half_member("bfloat16", cache, half_format::bfloat16, tokens)};
  }, tokens < 256 ? 20 : 1);
}

// "axes/4608x24x128": Flux.1's multi-axis rotary on a 1024×1024 image (64×64 packed latents
// and 512 text tokens, 24 heads × 128) beside plain 1-D RoPE of the same bytes (interleaved
// layout, positions 0 … 4607), each rotator caching every position it takes.
void register_flux() {
  register_paired("axes/4608x24x128", [] {
    const axes_grid g = axes_positions({.model = "flux", .height = 64, .width = 64, .text_tokens = 512});
    const std::int64_t tokens = g.tokens, heads = 24, n = tokens * heads * kHeadDim;
    const auto member_of = [&](const std::string& name, const rope_config& config, std::int64_t cached,
                               std::vector<std::int32_t> ids) {
      auto cache = std::make_shared<const rotary_cache>(config, 0, cached);
      auto x = std::make_shared<line_buffer<float>>(random_floats(static_cast<std::size_t>(n), 5), 0);
      auto p = std::make_shared<const std::vector<std::int32_t>>(std::move(ids));
      return member{name, [=] {
                      rope_apply(*cache, tensor_view::dense(x->x, static_cast<std::size_t>(n), tokens, heads, kHeadDim), *p);
                    }};
    };
    std::vector<std::int32_t> linear(static_cast<std::size_t>(tokens));
    for (std::int64_t t = 0; t < tokens; ++t) linear[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(t);
    rope_config plain{.head_dim = static_cast<int>(kHeadDim), .layout = rope_layout::interleaved};
    return std::vector<member>{
        member_of("plain", plain, tokens, std::move(linear)),
        member_of("flux", axes_preset("flux", static_cast<int>(kHeadDim)), 64,
                  std::vector<std::int32_t>(g.positions.begin(), g.positions.end()))};
  }, 1);
}

const bool registered = [] {
  register_flux();
  for (std::int64_t tokens : {kTokens, std::int64_t{64}}) {
    register_conventions(tokens);
    register_half(tokens, rope_layout::half);
    register_half(tokens, rope_layout::interleaved);
  }
  return true;
}();

}  // namespace
}  // namespace posenc::bench
