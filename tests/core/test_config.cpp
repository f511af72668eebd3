// test_config.cpp — rope_from_config on real published config.json files
// (tests/fixtures/hf-configs/, sources in the README there): θ and the attention factor of
// the resulting rotator against HF transformers' formulas evaluated here in float64, written
// from HF's code independently of posenc's frequencies.cpp, plus every refusal naming its key.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/rotary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <cstdint>
#include <functional>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#ifndef POSENC_FIXTURES_DIR
#error "POSENC_FIXTURES_DIR must name the tests/fixtures directory"
#endif

namespace {

using json = nlohmann::ordered_json;
using posenc::config_value;
using posenc::hf_config;
using posenc::rope_from_config;
using posenc::rope_layout;
using posenc::test::require_throws;

json load(const std::string& name) {
  const std::string path = std::string(POSENC_FIXTURES_DIR) + "/hf-configs/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  return json::parse(in);
}

// What a binding does with the parsed JSON: one entry per key path, objects included.
void flatten(const json& j, const std::string& path, hf_config& out) {
  if (j.is_object()) {
    if (!path.empty()) out[path] = config_value::object();
    for (const auto& [key, value] : j.items())
      flatten(value, path.empty() ? key : path + "." + key, out);
  } else if (j.is_array()) {
    const bool numeric = std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_number(); });
    const bool texts = !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); });
    if (texts) {  // its elements as entries path.0, path.1, …
      out[path] = config_value::strings(j.size());
      for (std::size_t i = 0; i < j.size(); ++i)
        out[path + "." + std::to_string(i)] = config_value::of_text(j[i].get<std::string>());
      return;
    }
    if (!numeric) {
      out[path] = config_value::other();
      return;
    }
    std::vector<double> v;
    for (const json& e : j) v.push_back(e.get<double>());
    out[path] = config_value::of_numbers(std::move(v));
  } else if (j.is_boolean()) {
    out[path] = config_value::of_bool(j.get<bool>());
  } else if (j.is_number()) {
    out[path] = config_value::of(j.get<double>());
  } else if (j.is_string()) {
    out[path] = config_value::of_text(j.get<std::string>());
  } else {
    out[path] = config_value::null_value();
  }
}

hf_config flat(const json& j) {
  hf_config out;
  flatten(j, "", out);
  return out;
}

// ── HF transformers' formulas in float64 (src/transformers/modeling_rope_utils.py) ───────

constexpr double kPi = std::numbers::pi;

using posenc::test::hf_default;
using posenc::test::hf_llama3;

// _compute_yarn_parameters → (inv_freq, attention_factor); truncate floors / ceils the ramp's ends.
std::pair<std::vector<double>, double> hf_yarn(int dim, double base, double factor,
                                               double original, double beta_fast,
                                               double beta_slow, double mscale,
                                               double mscale_all_dim, bool truncate = true) {
  auto get_mscale = [](double scale, double m) {
    return scale <= 1 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
  };
  const double attention = (mscale != 0 && mscale_all_dim != 0)
                               ? get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)
                               : get_mscale(factor, 1.0);
  auto correction_dim = [&](double rotations) {
    return (dim * std::log(original / (rotations * 2 * kPi))) / (2 * std::log(base));
  };
  double low = correction_dim(beta_fast), high = correction_dim(beta_slow);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(dim - 1));
  if (low == high) high += 0.001;
  std::vector<double> inv;
  for (int i = 0; i < dim / 2; ++i) {
    const double pos_freq = std::pow(base, static_cast<double>(2 * i) / dim);
    const double extrapolation = 1.0 / pos_freq, interpolation = 1.0 / (factor * pos_freq);
    const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
    const double extrapolation_factor = 1 - ramp;
    inv.push_back(interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor);
  }
  return {inv, attention};
}

// _compute_longrope_parameters → (inv_freq, attention_factor); factor = max / original.
std::pair<std::vector<double>, double> hf_longrope(int dim, double base,
                                                   const std::vector<double>& ext,
                                                   double max_positions, double original) {
  const double factor = max_positions / original;
  const double attention =
      factor <= 1.0 ? 1.0 : std::sqrt(1 + std::log(factor) / std::log(original));
  std::vector<double> inv;
  for (int i = 0; i < dim / 2; ++i)
    inv.push_back(1.0 / (ext[static_cast<std::size_t>(i)] *
                         std::pow(base, static_cast<double>(2 * i) / dim)));
  return {inv, attention};
}

// The rotator a config maps to, checked against the expected shape, θ and attention factor.
void check_rotator(const posenc::rope_config& config, int head_dim, int rotary_dim, double base,
                   rope_layout layout, const std::vector<double>& theta, double attention) {
  CHECK(config.head_dim == head_dim);
  CHECK(config.rotary_dim == rotary_dim);
  CHECK(config.base == base);
  CHECK(config.layout == layout);
  const posenc::rotary_cache cache(config);
  REQUIRE(cache.inv_freq().size() == theta.size());
  double worst = 0;
  for (std::size_t i = 0; i < theta.size(); ++i)
    worst = std::max(worst, std::fabs(cache.inv_freq()[i] - theta[i]) / theta[i]);
  CAPTURE(worst);
  CHECK(worst <= 1e-13);  // both in double: a few ulp apart (HF's own float32 is 1e-7 off)
  CHECK(cache.attention_factor() == Approx(attention).epsilon(1e-14));
}

std::vector<double> list(const json& j) { return j.get<std::vector<double>>(); }

}  // namespace

TEST_CASE("Llama 3.1 and 3.2: llama3 scaling, head_dim given or derived", "[config]") {
  const json l31 = load("llama-3.1-8b.json");
  check_rotator(rope_from_config(flat(l31)), 128, 128, 500000.0, rope_layout::half,
                hf_llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), 1.0);
  const json l32 = load("llama-3.2-3b.json");  // head_dim 128 = 3072 / 24
  check_rotator(rope_from_config(flat(l32)), 128, 128, 500000.0, rope_layout::half,
                hf_llama3(128, 500000.0, 32.0, 1.0, 4.0, 8192), 1.0);

  // The same config as transformers v5 saves it: rope_parameters holding rope_theta.
  json v5 = l31;
  v5["rope_parameters"] = v5["rope_scaling"];
  v5["rope_parameters"]["rope_theta"] = v5["rope_theta"];
  v5.erase("rope_scaling");
  v5.erase("rope_theta");
  check_rotator(rope_from_config(flat(v5)), 128, 128, 500000.0, rope_layout::half,
                hf_llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), 1.0);
  // Legacy `type` instead of `rope_type`.
  json legacy = l31;
  legacy["rope_scaling"].erase("rope_type");
  legacy["rope_scaling"]["type"] = "llama3";
  CHECK(rope_from_config(flat(legacy)).scaling.type == posenc::scaling_type::llama3);
}

TEST_CASE("Qwen2.5 and Mistral: default rotary at their rope_theta", "[config]") {
  check_rotator(rope_from_config(flat(load("qwen2.5-7b.json"))), 128, 128, 1e6,
                rope_layout::half, hf_default(128, 1e6), 1.0);
  check_rotator(rope_from_config(flat(load("mistral-7b-instruct-v0.3.json"))), 128, 128, 1e6,
                rope_layout::half, hf_default(128, 1e6), 1.0);
}

TEST_CASE("DeepSeek-V3: yarn on the qk_rope_head_dim slice, interleaved", "[config]") {
  const json ds = load("deepseek-v3.json");
  const auto [theta, attention] = hf_yarn(64, 10000.0, 40.0, 4096, 32, 1, 1.0, 1.0);
  check_rotator(rope_from_config(flat(ds)), 64, 64, 10000.0, rope_layout::interleaved, theta,
                attention);
  // rope_interleave: false switches to the half layout; the options override either.
  json half = ds;
  half["rope_interleave"] = false;
  CHECK(rope_from_config(flat(half)).layout == rope_layout::half);
  CHECK(rope_from_config(flat(ds), {.layout = rope_layout::half}).layout == rope_layout::half);
  // mscale ≠ mscale_all_dim (DeepSeek-V2-Lite's 0.707 / 0.707 keeps 1; 1.0 / 0.707 does not).
  json skew = ds;
  skew["rope_scaling"]["mscale_all_dim"] = 0.707;
  const auto [theta2, attention2] = hf_yarn(64, 10000.0, 40.0, 4096, 32, 1, 1.0, 0.707);
  check_rotator(rope_from_config(flat(skew)), 64, 64, 10000.0, rope_layout::interleaved, theta2,
                attention2);
  CHECK(attention2 != 1.0);
}

TEST_CASE("Phi-3.5 and Phi-4-mini: longrope, factors chosen once by seq_len", "[config]") {
  const json phi = load("phi-3.5-mini-instruct.json");  // head_dim 96 = 3072 / 32
  const json& rs = phi["rope_scaling"];
  for (int seq_len : {0, 4096, 4097, 131072}) {
    posenc::config_options options;
    if (seq_len) options.seq_len = seq_len;
    const bool long_factors = seq_len > 4096;  // HF: seq_len > original_max_position_embeddings
    const auto [theta, attention] =
        hf_longrope(96, 10000.0, list(rs[long_factors ? "long_factor" : "short_factor"]), 131072, 4096);
    CAPTURE(seq_len);
    check_rotator(rope_from_config(flat(phi), options), 96, 96, 10000.0, rope_layout::half,
                  theta, attention);
  }
  // Phi-3's legacy names of the same scaling.
  for (const char* name : {"su", "yarn"}) {
    json old = phi;
    old["rope_scaling"]["type"] = name;
    CHECK(rope_from_config(flat(old)).scaling.type == posenc::scaling_type::longrope);
  }
  // Phi-4-mini: partial_rotary_factor 0.75 → 96 of 128 dims rotate, 48 factors.
  const json phi4 = load("phi-4-mini-instruct.json");
  const auto [theta4, attention4] =
      hf_longrope(96, 10000.0, list(phi4["rope_scaling"]["short_factor"]), 131072, 4096);
  check_rotator(rope_from_config(flat(phi4)), 128, 96, 10000.0, rope_layout::half, theta4,
                attention4);
}

