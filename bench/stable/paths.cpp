// bench/stable/paths.cpp — posenc_paths: every special path of the RoPE kernels beside the
// simple code it replaces, paired in one process on the thread's CPU clock (members in
// rotating order, median per member), one line per comparison: "<path> <shape> <ratio>",
// ratio = the simple code's time ÷ the path's (> 1: the path wins). Run it in several
// processes and take the median and min–max of each ratio (bench/results/decisions.md).
// x86-64 with AVX-512 F/CD/DQ/BW only: the paths compared are those of such CPUs and of AVX2.
#include "paths.hpp"
#include "sampling.hpp"

#include "detail/dispatch.hpp"
#include "detail/row_storage.hpp"
#include "posenc/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace posenc::bench {
namespace {

constexpr std::int64_t kDim = 128, kHalf = 64;

// A T × heads × 128 tensor whose rows start `offset` bytes past a 64-byte line.
struct tensor {
  std::int64_t tokens, heads;
  std::unique_ptr<float[]> storage;
  float* x;
  tensor(std::int64_t t, std::int64_t h, std::size_t offset, unsigned seed, std::int64_t dim = kDim)
      : tokens(t), heads(h) {
    const std::size_t n = static_cast<std::size_t>(t * h * dim);
    storage.reset(new float[n + 32]);
    auto p = reinterpret_cast<std::uintptr_t>(storage.get());
    x = reinterpret_cast<float*>((p + 63) / 64 * 64 + offset);
    const std::vector<float> v = random_floats(n, seed);
    std::copy(v.begin(), v.end(), x);
  }
};

// The same tensor stored as bfloat16 (the top 16 bits of each float).
struct tensor16 {
  std::int64_t tokens, heads;
  std::unique_ptr<std::uint16_t[]> storage;
  std::uint16_t* x;
  tensor16(std::int64_t t, std::int64_t h, std::size_t offset, unsigned seed) : tokens(t), heads(h) {
    const std::size_t n = static_cast<std::size_t>(t * h * kDim);
    storage.reset(new std::uint16_t[n + 64]);
    auto p = reinterpret_cast<std::uintptr_t>(storage.get());
    x = reinterpret_cast<std::uint16_t*>((p + 63) / 64 * 64 + offset);
    const std::vector<float> v = random_floats(n, seed);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t b;
      std::memcpy(&b, &v[i], 4);
      x[i] = static_cast<std::uint16_t>(b >> 16);
    }
  }
};

// The cos/sin rows of positions 0 … tokens − 1 and one row of lanes, formed per token as the
// library's row buffer does (expand_lanes), lane_sin `gap` floats after lane_cos (default:
// row_storage::row_stride, whole lines plus one).
struct rows {
  std::shared_ptr<const rotary_cache> cache;
  std::int64_t dim, half;
  std::vector<float> lane_storage = std::vector<float>(8 * kDim + 32);
  float* lane_cos;
  float* lane_sin;
  rows(std::int64_t tokens, rope_layout layout, std::int64_t head_dim = kDim, std::size_t gap = 0)
      : dim(head_dim), half(head_dim / 2) {
    const auto p = reinterpret_cast<std::uintptr_t>(lane_storage.data());
    lane_cos = reinterpret_cast<float*>((p + 63) / 64 * 64);
    lane_sin = lane_cos + (gap != 0 ? gap : detail::row_storage<float, 1>::row_stride(static_cast<std::size_t>(dim)));
    rope_config config;
    config.head_dim = static_cast<int>(dim);
    config.layout = layout;
    cache = std::make_shared<const rotary_cache>(config, 0, std::max<std::int64_t>(tokens, 1));
  }
  template <class V>
  detail::token_rows<float, V> job(std::int64_t t, bool interleaved, std::size_t group, V* x,
                                   std::int64_t heads, std::int64_t head_group) {
    const float* c = cache->cos_table().data() + t * half;
    const float* s = cache->sin_table().data() + t * half;
    detail::token_rows<float, V> j;
    j.cos = c;
    j.sin = s;
    if (interleaved || group != 0) {
      detail::expand_lanes<float>(c, s, static_cast<std::size_t>(half), 1.0f, interleaved, lane_cos, lane_sin, group);
      j.lane_cos = lane_cos;
      j.lane_sin = lane_sin;
    } else {
      j.lane_cos = c;
      j.lane_sin = s;
    }
    j.half = static_cast<std::size_t>(half);
    j.in = x;
    j.out = x;
    j.in_head_stride = j.out_head_stride = dim;
    j.heads = heads;
    j.dim = dim;
    j.head_group = head_group;
    return j;
  }
};

