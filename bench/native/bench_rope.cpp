// bench/native/bench_rope.cpp — RoPE application: 2048 tokens × 32 heads × 128
// (32 MiB) in both layouts, in and out of place; decode (1 token × 32 heads at position
// 4000, inside and outside the cache); GQA (32 query + 8 key heads, one shared row per token).
#include "harness.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace posenc::bench {
namespace {

constexpr std::size_t bytes_of(std::int64_t floats) {
  return static_cast<std::size_t>(floats) * sizeof(float);
}

rotary_cache make_cache(rope_layout layout, std::int64_t count) {
  rope_config config;
  config.head_dim = static_cast<int>(kHeadDim);
  config.layout = layout;
  return rotary_cache(config, 0, count);
}

// Buffers one member owns: x (input, rotated in place) and, out of place, y (the output).
struct buffers {
  std::vector<float> x, y;
  buffers(std::int64_t n, unsigned seed, bool out = false)
      : x(random_floats(static_cast<std::size_t>(n), seed)), y(out ? x.size() : 0) {}
};

// "apply/<layout>/<in|out>_place": 2048 × 32 × 128, token t at position t (all cached).
void register_apply(rope_layout layout, bool in_place) {
  const std::string group = std::string("apply/") + std::string(to_string(layout)) +
                            (in_place ? "/in_place" : "/out_of_place");
  const std::int64_t n = kTokens * kHeads * kHeadDim;
  const bool interleaved = layout == rope_layout::interleaved;
  register_paired(group, [=] {
    auto cache = std::make_shared<const rotary_cache>(make_cache(layout, kTokens));
    auto uc = std::make_shared<const user_cache>(kHeadDim, 0, kTokens);
    auto p = std::make_shared<buffers>(n, 1, !in_place),
         s = std::make_shared<buffers>(n, 1, !in_place),
         u = std::make_shared<buffers>(n, 1, !in_place);
    std::vector<member> members{
        {"posenc",
         [=] {
           float* out = in_place ? p->x.data() : p->y.data();
           rope_apply(*cache, const_tensor_view::dense(p->x.data(), p->x.size(), kTokens, kHeads, kHeadDim),
                      tensor_view::dense(out, p->x.size(), kTokens, kHeads, kHeadDim), 0);
         }},
        {"scalar",
         [=] { rope_scalar(*cache, s->x.data(), in_place ? s->x.data() : s->y.data(), kTokens, kHeads, 0); }},
        {"user",
         [=] {
           user_rope(*uc, u->x.data(), in_place ? u->x.data() : u->y.data(), kTokens, kHeads,
                     kHeadDim, interleaved);
         }},
        memcpy_member(bytes_of(n)), bare_member(static_cast<std::size_t>(n), in_place)};
    return members;
  });
}

// One decode token's rows, `offset` bytes past a 64-byte line: 0 is how ML runtimes allocate
// tensors (PyTorch's CPU allocator, ONNX Runtime and ggml align them to 64 bytes), 16 is all
// malloc (and so a std::vector) guarantees. With AVX-512 every row access then meets a line
// boundary, so both are measured.
struct token_buffer : line_buffer<float> {
  token_buffer(std::int64_t n, unsigned seed, std::size_t offset)
      : line_buffer<float>(random_floats(static_cast<std::size_t>(n), seed), static_cast<int>(offset)) {}
};

// "decode/<in_cache|outside_cache>[/rows_16B_past_a_line]": one token × 32 heads × 128 at
// position 4000, in place. The cache holds 8192 rows (inside) or none (outside: the row is
// computed per call); the user loop then computes its float32 row with std::sin/std::cos on
// every call. Every member's rows sit at the same offset from a 64-byte line.
void register_decode(bool cached, std::size_t offset) {
  const std::string group = std::string("decode/") + (cached ? "in_cache" : "outside_cache") +
                            (offset == 0 ? "" : "/rows_" + std::to_string(offset) + "B_past_a_line");
  const std::int64_t n = kHeads * kHeadDim;
  const std::int64_t count = cached ? 8192 : 0;
  register_paired(
      group,
      [=] {
        auto cache = std::make_shared<const rotary_cache>(make_cache(rope_layout::half, count));
        auto uc = std::make_shared<user_cache>(kHeadDim, kDecodePosition, 1);
        auto p = std::make_shared<token_buffer>(n, 2, offset),
             s = std::make_shared<token_buffer>(n, 2, offset),
             u = std::make_shared<token_buffer>(n, 2, offset);
        return std::vector<member>{
            {"posenc",
             [=] {
               rope_apply(*cache, tensor_view::dense(p->x, static_cast<std::size_t>(n), 1, kHeads, kHeadDim),
                          kDecodePosition);
             }},
            {"scalar",  // cache.row computes the row when it is not cached
             [=] { rope_scalar(*cache, s->x, s->x, 1, kHeads, kDecodePosition); }},
            {"user",
             [=] {
               if (!cached) uc->fill(kHeadDim, kDecodePosition, 1);
               user_rope(*uc, u->x, u->x, 1, kHeads, kHeadDim, false);
             }},
            memcpy_member(bytes_of(n)),
            bare_member(static_cast<std::size_t>(n), true, static_cast<int>(offset))};
      },
      200);
}

// "gqa/half/in_place": q 2048 × 32 × 128 and k 2048 × 8 × 128, one row per token for both.
void register_gqa() {
  const std::int64_t nq = kTokens * kHeads * kHeadDim, nk = kTokens * kKvHeads * kHeadDim;
  register_paired("gqa/half/in_place", [=] {
    auto cache = std::make_shared<const rotary_cache>(make_cache(rope_layout::half, kTokens));
    auto uc = std::make_shared<const user_cache>(kHeadDim, 0, kTokens);
    auto pq = std::make_shared<buffers>(nq, 3), pk = std::make_shared<buffers>(nk, 4);
    auto sq = std::make_shared<buffers>(nq, 3), sk = std::make_shared<buffers>(nk, 4);
    auto uq = std::make_shared<buffers>(nq, 3), uk = std::make_shared<buffers>(nk, 4);
    return std::vector<member>{
        {"posenc",
         [=] {
           rope_apply_qk(*cache, tensor_view::dense(pq->x.data(), pq->x.size(), kTokens, kHeads, kHeadDim),
                         tensor_view::dense(pk->x.data(), pk->x.size(), kTokens, kKvHeads, kHeadDim), 0);
         }},
        {"scalar",
         [=] {
           rope_scalar(*cache, sq->x.data(), sq->x.data(), kTokens, kHeads, 0);
           rope_scalar(*cache, sk->x.data(), sk->x.data(), kTokens, kKvHeads, 0);
         }},
        {"user",
         [=] {
           user_rope(*uc, uq->x.data(), uq->x.data(), kTokens, kHeads, kHeadDim, false);
           user_rope(*uc, uk->x.data(), uk->x.data(), kTokens, kKvHeads, kHeadDim, false);
         }},
        memcpy_member(bytes_of(nq + nk)), bare_member(static_cast<std::size_t>(nq + nk), true)};
  });
}

// "tiles/2048x32x128": q written tile by tile (a copy from a source tensor stands for the
// projection that produces it) and each 16-token tile rotated right after it is written,
// while it is still in cache ("posenc"), beside writing the whole tensor and then rotating it
// in one call ("whole"), and the writes alone ("memcpy"). (posenc − memcpy) / tokens is the
// rotation's cost per token when tiled, (whole − memcpy) / tokens when not.
void register_tiles() {
  constexpr std::int64_t kTile = 16;
  const std::int64_t n = kTokens * kHeads * kHeadDim, tile = kTile * kHeads * kHeadDim;
  register_paired("tiles/2048x32x128", [=] {
    auto cache = std::make_shared<const rotary_cache>(make_cache(rope_layout::half, kTokens));
    auto src = std::make_shared<buffers>(n, 6);
    auto t = std::make_shared<buffers>(n, 6), w = std::make_shared<buffers>(n, 6),
         c = std::make_shared<buffers>(n, 6);
    return std::vector<member>{
        {"posenc",
         [=] {
           for (std::int64_t t0 = 0; t0 < kTokens; t0 += kTile) {
             float* x = t->x.data() + t0 * kHeads * kHeadDim;
             std::memcpy(x, src->x.data() + t0 * kHeads * kHeadDim, bytes_of(tile));
             rope_apply(*cache, tensor_view::dense(x, static_cast<std::size_t>(tile), kTile, kHeads, kHeadDim), t0);
           }
         }},
        {"whole",
         [=] {
           std::memcpy(w->x.data(), src->x.data(), bytes_of(n));
           rope_apply(*cache, tensor_view::dense(w->x.data(), w->x.size(), kTokens, kHeads, kHeadDim), 0);
         }},
        {"memcpy", [=] {
           std::memcpy(c->x.data(), src->x.data(), bytes_of(n));
           benchmark::DoNotOptimize(c->x.data());
         }}};
  });
}

const bool registered = [] {
  for (rope_layout layout : {rope_layout::half, rope_layout::interleaved})
    for (bool in_place : {true, false}) register_apply(layout, in_place);
  for (std::size_t offset : {0u, 16u}) {
    register_decode(true, offset);
    register_decode(false, offset);
  }
  register_gqa();
  register_tiles();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