TEST_CASE("Gemma 2 and Gemma 3: config-class defaults, global and local rotary", "[config]") {
  // Gemma 2: one rotary for both layer types.
  const json g2 = load("gemma-2-2b.json");
  for (const char* layer : {"full_attention", "sliding_attention"})
    check_rotator(rope_from_config(flat(g2), {.layer_type = layer}), 256, 256, 10000.0,
                  rope_layout::half, hf_default(256, 10000.0), 1.0);
  // Gemma 3: rope_theta for global layers, rope_local_base_freq for sliding ones.
  const json g3 = load("gemma-3-1b-it.json");
  check_rotator(rope_from_config(flat(g3)), 256, 256, 1e6, rope_layout::half,
                hf_default(256, 1e6), 1.0);
  check_rotator(rope_from_config(flat(g3), {.layer_type = "sliding_attention"}), 256, 256,
                10000.0, rope_layout::half, hf_default(256, 10000.0), 1.0);
  // Absent keys take Gemma3TextConfig's defaults (head_dim 256, theta 1e6 / 1e4).
  json bare = g3;
  for (const char* key : {"head_dim", "rope_theta", "rope_local_base_freq"}) bare.erase(key);
  check_rotator(rope_from_config(flat(bare)), 256, 256, 1e6, rope_layout::half,
                hf_default(256, 1e6), 1.0);
  check_rotator(rope_from_config(flat(bare), {.layer_type = "sliding_attention"}), 256, 256,
                10000.0, rope_layout::half, hf_default(256, 10000.0), 1.0);
  // A multimodal config nests the text model under text_config; transformers v5 saves one
  // rope_parameters per layer type (the 27B's linear ×8 on global layers only).
  json mm = {{"model_type", "gemma3"}, {"text_config", g3}};
  mm["text_config"]["model_type"] = "gemma3_text";
  mm["text_config"].erase("rope_theta");
  mm["text_config"].erase("rope_local_base_freq");
  mm["text_config"]["rope_parameters"] = {
      {"full_attention", {{"factor", 8.0}, {"rope_type", "linear"}, {"rope_theta", 1e6}}},
      {"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}}};
  std::vector<double> linear = hf_default(256, 1e6);
  for (double& v : linear) v /= 8.0;
  check_rotator(rope_from_config(flat(mm)), 256, 256, 1e6, rope_layout::half, linear, 1.0);
  check_rotator(rope_from_config(flat(mm), {.layer_type = "sliding_attention"}), 256, 256,
                10000.0, rope_layout::half, hf_default(256, 10000.0), 1.0);
}

TEST_CASE("GPT-J: rotary_dim of n_embd / n_head, interleaved, base 10000", "[config]") {
  const json gptj = load("gpt-j-6b.json");  // head_dim 256 = 4096 / 16, 64 of them rotate
  check_rotator(rope_from_config(flat(gptj)), 256, 64, 10000.0, rope_layout::interleaved,
                hf_default(64, 10000.0), 1.0);
}

TEST_CASE("GPT-NeoX family: rotary_pct and rotary_emb_base; partial_rotary_factor", "[config]") {
  const json neox = load("redpajama-incite-3b.json");  // gpt_neox, head_dim 80 = 2560 / 32
  check_rotator(rope_from_config(flat(neox)), 80, 80, 10000.0, rope_layout::half,
                hf_default(80, 10000.0), 1.0);
  // Pythia's rotary_pct 0.25 (and GPTNeoXConfig's default when the key is absent).
  json pythia = neox;
  pythia["rotary_pct"] = 0.25;
  check_rotator(rope_from_config(flat(pythia)), 80, 20, 10000.0, rope_layout::half,
                hf_default(20, 10000.0), 1.0);
  pythia.erase("rotary_pct");
  CHECK(rope_from_config(flat(pythia)).rotary_dim == 20);
  // StableLM (a NeoX descendant) says partial_rotary_factor.
  check_rotator(rope_from_config(flat(load("stablelm-3b-4e1t.json"))), 80, 20, 10000.0,
                rope_layout::half, hf_default(20, 10000.0), 1.0);
}

TEST_CASE("rope_from_config refuses what it cannot map, naming the config key", "[config]") {
  const json l31 = load("llama-3.1-8b.json");
  auto refuses = [](const json& config, const std::string& key,
                    const posenc::config_options& options = {}) {
    CAPTURE(key);
    require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(config), options); },
                                             key);
  };
  auto with = [&](const std::function<void(json&)>& edit, json base = json()) {
    json c = base.is_null() ? l31 : base;
    edit(c);
    return c;
  };
  // "mrope" is the default ladder (Qwen2VLConfig), which takes no factor.
  refuses(with([](json& c) { c["rope_scaling"]["rope_type"] = "mrope"; }), "rope_scaling.factor");
  refuses(with([](json& c) { c["rope_scaling"]["mrope_section"] = {16, 24, 16}; }),
          "rope_scaling.mrope_section must sum");
  refuses(with([](json& c) { c["rope_scaling"]["mrope_section"] = {16, 48}; }),
          "rope_scaling.mrope_section must hold 3");
  refuses(with([](json& c) { c["rope_scaling"]["mrope_section"] = {16, 24.5, 23.5}; }),
          "rope_scaling.mrope_section[1]");
  refuses(with([](json& c) { c["rope_scaling"]["mrope_interleaved"] = true; }),
          "rope_scaling.mrope_section is required");
  refuses(l31, "vision_config is missing", {.tower = "vision"});
  refuses(l31, "tower", {.tower = "audio"});
  refuses(with([](json& c) { c["rope_scaling"].erase("low_freq_factor"); }),
          "rope_scaling.low_freq_factor");
  refuses(with([](json& c) { c["rope_scaling"]["factor"] = 0.5; }), "rope_scaling.factor");
  refuses(with([](json& c) { c["rope_scaling"]["factor"] = "8"; }), "rope_scaling.factor must be a number");
  refuses(with([](json& c) { c["rope_scaling"]["type"] = "linear"; }), "rope_scaling.type");
  refuses(with([](json& c) { c["rope_scaling"]["original_max_position_embeddings"] = 8192.5; }),
          "rope_scaling.original_max_position_embeddings");
  refuses(with([](json& c) { c["rope_scaling"] = "llama3"; }), "rope_scaling");
  refuses(with([](json& c) { c["rope_theta"] = "5e5"; }), "rope_theta must be a number");
  refuses(with([](json& c) { c["rope_theta"] = 1.0; }), "rope_theta");
  refuses(with([](json& c) { c.erase("hidden_size"); }), "hidden_size");
  refuses(with([](json& c) { c["num_attention_heads"] = 0; }), "num_attention_heads");
  refuses(with([](json& c) { c["head_dim"] = 127.5; }), "head_dim");
  refuses(with([](json& c) { c["head_dim"] = 3; }), "head_dim");
  refuses(with([](json& c) { c["partial_rotary_factor"] = 0; }), "partial_rotary_factor");
  refuses(with([](json& c) { c["partial_rotary_factor"] = 0.3046875; }), "partial_rotary_factor");  // 39 dims
  refuses(with([](json& c) { c["text_config"] = 3; }), "text_config");
  refuses(with([](json& c) {  // v5 and top level disagree
    c["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 10000.0}};
    c.erase("rope_scaling");
  }), "rope_parameters.rope_theta");
  refuses(with([](json& c) {
    c.erase("rope_scaling");
    c["rope_parameters"] = {{"full_attention", {{"rope_type", "default"}}}, {"chunked", json::object()}};
  }), "rope_parameters.chunked");
  refuses(with([](json& c) {
    c.erase("rope_scaling");
    c["rope_parameters"] = {{"full_attention", {{"rope_type", "default"}}}};
  }), "rope_parameters.sliding_attention", {.layer_type = "sliding_attention"});
  refuses(l31, "layer_type", {.layer_type = "global"});
  refuses(l31, "seq_len", {.seq_len = 0});
  const json phi = load("phi-3.5-mini-instruct.json");
  refuses(with([](json& c) { c["rope_scaling"]["short_factor"] = {1.0, 2.0}; }, phi),
          "rope_scaling.short_factor");
  refuses(with([](json& c) { c["rope_scaling"]["long_factor"] = {"a"}; }, phi),
          "rope_scaling.long_factor");
  refuses(with([](json& c) { c["rope_scaling"].erase("long_factor"); }, phi),
          "rope_scaling.long_factor");
  const json gptj = load("gpt-j-6b.json");
  refuses(with([](json& c) { c["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 2.0}}; }, gptj),
          "rope_scaling");
  refuses(with([](json& c) { c["rotary_dim"] = nullptr; }, gptj), "rotary_dim");
  refuses(with([](json& c) { c["rotary_dim"] = 512; }, gptj), "rotary_dim");
  const json neox = load("redpajama-incite-3b.json");
  refuses(with([](json& c) { c["rope_theta"] = 20000.0; }, neox), "rotary_emb_base");
}

namespace {
// The multimodal part of a mapped config.
void check_axes(const posenc::rope_config& c, posenc::rope_axes_kind kind,
                const std::array<int, 3>& section) {
  CHECK(c.axes.kind == kind);
  CHECK(c.axes.section == section);
}
}  // namespace

TEST_CASE("Qwen2.5-VL and Qwen3-VL: M-RoPE sections from the published configs", "[config]") {
  using posenc::rope_axes_kind;
  // Qwen2.5-VL-7B-Instruct as transformers 4.53 saves it (nested text_config, "default" type
  // with mrope_section): contiguous sections (apply_multimodal_rotary_pos_emb).
  const json q25 = load("qwen2.5-vl-7b-instruct.json");
  const posenc::rope_config c25 = rope_from_config(flat(q25));
  check_rotator(c25, 128, 128, 1e6, rope_layout::half, hf_default(128, 1e6), 1.0);
  check_axes(c25, rope_axes_kind::mrope, {16, 24, 24});
  // The Hub's original flat form: rope_scaling {type: "mrope", mrope_section} at the top level
  // (Qwen/Qwen2-VL-7B-Instruct and Qwen/Qwen2.5-VL-7B-Instruct ship it; here made by editing).
  json legacy = q25;
  legacy.erase("text_config");
  legacy["rope_scaling"] = {{"type", "mrope"}, {"mrope_section", {16, 24, 24}}};
  const posenc::rope_config cl = rope_from_config(flat(legacy));
  CHECK(cl.axes.kind == rope_axes_kind::mrope);
  CHECK(cl.scaling.type == posenc::scaling_type::none);
  json qwen2 = legacy;
  qwen2["model_type"] = "qwen2_vl";
  qwen2["rope_scaling"].erase("mrope_section");  // HF reads it unconditionally
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(qwen2)); },
                                           "rope_scaling.mrope_section is required");

  // Qwen3-VL-4B-Instruct: nested text_config, mrope_interleaved, [24, 20, 20].
  const json q3 = load("qwen3-vl-4b-instruct.json");
  const posenc::rope_config c3 = rope_from_config(flat(q3));
  check_rotator(c3, 128, 128, 5e6, rope_layout::half, hf_default(128, 5e6), 1.0);
  check_axes(c3, rope_axes_kind::mrope_interleaved, {24, 20, 20});
  // Qwen3VLTextRotaryEmbedding interleaves whatever the flag says, section default [24, 20, 20];
  // transformers v5 keeps the same keys in rope_parameters.
  json v5 = q3;
  v5["text_config"]["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 5000000}};
  v5["text_config"].erase("rope_scaling");
  v5["text_config"].erase("rope_theta");
  const posenc::rope_config c5 = rope_from_config(flat(v5));
  check_axes(c5, rope_axes_kind::mrope_interleaved, {24, 20, 20});
  CHECK(c5.base == 5e6);
}

TEST_CASE("Vision towers: Qwen2-VL/2.5-VL/3-VL and Pixtral 2-D rotary", "[config]") {
  using posenc::rope_axes_kind;
  const posenc::config_options vision{.tower = "vision"};
  // Qwen2_5_VisionTransformer / Qwen3VLVisionModel: head_dim = hidden_size // num_heads;
  // VisionRotaryEmbedding(head_dim // 2) at theta 10000.
  const posenc::rope_config v25 = rope_from_config(flat(load("qwen2.5-vl-7b-instruct.json")), vision);
  CHECK(v25.head_dim == 80);  // 1280 / 16
  CHECK(v25.rotary_dim == 80);
  CHECK(v25.base == 10000.0);
  CHECK(v25.layout == rope_layout::half);
  CHECK(v25.axes.kind == rope_axes_kind::vision_qwen2vl);
  const posenc::rope_config v3 = rope_from_config(flat(load("qwen3-vl-4b-instruct.json")), vision);
  CHECK(v3.head_dim == 64);  // 1024 / 16
  CHECK(v3.axes.kind == rope_axes_kind::vision_qwen2vl);
  // Qwen2VisionTransformer: embed_dim // num_heads (its hidden_size is the merger's output).
  json q2 = load("qwen2.5-vl-7b-instruct.json");
  q2["model_type"] = "qwen2_vl";
  q2["vision_config"] = {{"depth", 32}, {"embed_dim", 1280}, {"num_heads", 16}, {"hidden_size", 3584}};
  CHECK(rope_from_config(flat(q2), vision).head_dim == 80);
  // VisionRotaryEmbedding's φ_j = 10000^(−4j/80): the first rung pair of rows and of columns.
  const posenc::rotary_cache cache(v25);
  REQUIRE(cache.inv_freq().size() == 40);
  for (int j = 0; j < 20; ++j) {
    const double phi = 1.0 / std::pow(10000.0, 2.0 * j / 40.0);
    CHECK(cache.inv_freq()[static_cast<std::size_t>(j)] == Approx(phi).epsilon(1e-15));
    CHECK(cache.inv_freq()[static_cast<std::size_t>(20 + j)] == Approx(phi).epsilon(1e-15));
  }

  // Pixtral (PixtralVisionConfig inside a llava / mistral3 config): head_dim, rope_theta; its
  // values as published in Mistral-Small-3.x's vision_config.
  json px = {{"model_type", "mistral3"},
             {"text_config", {{"model_type", "mistral"}, {"head_dim", 128}, {"rope_theta", 1e9}}},
             {"vision_config", {{"model_type", "pixtral"}, {"head_dim", 64}, {"hidden_size", 1024},
                                {"num_attention_heads", 16}, {"rope_theta", 10000.0}}}};
  const posenc::rope_config vp = rope_from_config(flat(px), vision);
  CHECK(vp.head_dim == 64);
  CHECK(vp.base == 10000.0);
  CHECK(vp.axes.kind == rope_axes_kind::vision_pixtral);
  px["vision_config"].erase("head_dim");
  px["vision_config"]["rope_theta"] = 20000.0;
  const posenc::rope_config vq = rope_from_config(flat(px), vision);
  CHECK(vq.head_dim == 64);  // hidden_size // num_attention_heads
  CHECK(vq.base == 20000.0);
  px["vision_config"]["hidden_size"] = 1000;  // 62: not a multiple of 4
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(px), vision); },
                                           "vision_config.hidden_size / vision_config.num_attention_heads");
  json other = px;
  other["vision_config"]["model_type"] = "siglip_vision_model";
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(other), vision); },
                                           "vision_config.model_type");
}