// Every token of `x` by `kernel`, head_group heads per row block.
template <class V, class Kernel>
void apply(rows& r, V* x, std::int64_t tokens, std::int64_t heads, bool interleaved,
           Kernel kernel, std::int64_t head_group, std::size_t group = 0) {
  for (std::int64_t t = 0; t < tokens; ++t)
    kernel(r.job(t, interleaved, group, x + t * heads * r.dim, heads, head_group));
  escape(x);
}

// Median ns per call of a and b, alternated (who goes first alternates), each sample lasting
// about 30 µs; returns b's time ÷ a's.
double paired(const std::function<void()>& a, const std::function<void()>& b) {
  const std::function<void()>* members[2] = {&a, &b};
  double once = 0;
  for (const auto* m : members) {  // warm, and size the samples
    (*m)();
    const double t0 = thread_cpu_ns();
    (*m)();
    once = std::max(once, thread_cpu_ns() - t0);
  }
  const int inner = std::max(1, static_cast<int>(30000 / once));
  const int rounds = std::clamp(static_cast<int>(4e8 / (2 * inner * once)), 21, 4001);
  std::vector<double> samples[2];
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < 2; ++k) {
      const int m = (r + k) % 2;
      const double t0 = thread_cpu_ns();
      for (int i = 0; i < inner; ++i) (*members[m])();
      samples[m].push_back((thread_cpu_ns() - t0) / inner);
    }
  for (auto& v : samples) std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return samples[1][samples[1].size() / 2] / samples[0][samples[0].size() / 2];
}

// One comparison: `simple` (the code without the path) and `path` (what the library runs).
struct comparison {
  std::string name;  // "<path> <shape>"
  std::function<void()> path, simple;
  bool avx512;       // a member runs AVX-512 (valgrind cannot count it)
};

std::string shape(std::int64_t tokens, const char* layout, std::size_t offset) {
  return layout + std::string("/") + std::to_string(tokens) + "x32x128/off" + std::to_string(offset);
}

// Heads per row block as the library plans a float call of `bytes` (≤ the 1 MiB L2: all).
std::int64_t library_group(std::int64_t bytes, std::int64_t heads) { return bytes <= (1 << 20) ? heads : 1; }


