// bench/stable/stable.cpp — posenc_stable: the native figures that hold on a shared machine.
//
// Every member works on data that stays in the core's L2 (16 or 64 tokens × 32 heads × 128,
// 256 KiB / 1 MiB; decode 1 × 32 × 128, 16 KiB), and the members of one group run side by
// side in one process, in rotating order, each sample timed with the thread's CPU clock: the
// ratios pair measurements taken under the same host phase. bench/stable.mjs runs this
// program in 5 processes and reports each ratio's median and min–max.
//
//   posenc_stable                         all groups, one JSON object on stdout
//   posenc_stable --member M --calls N    only member M of its group, N calls after setup
//                                         (for valgrind: (Ir(N=3) − Ir(N=1)) / 2 per call)
// Members: posenc (rope_apply from a cached table), loop_native / loop_baseline / loop_v3 (the
// user loop at -march=native / the x86-64 baseline / -march=x86-64-v3), memcpy (decode: the
// same 16 KiB copied).
#include "loops.hpp"
#include "sampling.hpp"
#include "posenc/rotary.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace posenc::bench {
namespace {

constexpr std::int64_t kHeads = 32, kDim = 128, kDecodePosition = 4000;

struct member {
  std::string name;
  std::function<void()> run;
};

struct group {
  std::string name;
  int inner;  // calls per sample, so one sample lasts tens of µs
  std::vector<member> members;
};

// An in-place apply of `tokens` × 32 × 128 at positions 0 … tokens − 1: posenc from its
// cache, each user loop from a float32 table of the same exact rows (so all members do the
// same arithmetic on the same values).
group apply_group(rope_layout layout, std::int64_t tokens) {
  rope_config config;
  config.head_dim = static_cast<int>(kDim);
  config.layout = layout;
  auto cache = std::make_shared<const rotary_cache>(config, 0, tokens);
  const std::size_t n = static_cast<std::size_t>(tokens * kHeads * kDim);
  const bool interleaved = layout == rope_layout::interleaved;
  group g{"apply/" + std::string(to_string(layout)) + "/" + std::to_string(tokens) + "x32x128",
          tokens <= 16 ? 4 : 1, {}};
  auto x = std::make_shared<std::vector<float>>(random_floats(n, 1));
  g.members.push_back({"posenc", [=] {
                         rope_apply(*cache, tensor_view::dense(x->data(), n, tokens, kHeads, kDim), 0);
                         escape(x->data());
                       }});
  const std::pair<const char*, loop_fn> loops[] = {
      {"loop_native", &loop_native}, {"loop_baseline", &loop_baseline}, {"loop_v3", &loop_v3}};
  for (const auto& [name, fn] : loops) {
    auto y = std::make_shared<std::vector<float>>(random_floats(n, 1));
    g.members.push_back({name, [=, fn = fn] {
                           fn(cache->cos_table().data(), cache->sin_table().data(), y->data(),
                              tokens, kHeads, kDim, interleaved);
                           escape(y->data());
                         }});
  }
  return g;
}

// Decode: one token × 32 × 128 in place at position 4000, its row in an 8192-row cache,
// beside a memcpy of the same 16 KiB.
group decode_group(rope_layout layout) {
  rope_config config;
  config.head_dim = static_cast<int>(kDim);
  config.layout = layout;
  auto cache = std::make_shared<const rotary_cache>(config, 0, 8192);
  const std::size_t n = static_cast<std::size_t>(kHeads * kDim);
  group g{"decode/" + std::string(to_string(layout)) + "/1x32x128", 64, {}};
  auto x = std::make_shared<std::vector<float>>(random_floats(n, 2));
  g.members.push_back({"posenc", [=] {
                         rope_apply(*cache, tensor_view::dense(x->data(), n, 1, kHeads, kDim),
                                    kDecodePosition);
                         escape(x->data());
                       }});
  auto src = std::make_shared<std::vector<float>>(random_floats(n, 3));
  auto dst = std::make_shared<std::vector<float>>(n);
  g.members.push_back({"memcpy", [=] {
                         std::memcpy(dst->data(), src->data(), n * sizeof(float));
                         escape(dst->data());
                       }});
  return g;
}

std::vector<group> all_groups() {
  std::vector<group> out;
  for (rope_layout layout : {rope_layout::half, rope_layout::interleaved})
    for (std::int64_t tokens : {16, 64}) out.push_back(apply_group(layout, tokens));
  for (rope_layout layout : {rope_layout::half, rope_layout::interleaved})
    out.push_back(decode_group(layout));
  return out;
}

// Each group: `rounds` rounds, every member once per round (who goes first rotates); the
// median sample per member, in ns per call.
std::map<std::string, double> measure(const group& g, int rounds) {
  std::vector<std::vector<double>> samples(g.members.size());
  for (const member& m : g.members)  // warm: caches, tables, page faults
    for (int i = 0; i < g.inner * 4; ++i) m.run();
  for (int r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < g.members.size(); ++k) {
      const std::size_t m = (static_cast<std::size_t>(r) + k) % g.members.size();
      const double t0 = thread_cpu_ns();
      for (int i = 0; i < g.inner; ++i) g.members[m].run();
      samples[m].push_back((thread_cpu_ns() - t0) / g.inner);
    }
  std::map<std::string, double> medians;
  for (std::size_t m = 0; m < g.members.size(); ++m) {
    std::vector<double>& v = samples[m];
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    medians[g.members[m].name] = v[v.size() / 2];
  }
  return medians;
}

int run_member(const std::string& name, int calls) {
  for (const group& g : all_groups()) {
    // "<group>:<member>", e.g. "apply/half/16x32x128:posenc".
    for (const member& m : g.members)
      if (name == g.name + ":" + m.name) {
        for (int i = 0; i < calls; ++i) m.run();
        return 0;
      }
  }
  std::fprintf(stderr, "posenc_stable: no member '%s'\n", name.c_str());
  return 2;
}

}  // namespace
}  // namespace posenc::bench

int main(int argc, char** argv) {
  using namespace posenc::bench;
  std::string member_name;
  int calls = 1, rounds = 301;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--member") member_name = argv[i + 1];
    else if (flag == "--calls") calls = std::atoi(argv[i + 1]);
    else if (flag == "--rounds") rounds = std::atoi(argv[i + 1]);
    // Under valgrind, whose emulated CPU reports its own L2: the size this CPU reports.
    else if (flag == "--l2-bytes") posenc::set_l2_bytes(std::atoll(argv[i + 1]));
  }
  if (argc == 2 && std::string(argv[1]) == "--l2-bytes") {
    std::printf("%lld\n", static_cast<long long>(posenc::l2_bytes()));
    return 0;
  }
  if (!member_name.empty()) return run_member(member_name, calls);
  std::printf("{");
  const char* sep = "";
  for (const group& g : all_groups()) {
    std::printf("%s\n  \"%s\": {", sep, g.name.c_str());
    const char* inner_sep = "";
    for (const auto& [name, ns] : measure(g, rounds)) {
      std::printf("%s\"%s\": %.2f", inner_sep, name.c_str(), ns);
      inner_sep = ", ";
    }
    std::printf("}");
    sep = ",";
  }
  std::printf("\n}\n");
  return 0;
}