TEST_CASE("Vision towers' layer maps: Qwen2.5-VL windowed, the others full, all bidirectional",
          "[config]") {
  using posenc::attention_kind;
  const posenc::config_options vision{.tower = "vision"};
  // Qwen2_5_VisionTransformerPretrainedModel.forward: `layer_num in fullatt_block_indexes`
  // attends the whole frame (cu_seqlens), every other block its window (cu_window_seqlens);
  // get_vision_window_index: windows of window_size // spatial_merge_size // patch_size merged
  // tokens; the attention is_causal = False.
  const auto expect = [](const posenc::model_info& m, int depth, const std::vector<int>& full,
                         int side, int merge) {
    REQUIRE(m.layers.size() == static_cast<std::size_t>(depth));
    REQUIRE(m.encodings.size() == 1);
    for (const posenc::layer_info& l : m.layers) {
      INFO("layer " << l.index);
      const bool is_full = std::find(full.begin(), full.end(), l.index) != full.end();
      CHECK(l.rope == std::optional<std::size_t>(0));
      CHECK(l.bidirectional);
      CHECK(!l.window);
      CHECK(!l.lookahead);
      CHECK(l.attention == (is_full ? attention_kind::full : attention_kind::windowed));
      CHECK(l.patches.has_value() == !is_full);
      if (l.patches) CHECK((l.patches->side == side && l.patches->merge == merge));
    }
  };
  json q25 = load("qwen2.5-vl-7b-instruct.json");  // fullatt 7, 15, 23, 31; 112 // 2 // 14 = 4
  expect(posenc::model_from_config(flat(q25), vision), 32, {7, 15, 23, 31}, 4, 2);
  CHECK(posenc::to_string(attention_kind::windowed) == "windowed");
  // Qwen2_5_VLVisionConfig's defaults when the keys are absent; a list entry naming no layer
  // (>= depth) is ignored, as `in` ignores it.
  json d = q25;
  for (const char* k : {"fullatt_block_indexes", "window_size", "spatial_merge_size", "patch_size"})
    d["vision_config"].erase(k);
  expect(posenc::model_from_config(flat(d), vision), 32, {7, 15, 23, 31}, 4, 2);
  d["vision_config"]["depth"] = 6;
  d["vision_config"]["fullatt_block_indexes"] = {0, 5, 40};
  d["vision_config"]["window_size"] = 100;  // 100 // 2 // 14 = 3
  expect(posenc::model_from_config(flat(d), vision), 6, {0, 5}, 3, 2);
  d["vision_config"]["spatial_merge_size"] = 1;
  d["vision_config"]["window_size"] = 14;  // one patch a window
  d["vision_config"]["fullatt_block_indexes"] = json::array();
  expect(posenc::model_from_config(flat(d), vision), 6, {}, 1, 1);
  const auto refuses = [&](json c, const std::string& key) {
    require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(c), vision); }, key);
  };
  json bad = q25;
  bad["vision_config"]["window_size"] = 27;  // 27 // 2 // 14 = 0: ZeroDivisionError in HF
  refuses(bad, "vision_config.window_size = 27");
  bad = q25;
  bad["vision_config"]["fullatt_block_indexes"] = {7, 15.5};
  refuses(bad, "vision_config.fullatt_block_indexes[1]");
  bad["vision_config"]["fullatt_block_indexes"] = nullptr;
  refuses(bad, "vision_config.fullatt_block_indexes is null");
  bad = q25;
  bad["vision_config"]["patch_size"] = {14, 14};
  refuses(bad, "vision_config.patch_size");
  bad = q25;
  bad["vision_config"]["window_size"] = nullptr;
  refuses(bad, "vision_config.window_size is null");

  // Qwen2VisionTransformer, Qwen3VLVisionModel, Pixtral: every block sees its whole frame.
  json q2 = q25;
  q2["model_type"] = "qwen2_vl";
  q2["vision_config"] = {{"depth", 32}, {"embed_dim", 1280}, {"num_heads", 16}, {"hidden_size", 3584}};
  expect(posenc::model_from_config(flat(q2), vision), 32,
         [] { std::vector<int> all(32); for (int i = 0; i < 32; ++i) all[static_cast<std::size_t>(i)] = i; return all; }(), 0, 0);
  const json q3 = load("qwen3-vl-4b-instruct.json");
  const posenc::model_info m3 = posenc::model_from_config(flat(q3), vision);
  for (const posenc::layer_info& l : m3.layers)
    CHECK((l.attention == attention_kind::full && l.bidirectional && !l.patches));
}