// Every comparison, each owning its tensors.
// Only those whose name starts with `filter` are built (valgrind: one).
std::vector<comparison> all_comparisons(const std::string& filter) {
  using posenc::rope_layout;
  std::vector<comparison> list;
  const auto skip = [&](const char* path, const std::string& shape) {
    const std::string name = std::string(path) + " " + shape;
    return name.compare(0, filter.size(), filter) != 0 && filter.compare(0, name.size() + 1, name + " ") != 0;
  };
  const auto add = [&](const char* path, const std::string& shape, bool avx512,
                       std::function<void()> with_path, std::function<void()> simple) {
    list.push_back({std::string(path) + " " + shape, std::move(with_path), std::move(simple), avx512});
  };
  const auto layout_of = [](bool interleaved) { return interleaved ? rope_layout::interleaved : rope_layout::half; };
  const auto name_of = [](bool interleaved) { return interleaved ? "interleaved" : "half"; };
  // 1. AVX-512 CPUs: interleaved calls past 64 KiB take the AVX2 kernels (streaming tier).
  for (std::int64_t tokens : {1, 4, 8, 16, 64, 256, 2048})
    for (std::size_t offset : {0, 16}) {
      if (skip("streaming_avx2", shape(tokens, "interleaved", offset))) continue;
      auto r = std::make_shared<rows>(tokens, rope_layout::interleaved);
      auto a = std::make_shared<tensor>(tokens, 32, offset, 1), b = std::make_shared<tensor>(tokens, 32, offset, 1);
      const std::int64_t group = library_group(tokens * 32 * kDim * 4, 32);
      add("streaming_avx2", shape(tokens, "interleaved", offset), true,
          [=] { apply(*r, a->x, tokens, 32, true, avx2_token[1], group); },
          [=] { apply(*r, b->x, tokens, 32, true, avx512_token[1], group); });
    }
  // 2. rotate_token: all heads in one group when one row block spans the row (AVX-512, half
  // layout, 128 dims), here in calls past the L2, where the library plans one head per group.
  for (std::int64_t tokens : {128, 256, 2048})
    for (std::size_t offset : {0, 16}) {
      if (skip("one_group_when_block_spans_row", shape(tokens, "half", offset))) continue;
      auto r = std::make_shared<rows>(tokens, rope_layout::half);
      auto a = std::make_shared<tensor>(tokens, 32, offset, 1), b = std::make_shared<tensor>(tokens, 32, offset, 1);
      add("one_group_when_block_spans_row", shape(tokens, "half", offset), true,
          [=] { apply(*r, a->x, tokens, 32, false, avx512_token[0], 1); },
          [=] { apply(*r, b->x, tokens, 32, false, avx512_head_by_head[0], 1); });
    }
  // 3. AVX2: rows 16 B off a 32-byte boundary peeled with 128-bit batches at each end.
  for (bool interleaved : {false, true})
    for (std::int64_t tokens : {1, 16})
      for (std::size_t offset : {16, 0}) {
        if (skip("avx2_peel", shape(tokens, name_of(interleaved), offset))) continue;
        auto r = std::make_shared<rows>(tokens, layout_of(interleaved));
        auto a = std::make_shared<tensor>(tokens, 32, offset, 1), b = std::make_shared<tensor>(tokens, 32, offset, 1);
        add("avx2_peel", shape(tokens, name_of(interleaved), offset), false,
            [=] { apply(*r, a->x, tokens, 32, interleaved, avx2_token[interleaved], 32); },
            [=] { apply(*r, b->x, tokens, 32, interleaved, avx2_no_peel[interleaved], 32); });
      }
  // 4. 16-bit split kernels (AVX-512 bfloat16): all heads per group up to 8 MiB (1 MiB for float).
  for (bool interleaved : {false, true})
    for (std::int64_t tokens : {256, 512, 1024}) {
      if (skip("split_all_heads_to_8MiB", "bfloat16/" + shape(tokens, name_of(interleaved), 16))) continue;
      auto r = std::make_shared<rows>(tokens, layout_of(interleaved));
      auto a = std::make_shared<tensor16>(tokens, 32, 16, 1), b = std::make_shared<tensor16>(tokens, 32, 16, 1);
      const auto half16 = posenc::detail::dispatched::half_kernels_for(xsimd::avx512bw{});
      const auto kernel = half16.apply[1][interleaved][0];
      const std::size_t group = half16.lane_group[1][interleaved];
      add("split_all_heads_to_8MiB", "bfloat16/" + shape(tokens, name_of(interleaved), 16), true,
          [=] { apply(*r, a->x, tokens, 32, interleaved, kernel, 32, group); },
          [=] { apply(*r, b->x, tokens, 32, interleaved, kernel, 1, group); });
    }
  // 5. q (32 heads) and k (8 heads) of calls past 64 KiB: one target after the other, not
  // q's and k's rows token by token (AVX-512 half layout).
  for (std::int64_t tokens : {16, 64, 2048}) {
    if (skip("gqa_target_after_target", shape(tokens, "half+8kv", 16))) continue;
    auto r = std::make_shared<rows>(tokens, rope_layout::half);
    auto qa = std::make_shared<tensor>(tokens, 32, 16, 1), ka = std::make_shared<tensor>(tokens, 8, 16, 2);
    auto qb = std::make_shared<tensor>(tokens, 32, 16, 1), kb = std::make_shared<tensor>(tokens, 8, 16, 2);
    const std::int64_t group = library_group(tokens * 40 * kDim * 4, 32);
    const auto kernel = avx512_token[0];
    add("gqa_target_after_target", shape(tokens, "half+8kv", 16), true,
        [=] {
          apply(*r, qa->x, tokens, 32, false, kernel, group);
          apply(*r, ka->x, tokens, 8, false, kernel, group);
        },
        [=] {
          for (std::int64_t t = 0; t < tokens; ++t) {
            kernel(r->job(t, false, 0, qb->x + t * 32 * kDim, 32, group));
            kernel(r->job(t, false, 0, kb->x + t * 8 * kDim, 8, group));
          }
          escape(qb->x);
        });
  }
  // 6. float calls within the L2: all heads per group (interleaved: the AVX2 kernel the
  // library runs there; the AVX-512 half layout groups all heads at 128 dims anyway).
  for (std::int64_t tokens : {16, 64}) {
    if (skip("all_heads_within_l2", shape(tokens, "interleaved", 16))) continue;
    auto r = std::make_shared<rows>(tokens, rope_layout::interleaved);
    auto a = std::make_shared<tensor>(tokens, 32, 16, 1), b = std::make_shared<tensor>(tokens, 32, 16, 1);
    add("all_heads_within_l2", shape(tokens, "interleaved", 16), false,
        [=] { apply(*r, a->x, tokens, 32, true, avx2_token[1], 32); },
        [=] { apply(*r, b->x, tokens, 32, true, avx2_token[1], 1); });
  }
  // 7. A row's pairs past the whole batches: one half-width batch (tail_arch) before the
  // scalar loop (AVX-512 half layout, 80-dim heads: 40 pairs = 2 × 16 + 8).
  for (std::int64_t tokens : {1, 16, 64}) {
    if (skip("tail_batch", "half/" + std::to_string(tokens) + "x32x80/off16")) continue;
    auto r = std::make_shared<rows>(tokens, rope_layout::half, 80);
    auto a = std::make_shared<tensor>(tokens, 32, 16, 1, 80), b = std::make_shared<tensor>(tokens, 32, 16, 1, 80);
    add("tail_batch", "half/" + std::to_string(tokens) + "x32x80/off16", true,
        [=] { apply(*r, a->x, tokens, 32, false, avx512_token[0], 32); },
        [=] { apply(*r, b->x, tokens, 32, false, avx512_no_tail[0], 32); });
  }
  // 8. The drivers' lane rows one 64-byte line apart beyond whole lines (row_storage::row_stride:
  // 576 bytes for a 128-dim interleaved row), not exactly 512 bytes apart as head rows are.
  for (bool avx512 : {false, true})
    for (std::int64_t tokens : {16, 64, 2048}) {
      const std::string sh = std::string(avx512 ? "avx512/" : "avx2/") + shape(tokens, "interleaved", 16);
      if (skip("lane_rows_a_line_apart", sh)) continue;
      auto ra = std::make_shared<rows>(tokens, rope_layout::interleaved);
      auto rb = std::make_shared<rows>(tokens, rope_layout::interleaved, kDim, kDim);
      auto a = std::make_shared<tensor>(tokens, 32, 16, 1), b = std::make_shared<tensor>(tokens, 32, 16, 1);
      const std::int64_t group = library_group(tokens * 32 * kDim * 4, 32);
      const auto kernel = avx512 ? avx512_token[1] : avx2_token[1];
      add("lane_rows_a_line_apart", sh, avx512,
          [=] { apply(*ra, a->x, tokens, 32, true, kernel, group); },
          [=] { apply(*rb, b->x, tokens, 32, true, kernel, group); });
    }
  return list;
}

}  // namespace
}  // namespace posenc::bench

