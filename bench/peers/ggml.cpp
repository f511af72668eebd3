// bench/peers/ggml.cpp — posenc_peer_ggml: posenc's rope_apply beside ggml's rope
// (ggml_rope_ext_inplace, mode NORM = adjacent pairs = posenc's interleaved layout, mode NEOX
// = rotate-half = posenc's half layout), in place, one thread, side by side in one process.
//
//   posenc_peer_ggml <dir>   dir holds a built ggml: libggml-base.so and the CPU backend's
//                            libggml-cpu-*.so variants (bench/peers/run.mjs passes the one
//                            an npm package ships); prints one JSON object on stdout.
//
// ggml is loaded with dlopen and called through its C API, declared here (no ggml headers
// needed to build). The CPU variant is the one ggml itself would pick: the highest
// ggml_backend_score() on this CPU. ggml runs as llama.cpp runs it: a graph with the rope
// node, computed by the CPU backend on a persistent one-thread threadpool. ggml forms each
// token's angles at every call in float (ggml-cpu's rope: theta_scale = powf(freq_base,
// −2/n_dims), θ multiplied by it pair after pair), posenc reads its cached table: each group
// also reports max |posenc − ggml| on the same input, which is ggml's float angle error.
#include "../stable/sampling.hpp"
#include "posenc/rotary.hpp"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using posenc::bench::escape;
using posenc::bench::random_floats;
using posenc::bench::thread_cpu_ns;

// ── ggml's C API, as far as this benchmark calls it ─────────────────────────────────────
struct ggml_init_params {
  std::size_t mem_size;
  void* mem_buffer;
  bool no_alloc;
};
constexpr int kTypeF32 = 0, kTypeI32 = 26;      // enum ggml_type
constexpr int kRopeNorm = 0, kRopeNeox = 2;     // GGML_ROPE_TYPE_*

struct ggml_api {
  void* (*init)(ggml_init_params);
  void (*free)(void*);
  void* (*new_tensor_1d)(void*, int, std::int64_t);
  void* (*new_tensor_3d)(void*, int, std::int64_t, std::int64_t, std::int64_t);
  void* (*get_data)(const void*);
  void* (*rope_ext)(void*, void*, void*, void*, int, int, int, float, float, float, float, float, float);
  void* (*rope_ext_inplace)(void*, void*, void*, void*, int, int, int, float, float, float, float, float, float);
  void* (*new_graph)(void*);
  void (*build_forward_expand)(void*, void*);
  int (*graph_compute)(void*, void*);  // ggml_backend_graph_compute(backend, graph)
  void (*threadpool_params_init)(void*, int);
  void* backend = nullptr;
  std::string variant, version, commit;
};

template <class F>
void bind(void* lib, const char* name, F& fn) {
  void* p = dlsym(lib, name);
  if (!p) throw std::runtime_error(std::string("ggml: symbol ") + name + " missing: " + dlerror());
  fn = reinterpret_cast<F>(p);
}

void* open_library(const std::string& path) {
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) throw std::runtime_error("ggml: cannot load " + path + ": " + dlerror());
  return lib;
}