TEST_CASE("Omni vision towers: thinker_config.vision_config, Qwen2.5-Omni windowed, Qwen3-Omni full",
          "[config]") {
  using posenc::attention_kind;
  const posenc::config_options vision{.tower = "vision"};
  // Qwen2_5OmniVisionEncoder: Qwen2_5_VisionRotaryEmbedding(hidden_size // num_heads // 2) at
  // theta 10000 over get_vision_position_ids; forward's `layer_num in fullatt_block_indexes`
  // (class default 7, 15, 23, 31) full, the rest windows of 112 // 2 // 14 = 4 merged tokens.
  const json q25 = load("qwen2.5-omni-7b.reconstructed.json");
  const posenc::model_info m = posenc::model_from_config(flat(q25), vision);
  CHECK(m.model_type == "qwen2_5_omni_vision_encoder");
  REQUIRE(m.encodings.size() == 1);
  CHECK(m.encodings[0].head_dim == 80);  // 1280 / 16
  CHECK(m.encodings[0].base == 10000.0);
  CHECK(m.encodings[0].axes.kind == posenc::rope_axes_kind::vision_qwen2vl);
  CHECK(m.encodings[0].layout == rope_layout::half);
  const posenc::rotary_cache cache(m.encodings[0]);
  for (int j = 0; j < 20; ++j)  // 1 / 10000^(2j / 40), rows then columns
    CHECK(cache.inv_freq()[static_cast<std::size_t>(20 + j)] == Approx(1.0 / std::pow(1e4, j / 20.0)).epsilon(1e-15));
  REQUIRE(m.layers.size() == 32);
  for (const posenc::layer_info& l : m.layers) {
    const bool full = l.index % 8 == 7;
    CHECK(l.bidirectional);
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::windowed));
    if (!full) CHECK((l.patches && l.patches->side == 4 && l.patches->merge == 2));
  }
  json listed = q25;  // the thinker's own keys decide
  listed["thinker_config"]["vision_config"]["fullatt_block_indexes"] = {0, 1};
  listed["thinker_config"]["vision_config"]["window_size"] = 56;  // 56 // 2 // 14 = 2
  const posenc::model_info l2 = posenc::model_from_config(flat(listed), vision);
  CHECK(l2.layers[1].attention == attention_kind::full);
  CHECK(l2.layers[2].patches->side == 2);
  // Qwen2_5OmniThinkerConfig on its own: vision_config at the top level.
  const posenc::model_info thinker = posenc::model_from_config(flat(q25["thinker_config"]), vision);
  CHECK(thinker.layers.size() == 32);
  CHECK(thinker.layers[0].attention == attention_kind::windowed);

  // Qwen3OmniMoeVisionEncoder: hidden_size // num_heads = 72, every block cu_seqlens (full).
  const json q3 = load("qwen3-omni-30b-a3b-instruct.reconstructed.json");
  const posenc::model_info m3 = posenc::model_from_config(flat(q3), vision);
  CHECK(m3.encodings[0].head_dim == 72);
  CHECK(m3.encodings[0].axes.kind == posenc::rope_axes_kind::vision_qwen2vl);
  REQUIRE(m3.layers.size() == 27);
  for (const posenc::layer_info& l : m3.layers)
    CHECK((l.attention == attention_kind::full && l.bidirectional && !l.patches));
  // No vision config at all: named under the thinker.
  json none = q3;
  none["thinker_config"].erase("vision_config");
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(none), vision); },
                                           "thinker_config.vision_config is missing");
}

TEST_CASE("Muse Glimmer's vision tower: axes 'muse-glimmer', window_attention blocks", "[config]") {
  using posenc::attention_kind;
  // convert_muse_glimmer_weights_to_hf.py build_config()'s MuseGlimmerVisionConfig, as saved.
  json mg = load("muse-glimmer-30b.reconstructed.json");
  mg["vision_config"] = {{"model_type", "muse_glimmer_vision"}, {"hidden_size", 1536},
                         {"num_hidden_layers", 50}, {"num_attention_heads", 16}, {"patch_size", 14},
                         {"pos_emb_height", 32}, {"pos_emb_width", 32}, {"merge_size", 2},
                         {"rope_parameters", {{"rope_type", "default"}, {"rope_theta", 10000.0}}}};
  const posenc::config_options vision{.tower = "vision"};
  const posenc::model_info m = posenc::model_from_config(flat(mg), vision);
  REQUIRE(m.encodings.size() == 1);
  const posenc::rope_config& e = m.encodings[0];
  CHECK(e.head_dim == 96);  // MuseGlimmerVisionAttention: hidden_size // num_attention_heads
  CHECK(e.rotary_dim == 96);
  CHECK(e.base == 10000.0);
  CHECK(e.layout == rope_layout::half);
  CHECK(e.axes.kind == posenc::rope_axes_kind::bands);
  CHECK(e.axes.name == "muse-glimmer");
  REQUIRE(e.axes.bands.size() == 2);
  CHECK((e.axes.bands[0].name == "w" && e.axes.bands[0].dims == 48));  // columns first
  CHECK((e.axes.bands[1].name == "h" && e.axes.bands[1].dims == 48));
  // MuseGlimmerVisionConfig.__post_init__: full when (i + 1) % 4 == 0 or the last; the others
  // window_attention over windows of (pos_emb_height · patch_size) // 1 // patch_size patches.
  REQUIRE(m.layers.size() == 50);
  for (const posenc::layer_info& l : m.layers) {
    INFO("layer " << l.index);
    const bool full = (l.index + 1) % 4 == 0 || l.index == 49;
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::windowed));
    CHECK(l.bidirectional);
    CHECK(l.rope == std::optional<std::size_t>(0));
    CHECK(l.patches.has_value() == !full);
    if (l.patches) CHECK((l.patches->side == 32 && l.patches->merge == 1));
  }
  json listed = mg;
  listed["vision_config"]["num_hidden_layers"] = 3;
  listed["vision_config"]["layer_types"] = {"window_attention", "full_attention", "window_attention"};
  listed["vision_config"]["pos_emb_height"] = 16;
  const posenc::model_info l3 = posenc::model_from_config(flat(listed), vision);
  CHECK((l3.layers[0].patches->side == 16 && l3.layers[1].attention == attention_kind::full &&
         l3.layers[2].attention == attention_kind::windowed));
  const auto refuses = [&](const json& c, const std::string& key) {
    require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(c), vision); }, key);
  };
  json bad = listed;
  bad["vision_config"]["layer_types"] = {"window_attention", "sliding_attention", "full_attention"};
  refuses(bad, "vision_config.layer_types[1] must be 'full_attention' or 'window_attention'");
  bad["vision_config"]["layer_types"] = {"full_attention"};
  refuses(bad, "vision_config.layer_types lists 1 layers, the tower has 3");
  bad = mg;
  bad["vision_config"]["rope_parameters"]["rope_type"] = "linear";
  refuses(bad, "vision_config.rope_parameters.rope_type = 'linear'");
  bad = mg;
  bad["vision_config"]["head_dim"] = 64;
  refuses(bad, "vision_config.head_dim = 64 is not vision_config.hidden_size / vision_config.num_attention_heads = 96");
  bad = mg;
  bad["vision_config"]["rope_parameters"].erase("rope_theta");  // default_theta
  CHECK(rope_from_config(flat(bad), vision).base == 10000.0);
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(mg), {.layout = rope_layout::interleaved, .tower = "vision"}); },
      "layout: muse-glimmer's vision rotary fixes its pairs");
  CHECK(posenc::model_from_config(flat(mg)).family == "muse_glimmer");  // the text model still reads
}

namespace {
// HF's GLM text rotary at positions (t, h, w) per token, in float64: Glm4vTextRotaryEmbedding
// (freqs[a] = p_a·θ_k; apply_mrope: chunk i of mrope_section takes axis i % 3; emb =
// cat(freqs, freqs)), then the layout of the family's apply_rotary_pos_emb — glm4v / glm_ocr
// cos[..., :r/2].repeat_interleave(2), glm4v_moe / glm_image the cat as it is.
void glm_cos_sin(const std::vector<double>& theta, const std::vector<int>& section,
                 rope_layout layout, const std::array<std::int32_t, 3>& p,
                 std::vector<double>& cos, std::vector<double>& sin) {
  const std::size_t n = theta.size();
  std::vector<int> axis;
  for (std::size_t i = 0; i < section.size(); ++i)
    axis.insert(axis.end(), static_cast<std::size_t>(section[i]), static_cast<int>(i % 3));
  REQUIRE(axis.size() == n);
  cos.assign(2 * n, 0.0);
  sin.assign(2 * n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    const double angle = p[static_cast<std::size_t>(axis[k])] * theta[k];
    const auto [a, b] = layout == rope_layout::interleaved ? std::pair{2 * k, 2 * k + 1} : std::pair{k, k + n};
    cos[a] = cos[b] = std::cos(angle);
    sin[a] = sin[b] = std::sin(angle);
  }
}

// The rotator's cos/sin at three tokens of distinct (t, h, w) against glm_cos_sin.
void check_glm_axes(const posenc::rope_config& config, const std::vector<int>& section) {
  const posenc::rotary_cache cache(config);
  const int r = config.rotary_dim;
  const std::vector<std::array<std::int32_t, 3>> tokens = {{0, 0, 0}, {5, 7, 2}, {131071, 40, 96}};
  std::vector<std::int32_t> positions(9);
  for (std::size_t t = 0; t < 3; ++t)
    for (std::size_t a = 0; a < 3; ++a) positions[a * 3 + t] = tokens[t][a];
  std::vector<float> cos(3 * static_cast<std::size_t>(r)), sin(cos.size());
  posenc::rope_cos_sin(cache, positions, cos, sin);
  double worst = 0;
  for (std::size_t t = 0; t < 3; ++t) {
    std::vector<double> c, s;
    glm_cos_sin(hf_default(r, config.base), section, config.layout, tokens[t], c, s);
    for (std::size_t i = 0; i < static_cast<std::size_t>(r); ++i)
      worst = std::max({worst, std::fabs(cos[t * r + i] - c[i]), std::fabs(sin[t * r + i] - s[i])});
  }
  CAPTURE(worst);
  CHECK(worst <= 4e-7);
}

// A GLM config's rotator: 128-wide heads at θ 10000, `rotary_dim` rotated dims in `layout`,
// M-RoPE with `section` (contiguous), checked rung by rung and at distinct (t, h, w).
void check_glm(const json& config, int rotary_dim, rope_layout layout, const std::vector<int>& section) {
  const posenc::rope_config c = rope_from_config(flat(config));
  check_rotator(c, 128, rotary_dim, 10000.0, layout, hf_default(rotary_dim, 10000.0), 1.0);
  check_axes(c, posenc::rope_axes_kind::mrope, {section[0], section[1], section[2]});
  check_glm_axes(c, section);
}
}  // namespace