//   posenc_paths                          every comparison: "<path> <shape> <ratio>"
//   posenc_paths --only PATH              the comparisons of one path
//   posenc_paths --member "<path> <shape>" path|simple --calls N
//                                         N calls of one member (valgrind: (Ir(3) − Ir(1)) / 2)
//   posenc_paths --list-counted           the comparisons valgrind can count (no AVX-512)
int main(int argc, char** argv) {
  using namespace posenc::bench;
  std::string only, member, which;
  int calls = 1;
  bool list_counted = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--only" && i + 1 < argc) only = argv[++i];
    else if (flag == "--member" && i + 2 < argc) member = argv[++i], which = argv[++i];
    else if (flag == "--calls" && i + 1 < argc) calls = std::atoi(argv[++i]);
    else if (flag == "--list-counted") list_counted = true;
  }
  const bool avx512 = xsimd::available_architectures().avx512bw;
  if (!avx512 && member.empty() && !list_counted) {
    std::fprintf(stderr, "posenc_paths: timing needs AVX-512 F/CD/DQ/BW\n");
    return 2;
  }
  for (const comparison& c : all_comparisons(member.empty() ? only : member)) {
    if (list_counted) {
      if (!c.avx512) std::printf("%s\n", c.name.c_str());
    } else if (!member.empty()) {
      if (c.name != member) continue;
      for (int i = 0; i < calls; ++i) (which == "path" ? c.path : c.simple)();
      return 0;
    } else if (only.empty() || c.name.rfind(only + " ", 0) == 0) {
      std::printf("%s %.4f\n", c.name.c_str(), paired(c.path, c.simple));
      std::fflush(stdout);
    }
  }
  if (!member.empty()) {
    std::fprintf(stderr, "posenc_paths: no comparison '%s'\n", member.c_str());
    return 2;
  }
  return 0;
}