// Loads libggml-base.so and the CPU variant with the highest score here, and makes a CPU
// backend on a one-thread threadpool that lives as long as the process.
ggml_api load_ggml(const std::string& dir) {
  ggml_api g{};
  void* base = open_library(dir + "/libggml-base.so");
  bind(base, "ggml_init", g.init);
  bind(base, "ggml_free", g.free);
  bind(base, "ggml_new_tensor_1d", g.new_tensor_1d);
  bind(base, "ggml_new_tensor_3d", g.new_tensor_3d);
  bind(base, "ggml_get_data", g.get_data);
  bind(base, "ggml_rope_ext", g.rope_ext);
  bind(base, "ggml_rope_ext_inplace", g.rope_ext_inplace);
  bind(base, "ggml_new_graph", g.new_graph);
  bind(base, "ggml_build_forward_expand", g.build_forward_expand);
  bind(base, "ggml_backend_graph_compute", g.graph_compute);
  bind(base, "ggml_threadpool_params_init", g.threadpool_params_init);
  const char* (*version)();
  const char* (*commit)();
  bind(base, "ggml_version", version);
  bind(base, "ggml_commit", commit);
  g.version = version(), g.commit = commit();

  void* best = nullptr;
  int best_score = 0;
  DIR* d = opendir(dir.c_str());
  if (!d) throw std::runtime_error("ggml: cannot list " + dir);
  for (dirent* e; (e = readdir(d));) {
    const std::string name = e->d_name;
    if (name.rfind("libggml-cpu-", 0) != 0 || name.size() < 3 || name.substr(name.size() - 3) != ".so") continue;
    void* lib = dlopen((dir + "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL);
    int (*score)() = lib ? reinterpret_cast<int (*)()>(dlsym(lib, "ggml_backend_score")) : nullptr;
    const int s = score ? score() : 0;
    if (s > best_score) {
      if (best) dlclose(best);
      best = lib, best_score = s, g.variant = name;
    } else if (lib) {
      dlclose(lib);
    }
  }
  closedir(d);
  if (!best) throw std::runtime_error("ggml: no CPU backend in " + dir + " runs on this CPU");

  void* (*cpu_init)();
  void (*set_n_threads)(void*, int);
  void (*set_threadpool)(void*, void*);
  void* (*threadpool_new)(void*);
  bind(best, "ggml_backend_cpu_init", cpu_init);
  bind(best, "ggml_backend_cpu_set_n_threads", set_n_threads);
  bind(best, "ggml_backend_cpu_set_threadpool", set_threadpool);
  bind(best, "ggml_threadpool_new", threadpool_new);
  g.backend = cpu_init();
  set_n_threads(g.backend, 1);
  // ggml_threadpool_params: 512 cpumask bools, then n_threads, prio, poll, strict_cpu,
  // paused; filled by ggml itself, so a generous buffer is all this side needs.
  alignas(8) unsigned char params[2048] = {};
  g.threadpool_params_init(params, 1);
  set_threadpool(g.backend, threadpool_new(params));
  return g;
}

// ── timing ─────────────────────────────────────────────────────────────────────────────
// Median CPU time per call of each member, `rounds` rounds, who goes first rotating.
std::vector<double> paired(const std::vector<std::function<void()>>& members, int rounds, int inner) {
  std::vector<std::vector<double>> samples(members.size());
  for (const auto& m : members)
    for (int i = 0; i < inner * 2; ++i) m();
  for (int r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::size_t m = (static_cast<std::size_t>(r) + k) % members.size();
      const double t0 = thread_cpu_ns();
      for (int i = 0; i < inner; ++i) members[m]();
      samples[m].push_back((thread_cpu_ns() - t0) / inner);
    }
  std::vector<double> out;
  for (auto& v : samples) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    out.push_back(v[v.size() / 2]);
  }
  return out;
}

constexpr std::int64_t kHeads = 32, kDim = 128;

// One group: `tokens` × 32 × 128 at positions start … start + tokens − 1, in place.
void run_group(const ggml_api& g, posenc::rope_layout layout, std::int64_t tokens, std::int64_t start,
               const char* sep) {
  const bool interleaved = layout == posenc::rope_layout::interleaved;
  const std::size_t n = static_cast<std::size_t>(tokens * kHeads * kDim);
  posenc::rope_config config;
  config.head_dim = static_cast<int>(kDim);
  config.layout = layout;
  const posenc::rotary_cache cache(config, 0, start + tokens);

  void* ctx = g.init({3 * n * sizeof(float) + (16u << 20), nullptr, false});
  if (!ctx) throw std::runtime_error("ggml: ggml_init failed");
  void* pos = g.new_tensor_1d(ctx, kTypeI32, tokens);
  auto* p = static_cast<std::int32_t*>(g.get_data(pos));
  for (std::int64_t t = 0; t < tokens; ++t) p[t] = static_cast<std::int32_t>(start + t);
  // ggml's ne0 is the fastest axis: [dim, heads, tokens] is posenc's [tokens][heads][dim].
  void* a = g.new_tensor_3d(ctx, kTypeF32, kDim, kHeads, tokens);
  void* b = g.new_tensor_3d(ctx, kTypeF32, kDim, kHeads, tokens);
  const int mode = interleaved ? kRopeNorm : kRopeNeox;
  // n_dims, mode, n_ctx_orig, freq_base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow:
  // plain RoPE (no YaRN: ext_factor 0, attn_factor 1).
  auto rope = [&](void* (*fn)(void*, void*, void*, void*, int, int, int, float, float, float, float, float, float),
                  void* x) { return fn(ctx, x, pos, nullptr, static_cast<int>(kDim), mode, 0, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f); };
  void* out_of_place = g.new_graph(ctx);
  void* rotated = rope(g.rope_ext, a);
  g.build_forward_expand(out_of_place, rotated);
  void* in_place = g.new_graph(ctx);
  g.build_forward_expand(in_place, rope(g.rope_ext_inplace, b));

  // Agreement: the same input through both, out of place.
  const std::vector<float> x0 = random_floats(n, 7);
  std::vector<float> ours(x0);
  std::memcpy(g.get_data(a), x0.data(), n * sizeof(float));
  posenc::rope_apply(cache, posenc::tensor_view::dense(ours.data(), n, tokens, kHeads, kDim), start);
  if (g.graph_compute(g.backend, out_of_place) != 0) throw std::runtime_error("ggml: graph compute failed");
  const float* theirs = static_cast<const float*>(g.get_data(rotated));
  double max_diff = 0;
  for (std::size_t i = 0; i < n; ++i) max_diff = std::max(max_diff, std::fabs(double(ours[i]) - theirs[i]));

  std::vector<float> x = x0;
  std::memcpy(g.get_data(b), x0.data(), n * sizeof(float));
  const int inner = tokens == 1 ? 64 : tokens <= 16 ? 4 : 1;
  const int rounds = tokens >= 1024 ? 31 : 301;
  const std::vector<double> ns = paired(
      {[&] {
         posenc::rope_apply(cache, posenc::tensor_view::dense(x.data(), n, tokens, kHeads, kDim), start);
         escape(x.data());
       },
       [&] { g.graph_compute(g.backend, in_place); }},
      rounds, inner);
  g.free(ctx);
  std::printf("%s\n  \"%s/%s/%lldx32x128\": {\"posenc\": %.1f, \"ggml\": %.1f, \"start\": %lld, \"max_abs_diff\": %.3g}",
              sep, tokens == 1 ? "decode" : "prefill", interleaved ? "interleaved" : "half",
              static_cast<long long>(tokens), ns[0], ns[1], static_cast<long long>(start), max_diff);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: posenc_peer_ggml <directory with libggml-base.so and libggml-cpu-*.so>\n");
    return 2;
  }
  try {
    const ggml_api g = load_ggml(argv[1]);
    std::printf("{\n  \"ggml_version\": \"%s\", \"ggml_commit\": \"%s\", \"ggml_cpu_variant\": \"%s\"",
                g.version.c_str(), g.commit.c_str(), g.variant.c_str());
    for (auto layout : {posenc::rope_layout::half, posenc::rope_layout::interleaved}) {
      run_group(g, layout, 16, 0, ",");
      run_group(g, layout, 2048, 0, ",");
      run_group(g, layout, 1, 4000, ",");
    }
    std::printf("\n}\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posenc_peer_ggml: %s\n", e.what());
    return 1;
  }
  return 0;
}