TEST_CASE("config: GLM-4.1V / 4.5V / OCR / Image: GLM's M-RoPE sections in each family's pair layout",
          "[config]") {
  using posenc::rope_axes_kind;
  // Glm4vTextRotaryEmbedding + apply_rotary_pos_emb (repeat_interleave): int(128 · 0.5) dims.
  const json v41 = load("glm-4.1v-9b-thinking.reconstructed.json");
  check_glm(v41, 64, rope_layout::interleaved, {8, 12, 12});
  // The Hub's transformers-4.5x form: top-level partial_rotary_factor and rope_theta,
  // rope_scaling {rope_type, mrope_section} (convert_rope_params_to_dict moves them).
  json legacy = v41;
  legacy["text_config"].erase("rope_parameters");
  legacy["text_config"]["partial_rotary_factor"] = 0.5;
  legacy["text_config"]["rope_theta"] = 10000.0;
  legacy["text_config"]["rope_scaling"] = {{"rope_type", "default"}, {"mrope_section", {8, 12, 12}}};
  check_glm(legacy, 64, rope_layout::interleaved, {8, 12, 12});
  // rope_parameters.get("mrope_section", [8, 12, 12]).
  json no_section = v41;
  no_section["text_config"]["rope_parameters"].erase("mrope_section");
  check_axes(rope_from_config(flat(no_section)), rope_axes_kind::mrope, {8, 12, 12});
  // Without partial_rotary_factor Glm4vTextConfig rotates the whole head (get(…, 1.0)): 64
  // rungs, which [8, 12, 12] cannot split (torch's split raises).
  json whole = no_section;
  whole["text_config"]["rope_parameters"].erase("partial_rotary_factor");
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(whole)); },
                                           "text_config.rope_parameters.mrope_section");
  // apply_mrope cycles any number of chunks over t, h, w (transformers' own test uses
  // [2, 2]); posenc maps three and names the key otherwise.
  json two = v41;
  two["text_config"]["rope_parameters"]["mrope_section"] = {16, 16};
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(two)); },
                                           "mrope_section must hold 3 values");
  json flagged = v41;
  flagged["text_config"]["rope_parameters"]["mrope_interleaved"] = true;
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(flagged)); },
                                           "mrope_interleaved = true is not read by glm4v");

  // Glm4vMoeTextRotaryEmbedding + rotate_half: half pairs over int(128 · 0.5) dims;
  // Glm4vMoeTextConfig sets partial_rotary_factor 0.5 when the config has none.
  const json v45 = load("glm-4.5v.reconstructed.json");
  check_glm(v45, 64, rope_layout::half, {8, 12, 12});
  json v45_default = v45;
  v45_default["text_config"].erase("partial_rotary_factor");
  v45_default["text_config"]["rope_parameters"].erase("partial_rotary_factor");
  CHECK(rope_from_config(flat(v45_default)).rotary_dim == 64);

  // GLM-OCR: the whole head, [16, 24, 24], interleaved pairs.
  check_glm(load("glm-ocr.reconstructed.json"), 128, rope_layout::interleaved, {16, 24, 24});
  // GLM-Image's autoregressive model: rotate_half over int(128 · 0.5) dims.
  check_glm(load("glm-image.reconstructed.json"), 64, rope_layout::half, {8, 12, 12});
}

TEST_CASE("config: Granite 4 Vision and EXAONE 4.5 read the text model their wrapper builds", "[config]") {
  // Granite4VisionModel builds Granite4VisionTextModel(config.text_config) whatever
  // text_config.model_type says: every layer, the whole head, θ from the rope parameters.
  json g = load("granite4-vision.class-defaults.reconstructed.json");
  check_rotator(rope_from_config(flat(g)), 128, 128, 10000.0, rope_layout::half,
                hf_default(128, 10000.0), 1.0);
  g["text_config"]["model_type"] = "granitemoehybrid";
  g["text_config"]["position_embedding_type"] = "nope";  // GraniteMoeHybridModel's switch, unread here
  g["text_config"]["rope_theta"] = 20000.0;
  check_rotator(rope_from_config(flat(g)), 128, 128, 20000.0, rope_layout::half,
                hf_default(128, 20000.0), 1.0);
  // Exaone4_5_Config maps text_config.model_type "exaone4_5_text" (and a missing one) to exaone4.
  json e = {{"model_type", "exaone4_5"}, {"text_config", load("exaone-4.0-32b.json")}};
  e["text_config"]["model_type"] = "exaone4_5_text";
  const posenc::rope_config ce = rope_from_config(flat(e));
  check_rotator(ce, 128, 128, 1e6, rope_layout::half, hf_llama3(128, 1e6, 16.0, 1.0, 4.0, 8192.0), 1.0);
  e["text_config"].erase("model_type");
  CHECK(rope_from_config(flat(e)).base == 1e6);
}

TEST_CASE("config: GLM-MoE-DSA and A.X K2: MLA rotary and the DSA indexer's own pair layout", "[config]") {
  // GlmMoeDsaConfig.__post_init__: head_dim = qk_rope_head_dim (a head_dim key is overwritten);
  // apply_rotary_pos_emb_interleave in the attention and in GlmMoeDsaIndexer (its first
  // qk_rope_head_dim dims of index_head_dim).
  json glm = load("glm-5.class-defaults.reconstructed.json");
  check_rotator(rope_from_config(flat(glm)), 64, 64, 10000.0, rope_layout::interleaved,
                hf_default(64, 10000.0), 1.0);
  check_rotator(rope_from_config(flat(glm), {.part = "indexer"}), 128, 64, 10000.0,
                rope_layout::interleaved, hf_default(64, 10000.0), 1.0);
  // AXK2Indexer: apply_rotary_pos_emb (rotate_half) on its 32 rope dims.
  json axk2 = load("a.x-k2.class-defaults.reconstructed.json");
  check_rotator(rope_from_config(flat(axk2)), 32, 32, 10000.0, rope_layout::interleaved,
                hf_default(32, 10000.0), 1.0);
  check_rotator(rope_from_config(flat(axk2), {.part = "indexer"}), 128, 32, 10000.0,
                rope_layout::half, hf_default(32, 10000.0), 1.0);
  // Every layer deepseek_sparse_attention (the class default), with RoPE.
  const posenc::model_info m = posenc::model_from_config(flat(glm));
  REQUIRE(m.layers.size() == 78);
  for (const auto& l : m.layers) {
    CHECK(l.attention == posenc::attention_kind::sparse);
    CHECK(l.rope.has_value());
  }
}

TEST_CASE("config: PaddleOCR-VL: Qwen2-VL's contiguous M-RoPE over the whole head", "[config]") {
  // PaddleOCRRotaryEmbedding (default ladder over head_dim, default_theta 500000) and
  // apply_multimodal_rotary_pos_emb (cos.split(mrope_section * 2), rotate_half).
  const json p = load("paddleocr-vl-1.5.reconstructed.json");
  const posenc::rope_config c = rope_from_config(flat(p));
  check_rotator(c, 128, 128, 500000.0, rope_layout::half, hf_default(128, 500000.0), 1.0);
  check_axes(c, posenc::rope_axes_kind::mrope, {16, 24, 24});
  json none = p;
  none["rope_scaling"].erase("mrope_section");  // rope_parameters["mrope_section"]: read unconditionally
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(none)); },
                                           "rope_scaling.mrope_section is required for paddleocr_vl");
}

TEST_CASE("config: Qwen3-Omni's talker: the thinker's interleaved M-RoPE over its own text_config", "[config]") {
  // Qwen3OmniMoeTalkerRotaryEmbedding(Qwen3OmniMoeThinkerTextRotaryEmbedding): whole head,
  // mrope_section default [24, 20, 20], interleaved; Qwen3OmniMoeTalkerTextConfig has no
  // default_theta of its own (10000).
  const json talker = {{"model_type", "qwen3_omni_moe_talker"},
                       {"text_config", {{"model_type", "qwen3_omni_moe_talker_text"}, {"hidden_size", 1024},
                                        {"num_attention_heads", 16}, {"head_dim", 128}}}};
  const posenc::rope_config c = rope_from_config(flat(talker));
  check_rotator(c, 128, 128, 10000.0, rope_layout::half, hf_default(128, 10000.0), 1.0);
  check_axes(c, posenc::rope_axes_kind::mrope_interleaved, {24, 20, 20});
}

namespace {

// Rotates one head row of x by rope_apply at the given positions ([axes][tokens]).
std::vector<float> rotated(const posenc::rope_config& c, std::vector<float> x,
                           const std::vector<std::int64_t>& positions, std::int64_t tokens,
                           posenc::direction dir = posenc::direction::forward) {
  const posenc::rotary_cache cache(c, 0, 64);
  posenc::rope_apply(cache, posenc::tensor_view::dense(x.data(), x.size(), tokens, 1, c.head_dim),
                     std::span<const std::int64_t>(positions), dir);
  return x;
}

double worst_gap(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
  return worst;
}

const std::vector<std::int64_t> kFar = {0, 1, 4095, 131071};

}  // namespace

TEST_CASE("config: nanochat turns each pair by -p·θ, as its rotate_half = cat((x2, -x1)) does", "[config]") {
  // NanoChatRotaryEmbedding: the default ladder over head_dim (hidden / heads), θ default 10000,
  // cos/sin of cat(freqs, freqs); apply_rotary_pos_emb: q·cos + rotate_half(q)·sin with
  // rotate_half(x) = cat((x2, -x1)), so out[i] = a cos + b sin, out[i + d/2] = b cos − a sin.
  const json n = load("nanochat.class-defaults.reconstructed.json");
  const posenc::rope_config c = rope_from_config(flat(n));
  check_rotator(c, 128, 128, 10000.0, rope_layout::half, hf_default(128, 10000.0), 1.0);
  CHECK(c.turn == posenc::direction::inverse);
  const int d = 128, h = 64;
  const std::vector<float> x = posenc::test::random_tensor(kFar.size() * d, 7);
  std::vector<double> want(x.size());
  const std::vector<double> theta = hf_default(d, 10000.0);
  for (std::size_t t = 0; t < kFar.size(); ++t)
    for (int i = 0; i < h; ++i) {
      const double angle = static_cast<double>(kFar[t]) * theta[i];
      const double a = x[t * d + i], b = x[t * d + i + h];
      want[t * d + i] = a * std::cos(angle) + b * std::sin(angle);
      want[t * d + i + h] = b * std::cos(angle) - a * std::sin(angle);
    }
  CHECK(worst_gap(rotated(c, x, kFar, 4), want) <= 2e-6);
  // The same rows turned forward (Llama's rotate_half) are a different rotation.
  posenc::rope_config forward = c;
  forward.turn = posenc::direction::forward;
  CHECK(worst_gap(rotated(forward, x, kFar, 4), want) > 0.1);
  // Its inverse undoes it; HF's cos/sin stay cos/sin(p·θ) (its rotary embedding's output).
  const std::vector<float> back = rotated(c, rotated(c, x, kFar, 4), kFar, 4, posenc::direction::inverse);
  CHECK(worst_gap(back, std::vector<double>(x.begin(), x.end())) <= 1e-6);
  const posenc::rotary_cache cache(c);
  std::vector<float> cos(d), sin(d);
  posenc::rope_cos_sin(cache, std::int64_t{1}, 1, cos, sin);
  CHECK(sin[0] == Approx(std::sin(1.0)).epsilon(1e-7));
  // rope_shift moves keys rotated at p to p + Δ in nanochat's sense.
  std::vector<float> k = rotated(c, x, {5, 5, 5, 5}, 4);
  posenc::rope_shift(cache, posenc::tensor_view::dense(k.data(), k.size(), 4, 1, d), 95);
  const std::vector<float> at100 = rotated(c, x, {100, 100, 100, 100}, 4);
  CHECK(worst_gap(k, std::vector<double>(at100.begin(), at100.end())) <= 2e-6);

  json v5 = n;  // as public converters write it; head_dim read when given
  v5["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 100000.0}};
  v5["head_dim"] = 64;
  const posenc::rope_config c5 = rope_from_config(flat(v5));
  check_rotator(c5, 64, 64, 100000.0, rope_layout::half, hf_default(64, 100000.0), 1.0);
  CHECK(c5.turn == posenc::direction::inverse);
  const posenc::model_info m = posenc::model_from_config(flat(n));
  CHECK(m.family == "nanochat");
  REQUIRE(m.layers.size() == 12);
  REQUIRE(m.encodings.size() == 1);
  CHECK(m.encodings[0].turn == posenc::direction::inverse);
  for (const posenc::layer_info& l : m.layers) CHECK(l.attention == posenc::attention_kind::full);
  CHECK(posenc::parse_direction(posenc::to_string(posenc::direction::inverse)) == posenc::direction::inverse);
  require_throws<posenc::invalid_argument>([] { (void)posenc::parse_direction("backward"); },
                                           "direction must be \"forward\" or \"inverse\"");
  // Taking Llama's rules on purpose keeps Llama's turn.
  CHECK(rope_from_config(flat(n), {.family = "llama"}).turn == posenc::direction::forward);
}

namespace {

// Ernie4_5_VLMoeTextRotaryEmbedding in float64: inv_freq_3d (the even then the odd rungs of
// the first h + w, then the last t), freqs per axis, recomposition_to_3d (chunk h from axis 1,
// w from axis 2, t from axis 0; h and w stacked; repeat_interleave(2)). → per token the
// angle of each of the d dims.
std::vector<double> ernie_angles(int d, double base, const std::array<int, 3>& hwt,
                                 const std::array<std::int64_t, 3>& thw) {
  const std::vector<double> inv = hf_default(d, base);
  const int hw = hwt[0] + hwt[1], half = d / 2;
  std::vector<double> inv3(static_cast<std::size_t>(half));
  for (int k = 0; k < hw / 2; ++k) inv3[k] = inv[2 * k], inv3[hw / 2 + k] = inv[2 * k + 1];
  for (int j = hw; j < half; ++j) inv3[j] = inv[j];
  auto freq = [&](int axis, int j) { return static_cast<double>(thw[axis]) * inv3[j]; };
  std::vector<double> hwt_row;  // freq_hwt
  for (int k = 0; k < hwt[0]; ++k) {
    hwt_row.push_back(freq(1, k));             // freq_h = split 0 of axis 1
    hwt_row.push_back(freq(2, hwt[0] + k));    // freq_w = split 1 of axis 2
  }
  for (int j = hw; j < half; ++j) hwt_row.push_back(freq(0, j));  // freq_t = split 2 of axis 0
  std::vector<double> out;
  for (double a : hwt_row) out.insert(out.end(), {a, a});  // repeat_interleave(2)
  return out;
}

}  // namespace

TEST_CASE("config: ERNIE 4.5 VL: h even / w odd rungs of the first h + w, t the rest, adjacent pairs", "[config]") {
  using posenc::rope_axes_kind;
  const json e = load("ernie-4.5-vl-28b-a3b.class-defaults.reconstructed.json");
  const posenc::rope_config c = rope_from_config(flat(e));
  check_rotator(c, 128, 128, 500000.0, rope_layout::interleaved, hf_default(128, 500000.0), 1.0);
  check_axes(c, rope_axes_kind::mrope_hw, {20, 22, 22});  // HF's (h, w, t) [22, 22, 20]
  const int d = 128;
  // Text tokens (t = h = w): the plain ernie4_5 rotary (Ernie4_5RotaryEmbedding), bit for bit.
  json text = e["text_config"];
  text["model_type"] = "ernie4_5";
  const posenc::rope_config plain = rope_from_config(flat(text));
  const std::vector<float> x = posenc::test::random_tensor(4 * d, 11);
  std::vector<std::int64_t> same;
  for (int a = 0; a < 3; ++a) same.insert(same.end(), kFar.begin(), kFar.end());
  CHECK(rotated(c, x, same, 4) == rotated(plain, x, kFar, 4));
  // 3-D positions: apply_rotary_pos_emb's q·cos + rotate_half_text(q)·sin, rotate_half_text =
  // stack((-x[1::2], x[0::2])): out[2k] = a cos − b sin, out[2k + 1] = b cos + a sin.
  const std::vector<std::array<std::int64_t, 3>> thw = {{7, 3, 5}, {4095, 0, 131071}, {0, 1000, 2}, {131071, 64, 4095}};
  std::vector<std::int64_t> ids(12);
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t a = 0; a < 3; ++a) ids[a * 4 + t] = thw[t][a];
  std::vector<double> want(x.size());
  for (std::size_t t = 0; t < 4; ++t) {
    const std::vector<double> ang = ernie_angles(d, 500000.0, {22, 22, 20}, thw[t]);
    for (int k = 0; k < d / 2; ++k) {
      const double a = x[t * d + 2 * k], b = x[t * d + 2 * k + 1];
      want[t * d + 2 * k] = a * std::cos(ang[2 * k]) - b * std::sin(ang[2 * k]);
      want[t * d + 2 * k + 1] = b * std::cos(ang[2 * k + 1]) + a * std::sin(ang[2 * k + 1]);
    }
  }
  CHECK(worst_gap(rotated(c, x, ids, 4), want) <= 2e-6);
  // HF's cos/sin of these tokens (after recomposition_to_3d).
  const posenc::rotary_cache cache(c);
  std::vector<float> cos(4 * d), sin(4 * d);
  posenc::rope_cos_sin(cache, std::span<const std::int64_t>(ids), cos, sin);
  for (std::size_t t = 0; t < 4; ++t) {
    const std::vector<double> ang = ernie_angles(d, 500000.0, {22, 22, 20}, thw[t]);
    for (int i = 0; i < d; ++i) {
      CHECK(std::fabs(cos[t * d + i] - std::cos(ang[i])) <= 4e-7);
      CHECK(std::fabs(sin[t * d + i] - std::sin(ang[i])) <= 4e-7);
    }
  }

  json other = e;  // a section of the config, read in HF's (h, w, t) order
  other["text_config"]["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 500000.0},
                                             {"mrope_section", {16, 16, 32}}};
  check_axes(rope_from_config(flat(other)), rope_axes_kind::mrope_hw, {32, 16, 16});
  const std::string key = "text_config.rope_parameters.mrope_section";
  for (const json& bad : {json{20, 24, 20}, json{32, 32, 0}}) {
    other["text_config"]["rope_parameters"]["mrope_section"] = bad;
    require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(other)); },
                                             key + " = [");
  }
  other["text_config"]["rope_parameters"]["mrope_section"] = {22, 22, 20};
  other["text_config"]["rope_parameters"]["mrope_interleaved"] = true;
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(other)); },
                                           "text_config.rope_parameters.mrope_interleaved = true is not read");
  other["text_config"]["rope_parameters"].erase("mrope_interleaved");
  other["text_config"]["rope_parameters"]["rope_type"] = "linear";  // "requires the `default` rope type"
  other["text_config"]["rope_parameters"]["factor"] = 2.0;
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(other)); },
                                           "text_config.rope_parameters.rope_type");
}

TEST_CASE("config: OpenAI Privacy Filter: interleaved yarn (truncate false), every layer a bidirectional window",
          "[config][stacks]") {
  // OpenAIPrivacyFilterConfig.__post_init__'s rope_parameters (yarn, factor 32, beta 32 / 1,
  // truncate False, original 4096) at default_theta 150000; _apply_rotary_emb pairs (2i, 2i+1);
  // create_bidirectional_sliding_window_mask: |i − j| ≤ sliding_window (128).
  const json pf = load("openai-privacy-filter.class-defaults.reconstructed.json");
  const auto [theta, attention] = hf_yarn(64, 150000.0, 32.0, 4096, 32, 1, 0, 0, false);
  check_rotator(rope_from_config(flat(pf)), 64, 64, 150000.0, rope_layout::interleaved, theta, attention);
  json given = pf;  // the converter's explicit dict reads the same
  given["rope_parameters"] = {{"rope_type", "yarn"}, {"rope_theta", 150000.0}, {"factor", 32.0},
                              {"beta_fast", 32.0}, {"beta_slow", 1.0}, {"truncate", false},
                              {"original_max_position_embeddings", 4096}};
  check_rotator(rope_from_config(flat(given)), 64, 64, 150000.0, rope_layout::interleaved, theta, attention);
  given["rope_parameters"].erase("rope_theta");  // standardize_rope_params: default_theta 150000
  check_rotator(rope_from_config(flat(given)), 64, 64, 150000.0, rope_layout::interleaved, theta, attention);
  const posenc::model_info m = posenc::model_from_config(flat(pf));
  REQUIRE(m.layers.size() == 8);
  REQUIRE(m.encodings.size() == 1);
  for (const posenc::layer_info& l : m.layers) {
    CHECK(l.attention == posenc::attention_kind::sliding);
    CHECK(l.bidirectional);
    CHECK(l.window == 129);  // 0 ≤ i − j < 129: the module's sliding_window + 1
    CHECK(l.lookahead == 128);
    CHECK(l.cross == posenc::cross_attention::none);
  }
  CHECK(rope_from_config(flat(pf), {.stack = "encoder"}).base == 150000.0);
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(pf), {.stack = "decoder"}); },
                                           "stack 'decoder': openai_privacy_filter has only an encoder");
  json none = pf;
  none["sliding_window"] = nullptr;  // the mask raises without one
  require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(none)); },
                                           "sliding_window is required");
}

TEST_CASE("config: T5Gemma: the stack picks encoder or decoder; encoder both ways, decoder cross-attends",
          "[config][stacks]") {
  // T5GemmaModuleConfig: Gemma 2's layers ((i + 1) % 2: sliding), default rotary at rope_theta;
  // T5GemmaEncoder: create_bidirectional_mask / create_bidirectional_sliding_window_mask;
  // T5GemmaDecoder: causal masks and a T5GemmaCrossAttention (no RoPE) per layer.
  const json t5 = load("t5gemma-2b-2b.reconstructed.json");
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(t5)); },
                                           "stack is required: 't5gemma' is an encoder-decoder config");
  for (const char* stack : {"encoder", "decoder"}) {
    CAPTURE(stack);
    const bool encoder = std::string(stack) == "encoder";
    check_rotator(rope_from_config(flat(t5), {.stack = stack}), 256, 256, 10000.0, rope_layout::half,
                  hf_default(256, 10000.0), 1.0);
    const posenc::model_info m = posenc::model_from_config(flat(t5), {.stack = stack});
    CHECK(m.family == "t5gemma");
    CHECK(m.model_type == "t5gemma");
    REQUIRE(m.layers.size() == 26);
    REQUIRE(m.encodings.size() == 1);
    for (const posenc::layer_info& l : m.layers) {
      const bool sliding = (l.index + 1) % 2 != 0;
      CHECK(l.attention == (sliding ? posenc::attention_kind::sliding : posenc::attention_kind::full));
      CHECK(l.rope == std::optional<std::size_t>(0));
      CHECK(l.bidirectional == encoder);
      CHECK(l.window == (!sliding ? std::optional<int>() : std::optional<int>(encoder ? 4097 : 4096)));
      CHECK(l.lookahead == (sliding && encoder ? std::optional<int>(4096) : std::optional<int>()));
      CHECK(l.cross == (encoder ? posenc::cross_attention::none : posenc::cross_attention::separate));
    }
  }
  // A sub-config alone is its own stack: T5GemmaModuleConfig.is_decoder (default false).
  const hf_config decoder = flat(t5["decoder"]), encoder = flat(t5["encoder"]);
  CHECK(posenc::model_from_config(decoder).layers[0].cross == posenc::cross_attention::separate);
  CHECK(posenc::model_from_config(encoder).layers[0].bidirectional);
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(encoder, {.stack = "decoder"}); },
                                           "stack 'decoder' contradicts is_decoder absent (false)");
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(t5), {.layer = 26, .stack = "encoder"}); },
      "layer must be in [0, 25] (the encoder's layers), got 26");
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(t5), {.tower = "vision", .stack = "encoder"}); },
      "stack names a text model's stack; tower must be 'text'");
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(t5), {.stack = "both"}); },
                                           "stack must be 'encoder' or 'decoder', got 'both'");
  json bad = t5;
  bad["decoder"] = 3;
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(bad), {.stack = "decoder"}); },
                                           "decoder must be an object or null");
  // Decoder-only models have one stack.
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(load("gemma-2-2b.json")), {.stack = "encoder"}); },
      "stack 'encoder': gemma2 has only a decoder");
  CHECK(rope_from_config(flat(load("gemma-2-2b.json")), {.stack = "decoder"}).head_dim == 256);
}

TEST_CASE("config: T5Gemma 2: Gemma 3's per-type rotaries, a split encoder window, merged cross-attention",
          "[config][stacks]") {
  // T5Gemma2TextConfig / T5Gemma2DecoderConfig: rope_parameters per layer type (full linear ×8
  // at θ 1e6, sliding default at 1e4); T5Gemma2TextEncoder's sliding_window_mask_function(512,
  // is_causal=False): 0 ≤ i − j < 256 and 0 < j − i < 257; T5Gemma2MergedAttention: the encoder's
  // keys (no RoPE) joined to the self-attention keys, queries rotated.
  const json t5 = load("t5gemma-2-270m-270m.reconstructed.json");
  std::vector<double> full = hf_default(256, 1e6);
  for (double& f : full) f /= 8.0;  // _compute_linear_scaling_rope_parameters
  for (const char* stack : {"encoder", "decoder"}) {
    CAPTURE(stack);
    const bool encoder = std::string(stack) == "encoder";
    const posenc::model_info m = posenc::model_from_config(flat(t5), {.stack = stack});
    CHECK(m.family == "t5gemma2");
    REQUIRE(m.layers.size() == 18);
    REQUIRE(m.encodings.size() == 2);
    for (const posenc::layer_info& l : m.layers) {
      const bool sliding = (l.index + 1) % 6 != 0;
      CHECK(l.attention == (sliding ? posenc::attention_kind::sliding : posenc::attention_kind::full));
      CHECK(l.bidirectional == encoder);
      CHECK(l.window == (!sliding ? std::optional<int>() : std::optional<int>(encoder ? 256 : 512)));
      CHECK(l.lookahead == (sliding && encoder ? std::optional<int>(256) : std::optional<int>()));
      CHECK(l.cross == (encoder ? posenc::cross_attention::none : posenc::cross_attention::merged));
      check_rotator(m.encodings[*l.rope], 256, 256, sliding ? 1e4 : 1e6, rope_layout::half,
                    sliding ? hf_default(256, 1e4) : full, 1.0);
    }
  }
  // Sub-configs name their stack: the encoder's (its text_config) and the decoder's.
  const hf_config enc = flat(t5["encoder"]), dec = flat(t5["decoder"]), text = flat(t5["encoder"]["text_config"]);
  CHECK(posenc::model_from_config(enc).layers[0].bidirectional);
  CHECK(posenc::model_from_config(text).layers[0].lookahead == 256);
  CHECK(posenc::model_from_config(dec).layers[0].cross == posenc::cross_attention::merged);
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(enc, {.stack = "decoder"}); },
                                           "stack 'decoder' contradicts model_type 't5gemma2_text'");
  // Without encoder.text_config the class's defaults: θ 1e6 / 1e4, pattern 6 (num_hidden_layers read).
  json bare = {{"model_type", "t5gemma2"}, {"encoder", {{"text_config", {{"num_hidden_layers", 6}}}}}};
  const posenc::model_info b = posenc::model_from_config(flat(bare), {.stack = "encoder"});
  REQUIRE(b.layers.size() == 6);
  CHECK(b.encodings[*b.layers[5].rope].base == 1e6);
  CHECK(b.layers[0].window == 2048);  // (4096 + 1) // 2
}

// ── DeepSeek-V4 (models/deepseek_v4, transformers c49429ed) ────────────────────────────

namespace {

// DeepseekV4RotaryEmbedding.forward's cos / sin (one entry per interleaved pair), expanded by
// apply_rotary_pos_emb's repeat_interleave(2), in float64, against the rotator's HF-shaped rows.
void check_v4_cos_sin(const posenc::rope_config& config, const std::vector<double>& theta) {
  const posenc::rotary_cache cache(config);
  const std::vector<std::int64_t> positions = {0, 1, 127, 128, 4095, 65535, 131071};
  const std::size_t r = static_cast<std::size_t>(config.rotary_dim);
  std::vector<float> cos(positions.size() * r), sin(cos.size());
  posenc::rope_cos_sin(cache, positions, cos, sin);
  double worst = 0;
  for (std::size_t t = 0; t < positions.size(); ++t)
    for (std::size_t i = 0; i < r; ++i) {
      const double angle = static_cast<double>(positions[t]) * theta[i / 2];
      worst = std::max({worst, std::fabs(cos[t * r + i] - std::cos(angle)),
                        std::fabs(sin[t * r + i] - std::sin(angle))});
    }
  CAPTURE(worst);
  CHECK(worst <= 4e-7);
}

}  // namespace

TEST_CASE("config deepseek_v4: 'main' and 'compress' rotaries on the trailing 64 of 512 dims, interleaved",
          "[config]") {
  const json v4 = load("deepseek-v4-flash.class-defaults.reconstructed.json");
  // DeepseekV4Config.__post_init__: main = default at rope_theta; compress = the rope_scaling
  // (yarn, factor 16, original 65536) at compress_rope_theta with attention_factor 1.
  const std::vector<double> main_theta = hf_default(64, 10000.0);
  const auto [compress_theta, yarn_attention] = hf_yarn(64, 160000.0, 16.0, 65536, 32, 1, 0, 0);
  CHECK(yarn_attention != 1.0);  // what the class's attention_factor = 1 replaces
  const posenc::rope_config main = rope_from_config(flat(v4), {.layer_type = "sliding_attention"});
  check_rotator(main, 64, 64, 10000.0, rope_layout::interleaved, main_theta, 1.0);
  check_v4_cos_sin(main, main_theta);
  for (const char* t : {"compressed_sparse_attention", "heavily_compressed_attention"}) {
    const posenc::rope_config compress = rope_from_config(flat(v4), {.layer_type = t});
    check_rotator(compress, 64, 64, 160000.0, rope_layout::interleaved, compress_theta, 1.0);
    check_v4_cos_sin(compress, compress_theta);
  }
  // DeepseekV4Indexer: the 'compress' rotary on the trailing 64 of its index_head_dim = 128.
  const posenc::rope_config indexer = rope_from_config(flat(v4), {.layer_type = "compressed_sparse_attention", .part = "indexer"});
  check_rotator(indexer, 64, 64, 160000.0, rope_layout::interleaved, compress_theta, 1.0);
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(v4), {.layer_type = "heavily_compressed_attention", .part = "indexer"}); },
      "part 'indexer': only deepseek_v4's compressed_sparse_attention layers have an indexer");
  // V4 has no full-attention layer: the default layer type is refused naming it.
  require_throws<posenc::invalid_argument>([&] { (void)rope_from_config(flat(v4)); },
                                           "layer_type 'full_attention' is not a layer type of deepseek_v4");
  // Another family refuses V4's names.
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(load("deepseek-v3.json")), {.layer_type = "heavily_compressed_attention"}); },
      "layer_type 'heavily_compressed_attention' is not a layer type of deepseek");
}

TEST_CASE("config deepseek_v4: the layer map — class default pattern, compress rates, slices, de-rotation",
          "[config]") {
  const json v4 = load("deepseek-v4-flash.class-defaults.reconstructed.json");
  const posenc::model_info m = posenc::model_from_config(flat(v4));
  CHECK(m.family == "deepseek_v4");
  REQUIRE(m.layers.size() == 43);
  REQUIRE(m.encodings.size() == 1);  // no sliding_attention layer in the class default
  for (const posenc::layer_info& l : m.layers) {
    // __post_init__: ["heavily_compressed_attention"] * 2, then CSA if i % 2 else HCA over n - 2.
    const bool hca = l.index < 2 || (l.index - 2) % 2 == 0;
    CAPTURE(l.index);
    CHECK(l.attention == (hca ? posenc::attention_kind::heavily_compressed
                              : posenc::attention_kind::compressed_sparse));
    CHECK(l.rope == std::optional<std::size_t>(0));
    CHECK(l.window == std::optional<int>(128));
    REQUIRE(l.compressed.has_value());
    CHECK(l.compressed->rate == (hca ? 128 : 4));
    REQUIRE(l.slice.has_value());
    CHECK((l.slice->head == 512 && l.slice->offset == 448));
    CHECK(l.output_inverse);
    CHECK(l.indexer.has_value() == !hca);
    if (!hca) CHECK((l.indexer->head == 128 && l.indexer->offset == 64));
  }
  CHECK(posenc::to_string(posenc::attention_kind::compressed_sparse) == "compressed_sparse");
  CHECK(posenc::to_string(posenc::attention_kind::heavily_compressed) == "heavily_compressed");

  // Legacy keys, folded as __post_init__ does: compress_ratios (cut to the layer count),
  // compress_rate_csa / _hca, qk_rope_head_dim → partial_rotary_factor.
  json legacy = v4;
  legacy["num_hidden_layers"] = 4;
  legacy["compress_ratios"] = {0, 4, 128, 0, 4};  // one more entry: the MTP layer
  legacy["compress_rate_csa"] = 8;
  legacy["qk_rope_head_dim"] = 32;
  const posenc::model_info l4 = posenc::model_from_config(flat(legacy));
  REQUIRE(l4.layers.size() == 4);
  REQUIRE(l4.encodings.size() == 2);
  CHECK(l4.layers[0].attention == posenc::attention_kind::sliding);
  CHECK_FALSE(l4.layers[0].compressed.has_value());
  CHECK(l4.layers[1].compressed->rate == 8);
  CHECK(l4.layers[2].compressed->rate == 128);
  CHECK(l4.layers[0].rope != l4.layers[1].rope);
  CHECK(l4.layers[1].rope == l4.layers[2].rope);
  CHECK((l4.layers[0].slice->offset == 480 && l4.layers[1].indexer->offset == 96));
  const posenc::rope_config sliding = l4.encodings[*l4.layers[0].rope];
  check_rotator(sliding, 32, 32, 10000.0, rope_layout::interleaved, hf_default(32, 10000.0), 1.0);
  const auto [theta32, a32] = hf_yarn(32, 160000.0, 16.0, 65536, 32, 1, 0, 0);
  check_rotator(l4.encodings[*l4.layers[1].rope], 32, 32, 160000.0, rope_layout::interleaved, theta32, 1.0);
  CHECK(a32 != 1.0);
  // layer 3 via layer: the same rotary as the sliding layer.
  check_rotator(rope_from_config(flat(legacy), {.layer = 3}), 32, 32, 10000.0,
                rope_layout::interleaved, hf_default(32, 10000.0), 1.0);

  // Bad or null values are refused by name.
  auto refused = [&](const std::function<void(json&)>& edit, const std::string& needle) {
    json c = legacy;
    edit(c);
    require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(c)); }, needle);
  };
  refused([](json& c) { c["compress_ratios"] = {0, 4, 64, 0}; }, "compress_ratios[2] = 64 is not a ratio");
  refused([](json& c) { c["compress_ratios"] = {0, 4, 128}; }, "compress_ratios must hold a ratio per layer (at least 4), got 3");
  refused([](json& c) { c["compress_rate_hca"] = 0; }, "compress_rate_hca must be an integer in [1,");
  refused([](json& c) { c["compress_rope_theta"] = nullptr; }, "compress_rope_theta is null");
  refused([](json& c) { c["rope_theta"] = nullptr; }, "rope_theta is null");
  refused([](json& c) { c["partial_rotary_factor"] = 0.5; }, "qk_rope_head_dim = 32 is not read by deepseek_v4");
  refused([](json& c) { c["compress_rates"] = {{"sliding_attention", 4}}; }, "compress_rates.sliding_attention is not a compressed layer type");
  refused([](json& c) { c["layer_types"] = {"sliding_attention", "full_attention", "sliding_attention", "sliding_attention"}; },
          "layer_types[1] = 'full_attention' is not a layer type of deepseek_v4");
  refused([](json& c) { c["rope_scaling"]["attention_factor"] = 1.25; },
          "rope_parameters.compress.attention_factor must be 1 for deepseek_v4");
  refused([](json& c) { c["rope_scaling"]["factor"] = "16"; }, "rope_parameters.compress.factor must be a number");
  // Nulls transformers reads as absent: the legacy keys (kwargs.pop(…, None)).
  json nulls = legacy;
  nulls["qk_rope_head_dim"] = nullptr;
  nulls["compress_rate_csa"] = nullptr;
  const posenc::model_info n4 = posenc::model_from_config(flat(nulls));
  CHECK((n4.layers[1].compressed->rate == 4 && n4.layers[0].slice->offset == 448));

  // Nested rope_parameters (main / compress) are taken as given; yarn without attention_factor
  // then scales cos/sin by 0.1·ln(16) + 1, which the output de-rotation cannot undo: refused.
  json nested = v4;
  nested.erase("rope_scaling");
  nested["rope_parameters"] = {{"main", {{"rope_type", "default"}, {"rope_theta", 10000.0}, {"partial_rotary_factor", 0.125}}},
                               {"compress", {{"rope_type", "default"}, {"rope_theta", 40000.0}, {"partial_rotary_factor", 0.125}}}};
  check_rotator(rope_from_config(flat(nested), {.layer_type = "heavily_compressed_attention"}), 64, 64,
                40000.0, rope_layout::interleaved, hf_default(64, 40000.0), 1.0);
  // standardize_rope_params overwrites a dict's own factor in some rotaries only: refused unless
  // it is the class's (here qk_rope_head_dim / head_dim = 0.125).
  json own_factor = nested;
  own_factor["rope_parameters"]["main"]["partial_rotary_factor"] = 0.25;
  require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(own_factor)); },
                                           "rope_parameters.main.partial_rotary_factor differs from the class's partial_rotary_factor = 0.125");
  own_factor["rope_parameters"]["main"].erase("partial_rotary_factor");
  require_throws<posenc::invalid_argument>([&] { (void)posenc::model_from_config(flat(own_factor)); },
                                           "rope_parameters.main.partial_rotary_factor is missing");
  json empty = nested;  // an empty rope_scaling is falsy: `rope_scaling or rope_parameters`
  empty["rope_scaling"] = json::object();
  check_rotator(rope_from_config(flat(empty), {.layer_type = "heavily_compressed_attention"}), 64, 64,
                40000.0, rope_layout::interleaved, hf_default(64, 40000.0), 1.0);
  // A nested yarn dict without original_max_position_embeddings takes max_position_embeddings
  // (Case 2 of standardize_rope_params), not a top-level original_max_position_embeddings.
  json nested_yarn = nested;
  nested_yarn["rope_parameters"]["compress"] = {{"rope_type", "yarn"}, {"factor", 16}, {"attention_factor", 1},
                                                {"partial_rotary_factor", 0.125}, {"rope_theta", 160000.0}};
  nested_yarn["original_max_position_embeddings"] = 4096;
  const auto [theta_max, a_max] = hf_yarn(64, 160000.0, 16.0, 1048576, 32, 1, 0, 0);
  check_rotator(rope_from_config(flat(nested_yarn), {.layer_type = "heavily_compressed_attention"}), 64, 64,
                160000.0, rope_layout::interleaved, theta_max, 1.0);
  CHECK(a_max != 1.0);
  nested["rope_parameters"]["compress"] = {{"rope_type", "yarn"}, {"factor", 16}, {"original_max_position_embeddings", 65536},
                                           {"partial_rotary_factor", 0.125}};
  require_throws<posenc::invalid_argument>(
      [&] { (void)rope_from_config(flat(nested), {.layer_type = "heavily_compressed_attention"}); },
      "rope_parameters.compress.attention_factor must be 1");
}

TEST_CASE("config deepseek_v4: compressed keys at w · rate, seen by queries with w < (p + 1) // rate",
          "[config]") {
  // DeepseekV4HCACompressor / DeepseekV4Indexer: positions = arange(n) * compress_rate +
  // first_window_position; causal_threshold = (position_ids + 1) // compress_rate.
  for (int rate : {1, 4, 128}) {
    const posenc::compressed_keys keys{rate};
    for (std::int64_t p : {0, 2, 3, 4, 7, 127, 128, 131071}) {
      std::int64_t seen = 0;
      while ((seen + 1) * rate <= p + 1) ++seen;  // the entries w with w < threshold
      CHECK(posenc::compressed_keys_seen(keys, p) == seen);
    }
    CHECK(posenc::compressed_key_position(keys, 0) == 0);
    CHECK(posenc::compressed_key_position(keys, 1023) == 1023 * rate);
  }
  require_throws<posenc::invalid_argument>([] { (void)posenc::compressed_keys_seen({0}, 1); }, "rate must be ≥ 1");
  require_throws<posenc::invalid_argument>([] { (void)posenc::compressed_keys_seen({4}, -1); }, "position must be in");
  require_throws<posenc::invalid_argument>([] { (void)posenc::compressed_key_position({4}, -1); }, "index must be in");
}
