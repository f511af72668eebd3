// test_config_families.cpp — the family table (core/src/config_families.hpp): its invariants,
// the README's conventions table (generated here from the rows and compared with the text
// between <!-- families:begin --> and <!-- families:end -->), and model_from_config's layer
// maps and the new ladders against HF transformers' formulas in float64
// (_compute_llama3_parameters with Llama 4's equal factors, _compute_proportional_rope_parameters,
// HunYuanDenseV1RotaryEmbedding's NTK-α, Llama4TextAttention's query temperature).
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include "config_families.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#ifndef POSENC_FIXTURES_DIR
#error "POSENC_FIXTURES_DIR must name the tests/fixtures directory"
#endif

namespace {

using posenc::detail::family;
using posenc::detail::kFamilies;

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string head_text(const family& f) {
  const auto& h = f.head;
  std::string out;
  if (!h.full_key.empty())
    out = "`" + std::string(h.full_key) + "` (full layers, else " + std::to_string(h.full_fallback) + "); ";
  const std::string derived = (h.hidden_mult != 1 ? std::to_string(h.hidden_mult) + " · " : "") + "`" +
                              std::string(h.hidden) + "` / `" + std::string(h.heads) + "`";
  if (h.key.empty()) return out + derived;
  out += "`" + std::string(h.key) + "`";
  if (!h.fallback && h.hidden.empty()) return out + " (required)";
  return out + ", else " + (h.fallback ? std::to_string(h.fallback) : derived);
}

std::string rotary_text(const family& f) {
  const auto& r = f.rotary;
  if (!r.dim_key.empty()) return "`" + std::string(r.dim_key) + "` (else " + std::to_string(r.dim_fallback) + ")";
  if (r.factor_fixed) return "head · " + number(r.factor_fallback) + " (fixed)";
  if (r.factor_ignored) return "whole head (`partial_rotary_factor` is not read)";
  if (!r.nope_key.empty())
    return "the head: int((`" + std::string(r.nope_key) + "` + head) · `partial_rotary_factor`) must equal it";
  std::string factor = "`partial_rotary_factor`";
  if (!r.factor_alias.empty()) factor += " or `" + std::string(r.factor_alias) + "`";
  std::string out = "head · " + factor + " (else " + number(r.factor_fallback) + ")";
  if (r.default_full_head) out = f.scalable ? "whole head (default type); scaled types: " + out : "whole head";
  return out;
}

std::string base_text(const family& f) {
  const auto& b = f.base;
  if (b.fixed) return b.ratio_key.empty() ? "10000 (fixed)" : "10000 · `" + std::string(b.ratio_key) + "`";
  std::string out = number(b.fallback);
  if (!b.alias.empty()) out += " (`" + std::string(b.alias) + "`)";
  if (!b.local_key.empty()) out += "; sliding: `" + std::string(b.local_key) + "` (else " + number(b.local_fallback) + ")";
  return out;
}

// The class's per-layer-type rope_parameters when the config has none.
std::string defaults_text(const family& f) {
  std::string out = "class default";
  for (const auto& d : f.rope_defaults) {
    if (d.layer_type.empty()) continue;
    const std::string_view name =
        d.layer_type.ends_with("_attention") ? d.layer_type.substr(0, d.layer_type.find('_')) : d.layer_type;
    out += (out.size() > 13 ? ", " : " ") + std::string(name) + " " +
           std::string(d.rope_type) + " θ " +
           (d.theta_key.empty() ? "" : "`" + std::string(d.theta_key) + "` (else ") + number(d.theta) +
           (d.theta_key.empty() ? "" : ")");
    if (d.partial > 0) out += " p " + number(d.partial);
  }
  return out;
}

std::string layers_text(const family& f) {
  using posenc::detail::query_rule;
  using posenc::detail::rope_where;
  using posenc::detail::sliding_rule;
  const auto& l = f.layers;
  std::vector<std::string> parts;
  switch (l.sliding) {
    case sliding_rule::none: break;
    case sliding_rule::everywhere: parts.push_back("all sliding when `sliding_window` is set"); break;
    case sliding_rule::qwen: parts.push_back("sliding from `max_window_layers` when `use_sliding_window`"); break;
    case sliding_rule::period:
      if (l.period_from_last) {
        parts.push_back("full when (n - 1 - i) % " + std::to_string(l.period) + " == 0, else sliding");
        break;
      }
      if (l.period_from_first) {
        parts.push_back("full when i % " + std::to_string(l.period) + " == 0, else sliding");
        break;
      }
      parts.push_back("sliding except every " +
                      (l.period_key.empty() ? std::to_string(l.period)
                                            : "`" + std::string(l.period_key) + "` (" + std::to_string(l.period) + ")") +
                      "-th" + (l.first_full ? ", first full" : "") + (l.last_full ? ", last full" : ""));
      break;
    case sliding_rule::nope: parts.push_back("no-RoPE layers slide when `use_sliding_window`"); break;
    case sliding_rule::always: parts.push_back("every layer sliding (`sliding_window` required)"); break;
  }
  const auto& st = f.stacks;
  const std::string reach = st.window == posenc::detail::encoder_window::split
                                ? "(w + 1) // 2 keys at or before, w // 2 after"
                                : "distance ≤ w both ways";
  if (st.encoder_only)
    parts.push_back(std::string("encoder only: every layer bidirectional") +
                    (l.sliding == sliding_rule::none ? "" : ", window " + reach));
  if (st.canvas_decoder)
    parts.push_back("`stack` 'encoder' and 'decoder' both read `" + std::string(st.encoder) + "`: the encoder (the "
                    "prompt) causal; the decoder (the canvas) bidirectional over the cached prompt keys and the "
                    "canvas, its sliding layers refused (bounded per canvas block)");
  else if (!st.wrapper.empty())
    parts.push_back("`stack` 'encoder' (`" + std::string(st.encoder) + "`…): bidirectional, window " + reach +
                    "; 'decoder' (`" + std::string(st.decoder) + "`…): causal, a " +
                    std::string(posenc::to_string(st.cross)) + " cross-attention without RoPE per layer");
  if (!l.rope_flags.empty())
    parts.push_back("RoPE per `" + std::string(l.rope_flags) + "` (1 = RoPE; default every " +
                    std::to_string(l.rope_interval) + "-th without)");
  if (l.rope == rope_where::sliding) parts.push_back("RoPE on sliding layers only");
  if (l.rope == rope_where::sliding_if_window) parts.push_back("RoPE on sliding layers only, when windowed");
  if (!l.cross_layers.empty()) parts.push_back("`" + std::string(l.cross_layers) + "`: cross, no RoPE");
  if (!l.adapter_key.empty()) {
    const std::string key = "`" + std::string(l.adapter_key) + "` (else " + std::to_string(l.adapter_fallback) + ")";
    parts.push_back("a separate cross-attention without RoPE at layer i when " +
                    (l.adapter_offset ? "(i + " + std::to_string(l.adapter_offset) + ")" : std::string("i")) +
                    " % " + (l.adapter_count ? "max(n // " + key + ", 1)" : key) + " == 0");
  }
  if (!l.bidirectional_key.empty())
    parts.push_back("`" + std::string(l.bidirectional_key) + "` 'all': every layer bidirectional, sliding window "
                    "(w // 2) + 1, distance ≤ it both ways");
  if (!l.theta_list.empty() && !l.theta_flags)
    parts.push_back("θ per layer from `" + std::string(l.theta_list) + "` (0 = no RoPE)");
  if (l.theta_flags)
    parts.push_back("`" + std::string(l.theta_list) + "`: 0 = no RoPE, else RoPE at `rope_theta` (another θ refused); "
                    "without it no RoPE where (n - 1 - i) % " + std::to_string(l.nope_from_last) + " == 0");
  if (l.rope_lists)
    parts.push_back("`rope_theta` (number or per-layer list) and `partial_rotary_factors` per layer, one rope dict "
                    "per layer type (its layers must agree); `rope_scaling` on full layers; lists cut by "
                    "`num_nextn_predict_layers`; `layer_types` else all full");
  if (l.rope_layers_chunked) parts.push_back("RoPE layers chunked (`attention_chunk_size`)");
  if (l.scaling_full_only) parts.push_back("scaling on full layers only");
  if (l.query == query_rule::llama4) parts.push_back("query scale on no-RoPE layers");
  if (l.query == query_rule::ministral3) parts.push_back("query scale on every layer");
  if (l.query == query_rule::mistral4) parts.push_back("query scale on every layer (`llama_4_scaling_beta` required)");
  if (!f.rope_dict.rope_type.empty())
    parts.push_back("class default " + std::string(f.rope_dict.rope_type) + " θ " + number(f.rope_dict.theta) +
                    " factor " + number(f.rope_dict.factor) + " original " + number(f.rope_dict.original) +
                    (f.rope_dict.low_freq > 0 ? " low / high freq factor " + number(f.rope_dict.low_freq) +
                                                    " / " + number(f.rope_dict.high_freq)
                                              : std::string()));
  if (l.full_every > 0)
    parts.push_back("without `layer_types` every " + std::to_string(l.full_every) +
                    "-th layer full, the rest linear attention (no attention)");
  if (l.null_theta_nope) parts.push_back("no RoPE on any layer when `rope_theta` is null");
  if (!l.rope_flag.empty()) parts.push_back("RoPE only when `" + std::string(l.rope_flag) + "`");
  if (l.hybrid_full) parts.push_back("`hybrid` blocks: full attention");
  if (!l.block_key.empty())
    parts.push_back("layer i: `" + std::string(l.block_key) + "`[i % n] (else recurrent, recurrent, attention); "
                    "recurrent: linear (no attention); attention: sliding, window `" + std::string(l.window_key) +
                    "` (else " + std::to_string(l.window_fallback) + ")");
  if (!f.scalable) parts.push_back("no rope scaling");
  if (!f.long_context_key.empty())
    parts.push_back("`" + std::string(f.long_context_key) + "`: max_position_embeddings 16384");
  if (l.null_type_nope) parts.push_back("one `rope_parameters` dict per layer type, null: that type without RoPE");
  if (!l.window_half_key.empty())
    parts.push_back("window `" + std::string(l.window_half_key) + "` // 2 (else " + std::to_string(l.window_fallback / 2) + ")");
  if (!f.type_names[0].name.empty()) {
    std::string names;
    for (const auto& a : f.type_names)
      names += (names.empty() ? "`" : ", `") + std::string(a.name) + "` (" +
               std::string(a.as.ends_with("sparse_attention") ? "sparse" : a.as.substr(0, a.as.find('_'))) + ")";
    parts.push_back("layer types " + names + " only");
  }
  if (!f.rope_defaults[0].layer_type.empty()) parts.push_back("per-layer-type `rope_parameters` only; " + defaults_text(f));
  if (!l.attention_indices.empty())
    parts.push_back("full attention at `" + std::string(l.attention_indices) + "`, the rest Mamba (linear, no attention)");
  if (!l.block_pattern.empty())
    parts.push_back("`layer_types`, else `" + std::string(l.block_pattern) + "` (M Mamba, E MoE, - MLP: no attention; * attention)");
  if (l.linear_every == 1) parts.push_back("without `layer_types` every layer Mamba (linear, no attention)");
  if (l.linear_every > 1)
    parts.push_back("every " + std::to_string(l.linear_every) + "-th layer linear attention (no attention)");
  if (l.legacy_types) parts.push_back("legacy `mamba` / `attention` layer types");
  if (!l.unread_list.empty()) parts.push_back("`" + std::string(l.unread_list) + "` without `layer_types`: refused");
  if (l.dense_prefix)
    parts.push_back("`first_k_dense_replace` dense layers: own pattern (`prefix_dense_sliding_window_pattern`), RoPE when it is 1");
  if (l.rope == rope_where::nowhere) parts.push_back("no RoPE on any layer");
  if (!l.rope_switch.empty())
    parts.push_back("RoPE only when `" + std::string(l.rope_switch) + "` is '" +
                    std::string(l.rope_switch_value) + "'");
  for (const auto& flag : f.refused_flags)
    if (!flag.key.empty()) parts.push_back("`" + std::string(flag.key) + "` true refused");
  if (f.rotary.factor_forced) parts.push_back("top-level `partial_rotary_factor` replaced by the class");
  if (l.needs_layer_types && l.block_pattern.empty()) parts.push_back("`layer_types` required (linear / conv blocks: no attention)");
  if (const auto& k = f.compress; !k.rates_key.empty()) {
    std::string types;
    for (const auto& t : k.types)
      types += ", `" + std::string(t.name) + "` (" + std::string(posenc::to_string(t.kind)) + ", `" +
               std::string(k.rates_key) + "` else " + std::to_string(t.rate) + ", legacy `" +
               std::string(t.legacy_key) + "`)";
    parts.push_back("layer types `" + std::string(k.sliding_name) + "` (sliding, rope '" +
                    std::string(k.main_label) + "': `rope_theta`)" + types + " only, compressed ones "
                    "with rope '" + std::string(k.compress_label) + "' (`" + std::string(k.theta_key) +
                    "` else " + number(k.theta_fallback) + ", the rope scaling, yarn attention factor 1); "
                    "every layer sliding (`sliding_window`, else " + std::to_string(f.layers.window_fallback) +
                    "); the rotary on the trailing dims of the head, the output de-rotated; without "
                    "`layer_types`: legacy `" + std::string(k.ratios_key) + "` (0 / " +
                    std::to_string(k.types[0].legacy_ratio) + " / " + std::to_string(k.types[1].legacy_ratio) +
                    "), else two `" + std::string(k.types[1].name) + "` then alternating; legacy `" +
                    std::string(k.rope_dim_key) + "` = head · factor");
  }
  if (!f.indexer_dim.empty())
    parts.push_back("indexer: `" + std::string(f.indexer_dim) + "`" +
                    (f.indexer_alias.empty() ? "" : " (`" + std::string(f.indexer_alias) + "` wins)") +
                    (f.indexer_fallback ? ", else " + std::to_string(f.indexer_fallback) : "") + ", " +
                    (f.indexer_layout == posenc::rope_layout::half ? "half" : "interleaved") +
                    (f.indexer_slices ? ", the layer's rotary dims (cos[..., :width])" : ""));
  if (!l.type_flags.empty())
    parts.push_back("without `layer_types`: `" + std::string(l.type_flags) + "` (1: `" +
                    std::string(f.type_names[1].name) + "`)");
  if (!f.no_rope_flag.empty()) parts.push_back("no RoPE (ALiBi) when `" + std::string(f.no_rope_flag) + "`: refused");
  if (!f.alpha_key.empty()) parts.push_back("dynamic NTK-α (`" + std::string(f.alpha_key) + "`)");
  if (f.mrope == posenc::detail::mrope_rule::glm)
    parts.push_back("M-RoPE: 3 contiguous `mrope_section` chunks (t, h, w; default [8, 12, 12])");
  if (f.mrope == posenc::detail::mrope_rule::hw)
    parts.push_back("M-RoPE 'hw': `mrope_section` (h, w, t; default [22, 22, 20]): h the even, w the odd "
                    "rungs of the first h + w, t the rest");
  if (!l.default_type.empty()) parts.push_back("without `layer_types` every layer `" + std::string(l.default_type) + "`");
  if (f.own_text_model) parts.push_back("the wrapper's own text model, whatever `text_config.model_type` names");
  if (parts.empty()) return "every layer full attention, RoPE";
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// The README's conventions table, one row per family.
std::string families_table() {
  std::string out =
      "| family | `model_type` | models that ship it | layout | head dim | rotary dims | default θ | layers |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const family& f : kFamilies) {
    std::string types;
    for (std::string_view t : f.model_types)
      if (!t.empty()) types += (types.empty() ? "`" : ", `") + std::string(t) + "`";
    std::string layout = f.layout == posenc::rope_layout::half ? "half" : "interleaved";
    if (!f.layout_flag.empty()) layout += " (`" + std::string(f.layout_flag) + "`)";
    if (f.turn == posenc::direction::inverse) layout += ", turned by −p·θ (direction inverse)";
    out += "| " + std::string(f.name) + " | " + types + " | " + std::string(f.models) + " | " + layout +
           " | " + head_text(f) + " | " + rotary_text(f) + " | " + base_text(f) + " | " + layers_text(f) + " |\n";
  }
  return out;
}

// The README's table of model_types refused by name, one row per refusal.
std::string refusals_table() {
  std::string out = "| `model_type` | why posenc refuses it | source |\n|---|---|---|\n";
  for (const posenc::detail::refusal& r : posenc::detail::kRefusals) {
    std::string types;
    for (std::string_view t : r.model_types)
      if (!t.empty()) types += (types.empty() ? "`" : ", `") + std::string(t) + "`";
    out += "| " + types + " | " + std::string(r.why) + " | " + std::string(r.source) + " |\n";
  }
  return out;
}

std::string readme_between(const std::string& name) {
  std::ifstream in(std::string(POSENC_FIXTURES_DIR) + "/../../README.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const std::string begin = "<!-- " + name + ":begin -->\n", end = "<!-- " + name + ":end -->";
  const std::size_t a = readme.find(begin), b = readme.find(end);
  if (a == std::string::npos || b == std::string::npos || b < a) return "(markers missing)";
  return readme.substr(a + begin.size(), b - a - begin.size());
}

}  // namespace

TEST_CASE("config families: README's refusals table is the refusal table, and each refusal is raised",
          "[config][families]") {
  const std::string want = refusals_table();
  if (readme_between("refusals") != want) std::ofstream("refusals-table.md") << want;
  INFO("README.md between the refusals markers should read refusals-table.md");
  CHECK(readme_between("refusals") == want);
  for (const posenc::detail::refusal& r : posenc::detail::kRefusals)
    for (std::string_view t : r.model_types) {
      if (t.empty()) continue;
      posenc::hf_config c;
      c["model_type"] = posenc::config_value::of_text(std::string(t));
      c["hidden_size"] = posenc::config_value::of(4096);
      c["num_attention_heads"] = posenc::config_value::of(32);
      posenc::test::require_throws<posenc::invalid_argument>(
          [&] { (void)posenc::rope_from_config(c); }, "model_type = '" + std::string(t) + "' is refused: " + std::string(r.why));
      CHECK(posenc::rope_from_config(c, {.family = "llama"}).head_dim == 128);
    }
}

TEST_CASE("config families: the family table's invariants hold", "[config][families]") {
  CHECK(posenc::detail::table_is_consistent());
  CHECK(std::size(kFamilies) >= 30);
}

TEST_CASE("config families: README's conventions table is the family table", "[config][families]") {
  std::ifstream in(std::string(POSENC_FIXTURES_DIR) + "/../../README.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const std::string begin = "<!-- families:begin -->\n", end = "<!-- families:end -->";
  const std::size_t a = readme.find(begin), b = readme.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  const std::string shown = readme.substr(a + begin.size(), b - a - begin.size());
  const std::string want = families_table();
  if (shown != want) std::ofstream("families-table.md") << want;  // the text to paste
  INFO("README.md between the families markers should read families-table.md (written to the "
       "working directory)");
  CHECK(shown == want);
}

namespace {

posenc::hf_config llama4_text(std::optional<std::vector<double>> no_rope = std::nullopt) {
  using posenc::config_value;
  posenc::hf_config c;
  c["model_type"] = config_value::of_text("llama4");
  c["text_config"] = config_value::object();
  c["text_config.model_type"] = config_value::of_text("llama4_text");
  c["text_config.hidden_size"] = config_value::of(5120);
  c["text_config.num_attention_heads"] = config_value::of(40);
  c["text_config.head_dim"] = config_value::of(128);
  c["text_config.num_hidden_layers"] = config_value::of(8);
  c["text_config.rope_theta"] = config_value::of(500000);
  c["text_config.rope_scaling"] = config_value::object();
  c["text_config.rope_scaling.rope_type"] = config_value::of_text("llama3");
  c["text_config.rope_scaling.factor"] = config_value::of(16);
  c["text_config.rope_scaling.low_freq_factor"] = config_value::of(1);
  c["text_config.rope_scaling.high_freq_factor"] = config_value::of(1);
  c["text_config.rope_scaling.original_max_position_embeddings"] = config_value::of(8192);
  if (no_rope) c["text_config.no_rope_layers"] = config_value::of_numbers(*no_rope);
  return c;
}

}  // namespace

TEST_CASE("config families: Llama 4: NoPE layers with a query temperature, chunked RoPE layers, equal llama3 factors",
          "[config][families]") {
  const posenc::model_info m = posenc::model_from_config(llama4_text());
  CHECK(m.family == "llama4");
  CHECK(m.model_type == "llama4_text");
  REQUIRE(m.layers.size() == 8);
  REQUIRE(m.encodings.size() == 1);
  for (const posenc::layer_info& l : m.layers) {
    const bool nope = (l.index + 1) % 4 == 0;  // Llama4TextConfig's default no_rope_layers
    CHECK(l.rope.has_value() == !nope);
    CHECK(l.attention == (nope ? posenc::attention_kind::full : posenc::attention_kind::chunked));
    CHECK(l.chunk == (nope ? std::optional<int>() : std::optional<int>(8192)));
    CHECK(l.query_scale.has_value() == nope);
  }
  // _compute_llama3_parameters with low = high = 1: θ/16 past wavelength 8192, θ below.
  const posenc::rope_config& r = m.encodings[0];
  CHECK(r.layout == posenc::rope_layout::interleaved);
  const posenc::frequencies f = posenc::inverse_frequencies(128, 500000, r.scaling);
  for (int i = 0; i < 64; ++i) {
    const double theta = 1.0 / std::pow(500000.0, 2.0 * i / 128);
    const double want = 2 * std::numbers::pi / theta > 8192 ? theta / 16 : theta;
    CHECK(f.inv_freq[static_cast<std::size_t>(i)] == Approx(want).epsilon(1e-14));
  }
  // An explicit list (1 = RoPE) wins; the query scale is HF's formula.
  const posenc::model_info m2 = posenc::model_from_config(llama4_text(std::vector<double>{1, 0, 1, 1, 1, 1, 1, 1}));
  CHECK_FALSE(m2.layers[1].rope.has_value());
  CHECK(m2.layers[3].rope.has_value());
  const posenc::query_scale q = *m2.layers[1].query_scale;
  for (std::int64_t p : {0LL, 8190LL, 8191LL, 100000LL, 1LL << 40}) {
    const double want = std::log(std::floor((static_cast<double>(p) + 1) / 8192) + 1) * 0.1 + 1;
    CHECK(posenc::query_scale_at(q, p) == Approx(want).epsilon(1e-15));
  }
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::query_scale_at(q, -1); }, "position");
  const auto none = posenc::layer_rope_from_config(llama4_text(), {.layer = 3});
  CHECK_FALSE(none.has_value());
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(llama4_text(), {.layer = 3}); }, "layer 3 has no RoPE");
}

TEST_CASE("config families: proportional and NTK-α ladders are HF's", "[config][families][frequencies]") {
  posenc::scaling s;
  s.type = posenc::scaling_type::proportional;
  s.partial_rotary_factor = 0.25;
  const posenc::frequencies f = posenc::inverse_frequencies(512, 1e6, s);
  for (int i = 0; i < 256; ++i) {
    const double want = i < 64 ? 1.0 / std::pow(1e6, 2.0 * i / 512) : 0.0;
    CHECK(f.inv_freq[static_cast<std::size_t>(i)] == Approx(want).epsilon(1e-15));
  }
  s.partial_rotary_factor = 1.5;
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::inverse_frequencies(512, 1e6, s); }, "scaling.partial_rotary_factor");
  posenc::scaling a;
  a.type = posenc::scaling_type::dynamic;
  a.alpha = 1000;
  const posenc::frequencies g = posenc::inverse_frequencies(128, 10000, a);
  const double base = 10000 * std::pow(1000.0, 128.0 / 126.0);
  for (int i = 0; i < 64; ++i)
    CHECK(g.inv_freq[static_cast<std::size_t>(i)] == Approx(1.0 / std::pow(base, 2.0 * i / 128)).epsilon(1e-14));
}

TEST_CASE("config families: an unlisted model_type is refused by name; family takes a listed one's rules",
          "[config][families]") {
  posenc::hf_config c = llama4_text();
  c["text_config.model_type"] = posenc::config_value::of_text("llama9_text");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c); }, "text_config.model_type = 'llama9_text' is not a family");
  CHECK(posenc::model_from_config(c, {.family = "llama4"}).family == "llama4");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c, {.family = "llama9"}); }, "family 'llama9'");
}

namespace {

// A config with only the shape keys: model_type, hidden_size, num_attention_heads, num_hidden_layers.
posenc::hf_config shape(const std::string& model_type, double hidden, double heads, double layers) {
  return posenc::test::config_shape(model_type, hidden, heads, 0, layers);
}

}  // namespace

TEST_CASE("config families: classes with per-layer-type rope dicts fill them when the config has none",
          "[config][families]") {
  using posenc::config_value;
  // Gemma4TextConfig.__post_init__: sliding {default, 1e4}, full {proportional, p 0.25, 1e6}.
  posenc::hf_config g = shape("gemma4_text", 2304, 8, 12);
  g["head_dim"] = config_value::of(256);
  const posenc::model_info m = posenc::model_from_config(g);
  REQUIRE(m.encodings.size() == 2);
  const posenc::rope_config& local = m.encodings[*m.layers[0].rope];
  const posenc::rope_config& global = m.encodings[*m.layers[5].rope];
  CHECK(local.base == 10000.0);
  CHECK(local.rotary_dim == 256);
  CHECK(global.head_dim == 512);
  CHECK(global.base == 1e6);
  CHECK(global.scaling.type == posenc::scaling_type::proportional);
  // _compute_proportional_rope_parameters: the first int(0.25 · 512 / 2) rungs over 512, then 0.
  const posenc::frequencies f = posenc::inverse_frequencies(512, 1e6, global.scaling);
  for (int i = 0; i < 256; ++i)
    CHECK(f.inv_freq[static_cast<std::size_t>(i)] ==
          Approx(i < 64 ? 1.0 / std::pow(1e6, 2.0 * i / 512) : 0.0).epsilon(1e-15));
  // Its convert_rope_params_to_dict reads no top-level rope key: one is accepted only when it
  // agrees with the dicts.
  posenc::hf_config t = g;
  t["rope_theta"] = config_value::of(1e6);  // what full_attention uses: accepted
  CHECK(posenc::model_from_config(t).encodings.size() == 2);
  t["rope_theta"] = config_value::of(5e5);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(t); },
      "rope_theta = 500000 is not read by gemma4 (models/gemma4 (Gemma4TextConfig, "
      "Gemma4TextRotaryEmbedding) reads only the per-layer-type rope_parameters, where "
      "rope_parameters.full_attention.rope_theta = 1000000)");

  // use_bidirectional_attention 'all' (Gemma4TextConfig.__post_init__): is_causal False, so
  // every layer's mask is bidirectional (create_bidirectional_mask / _sliding_window_mask,
  // |i − j| ≤ w'), and sliding_window w' = (512 // 2) + 1 = 257; the rotaries are unchanged.
  posenc::hf_config both = g;
  both["use_bidirectional_attention"] = config_value::of_text("all");
  const posenc::model_info bm = posenc::model_from_config(both);
  REQUIRE(bm.encodings.size() == 2);
  for (const posenc::layer_info& l : bm.layers) {
    CHECK(l.bidirectional);
    const bool sliding = l.attention == posenc::attention_kind::sliding;
    CHECK(l.window == (sliding ? std::optional<int>(258) : std::nullopt));
    CHECK(l.lookahead == (sliding ? std::optional<int>(257) : std::nullopt));
    CHECK(l.rope == m.layers[static_cast<std::size_t>(l.index)].rope);
  }
  CHECK(posenc::rope_from_config(both, {.layer_type = "sliding_attention"}).base == 10000.0);
  both["sliding_window"] = config_value::of(1023);  // (1023 // 2) + 1 = 512
  CHECK(posenc::model_from_config(both).layers[0].lookahead == 512);
  both["use_bidirectional_attention"] = config_value::of_text("vision");  // text stays causal
  CHECK_FALSE(posenc::model_from_config(both).layers[0].bidirectional);
  CHECK(posenc::model_from_config(both).layers[0].window == 1023);
  both["use_bidirectional_attention"] = config_value::of_text("text");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(both); },
      "use_bidirectional_attention must be 'all', 'vision' or null, got 'text'");

  // MiMoV2FlashConfig: full on layer 0 and every 6th; int(192 · 0.334) = 64 dims at 5e6 / 1e4.
  const posenc::model_info mm = posenc::model_from_config(shape("mimo_v2_flash", 4096, 64, 12));
  for (const posenc::layer_info& l : mm.layers) {
    const bool full = l.index == 0 || (l.index + 1) % 6 == 0;
    CHECK(l.attention == (full ? posenc::attention_kind::full : posenc::attention_kind::sliding));
    const posenc::rope_config& r = mm.encodings[*l.rope];
    CHECK(r.head_dim == 192);
    CHECK(r.rotary_dim == 64);
    CHECK(r.base == (full ? 5e6 : 1e4));
  }
}

TEST_CASE("config families: GraniteSWA's layer_rope_theta gives each layer its own θ, 0 = no RoPE",
          "[config][families]") {
  using posenc::config_value;
  posenc::hf_config g = shape("granite_swa", 1024, 8, 8);
  g["rope_theta"] = config_value::of(1e4);
  // Without the list every layer takes rope_theta (GraniteSWAConfig.__post_init__).
  const posenc::model_info plain = posenc::model_from_config(g);
  REQUIRE(plain.encodings.size() == 1);
  for (const posenc::layer_info& l : plain.layers)
    CHECK(l.attention == (l.index % 4 == 0 ? posenc::attention_kind::full : posenc::attention_kind::sliding));
  g["layer_rope_theta"] = config_value::of_numbers({0, 1e4, 1e4, 1e4, 5e5, 1e4, 0, 1e4});
  const posenc::model_info m = posenc::model_from_config(g);
  REQUIRE(m.encodings.size() == 2);
  for (const posenc::layer_info& l : m.layers) {
    const double want[] = {0, 1e4, 1e4, 1e4, 5e5, 1e4, 0, 1e4};
    const double t = want[l.index];
    CHECK(l.rope.has_value() == (t != 0));
    if (l.rope) CHECK(m.encodings[*l.rope].base == t);
    const auto one = posenc::layer_rope_from_config(g, {.layer = l.index});
    CHECK(one.has_value() == (t != 0));
    if (one) CHECK(one->base == t);
  }
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(g); }, "layer_rope_theta gives each layer its own θ");
  g["layer_rope_theta"] = config_value::of_numbers({1e4, 1e4});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(g); }, "layer_rope_theta must hold one θ per layer (8)");
}

TEST_CASE("config families: hybrid models list their attention layers; the rest are no attention",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // BambaConfig.layers_block_type: attn_layer_indices are full attention, the rest Mamba;
  // BambaRotaryEmbedding rotates int(head_dim · 0.5) dims (partial_rotary_factor forced to 0.5).
  posenc::hf_config b = shape("bamba", 1024, 8, 6);
  b["attn_layer_indices"] = config_value::of_numbers({1, 4});
  const posenc::model_info bm = posenc::model_from_config(b);
  REQUIRE(bm.encodings.size() == 1);
  CHECK(bm.encodings[0].rotary_dim == 64);
  for (const posenc::layer_info& l : bm.layers) {
    const bool attn = l.index == 1 || l.index == 4;
    CHECK(l.attention == (attn ? attention_kind::full : attention_kind::linear));
    CHECK(l.rope.has_value() == attn);
  }
  // NemotronHConfig._pattern_to_list; NemotronHAttention applies no rotary.
  posenc::hf_config n = shape("nemotron_h", 1024, 8, 99);  // num_hidden_layers is ignored
  n["hybrid_override_pattern"] = config_value::of_text("M-*E");
  const posenc::model_info nm = posenc::model_from_config(n);
  REQUIRE(nm.layers.size() == 4);
  CHECK(nm.encodings.empty());
  const attention_kind want[] = {attention_kind::linear, attention_kind::none, attention_kind::full,
                                 attention_kind::none};
  for (const posenc::layer_info& l : nm.layers) {
    CHECK(l.attention == want[l.index]);
    CHECK_FALSE(l.rope.has_value());
  }
  CHECK(posenc::to_string(attention_kind::none) == "none");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(n); }, "nemotron_h has no positional encoding");
  n.erase("hybrid_override_pattern");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(n); }, "layer_types (or hybrid_override_pattern) is required");
  // GraniteMoeHybridConfig: no layer_types = every layer Mamba; legacy names remapped; RoPE
  // only with position_embedding_type "rope" (GraniteMoeHybridModel.rotary_emb).
  posenc::hf_config g = shape("granitemoehybrid", 1024, 8, 3);
  for (const posenc::layer_info& l : posenc::model_from_config(g).layers)
    CHECK(l.attention == attention_kind::linear);
  g["layer_types"] = config_value::strings(3);
  const char* types[] = {"mamba", "attention", "mamba"};
  for (int i = 0; i < 3; ++i) g["layer_types." + std::to_string(i)] = config_value::of_text(types[i]);
  CHECK_FALSE(posenc::model_from_config(g).layers[1].rope.has_value());
  g["position_embedding_type"] = config_value::of_text("rope");
  const posenc::model_info gm = posenc::model_from_config(g);
  CHECK(gm.layers[1].attention == attention_kind::full);
  REQUIRE(gm.layers[1].rope.has_value());
  CHECK(gm.encodings[0].rotary_dim == 128);
  // MiniMaxConfig: full on even layers, linear attention on odd ones; attn_type_list unread.
  posenc::hf_config m = shape("minimax", 1024, 8, 4);
  const posenc::model_info mm = posenc::model_from_config(m);
  for (const posenc::layer_info& l : mm.layers)
    CHECK(l.attention == (l.index % 2 ? attention_kind::linear : attention_kind::full));
  CHECK(mm.encodings[0].base == 1e6);
  m["attn_type_list"] = config_value::of_numbers({0, 1, 0, 1});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(m); }, "attn_type_list is not read by transformers");
}

TEST_CASE("config families: DBRX's attn_config.rope_theta, which transformers never reads, is refused "
          "unless it is the θ transformers uses", "[config][families]") {
  using posenc::config_value;
  posenc::hf_config d;
  d["model_type"] = config_value::of_text("dbrx");
  d["d_model"] = config_value::of(2048);
  d["n_heads"] = config_value::of(16);
  d["n_layers"] = config_value::of(2);
  CHECK(posenc::rope_from_config(d).base == 10000.0);  // DbrxConfig: default_theta
  CHECK(posenc::model_from_config(d).layers.size() == 2);
  d["attn_config"] = config_value::object();
  d["attn_config.rope_theta"] = config_value::of(500000);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(d); },
      "attn_config.rope_theta = 500000 is not read by transformers");
  d["rope_parameters"] = config_value::object();
  d["rope_parameters.rope_type"] = config_value::of_text("default");
  d["rope_parameters.rope_theta"] = config_value::of(500000);
  CHECK(posenc::rope_from_config(d).base == 500000.0);
}

TEST_CASE("config families: Cohere2-MoE's dense prefix layers take their own pattern and force RoPE",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // Cohere2MoeConfig.__post_init__ (first_k_dense_replace 2, prefix pattern 1: full) and
  // Cohere2MoeAttention.force_rope (dense and prefix pattern 1); the rest every 4th full, no RoPE.
  posenc::hf_config m = shape("cohere2_moe", 1024, 8, 10);
  m["first_k_dense_replace"] = config_value::of(2);
  const posenc::model_info mm = posenc::model_from_config(m);
  for (const posenc::layer_info& l : mm.layers) {
    const bool prefix = l.index < 2;
    const bool full = prefix || (l.index - 2 + 1) % 4 == 0;
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::sliding));
    CHECK(l.rope.has_value() == (prefix || !full));
  }
  REQUIRE(mm.encodings.size() == 1);
  CHECK(mm.encodings[0].layout == posenc::rope_layout::interleaved);
  m["prefix_dense_sliding_window_pattern"] = config_value::of(2);  // no force_rope: sliding only
  const posenc::model_info pm = posenc::model_from_config(m);
  CHECK(pm.layers[0].attention == attention_kind::sliding);
  CHECK(pm.layers[0].rope.has_value());
  CHECK(pm.layers[1].attention == attention_kind::full);
  CHECK_FALSE(pm.layers[1].rope.has_value());
}

TEST_CASE("config families: Mistral 4's MLA ladder spans the qk_rope slice, its queries are scaled on every layer",
          "[config][families]") {
  using posenc::config_value;
  // Mistral4Config.__post_init__: yarn θ 1e4 ×128 from 8192, mscale 1 / 1, llama_4_scaling_beta
  // 0.1; _compute_yarn_parameters over dim = int((64 + 64) · 64/128) = 64.
  posenc::hf_config m = shape("mistral4", 4096, 32, 3);
  const posenc::model_info mm = posenc::model_from_config(m);
  REQUIRE(mm.encodings.size() == 1);
  const posenc::rope_config& r = mm.encodings[0];
  CHECK(r.head_dim == 64);
  CHECK(r.rotary_dim == 64);
  CHECK(r.layout == posenc::rope_layout::interleaved);
  const posenc::frequencies f = posenc::inverse_frequencies(64, r.base, r.scaling);
  const double pi = std::numbers::pi;
  auto correction = [&](double rot) { return 64 * std::log(8192 / (rot * 2 * pi)) / (2 * std::log(1e4)); };
  const double low = std::max(std::floor(correction(32)), 0.0), high = std::min(std::ceil(correction(1)), 63.0);
  for (int i = 0; i < 32; ++i) {
    const double pos = std::pow(1e4, 2.0 * i / 64);
    const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
    const double want = (1 / (128 * pos)) * ramp + (1 / pos) * (1 - ramp);
    CHECK(f.inv_freq[static_cast<std::size_t>(i)] == Approx(want).epsilon(1e-14));
  }
  CHECK(f.attention_factor == 1.0);
  for (const posenc::layer_info& l : mm.layers) {
    REQUIRE(l.query_scale.has_value());
    CHECK(l.query_scale->floor_scale == 8192.0);
    CHECK(l.query_scale->attn_scale == 0.1);
  }
  m["rope_parameters"] = config_value::object();
  m["rope_parameters.rope_type"] = config_value::of_text("yarn");
  m["rope_parameters.factor"] = config_value::of(16);
  m["rope_parameters.partial_rotary_factor"] = config_value::of(1);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(m); },
      "rope_parameters.partial_rotary_factor gives mistral4's ladder 128 dims");
}

TEST_CASE("config families: OLMo Hybrid's null rope_theta and Zamba2's use_mem_rope decide RoPE", "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  posenc::hf_config o = shape("olmo_hybrid", 3840, 30, 8);
  o["rope_theta"] = config_value::null_value();  // null: OlmoHybridModel.rotary_emb is None
  const posenc::model_info om = posenc::model_from_config(o);
  CHECK(om.encodings.empty());
  for (const posenc::layer_info& l : om.layers)
    CHECK(l.attention == (l.index % 4 == 3 ? attention_kind::full : attention_kind::linear));
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(o); }, "rope_theta is null: olmo_hybrid then builds no rotary");
  o["rope_theta"] = config_value::of(5e5);
  const posenc::model_info roped = posenc::model_from_config(o);
  REQUIRE(roped.encodings.size() == 1);
  CHECK(roped.encodings[0].head_dim == 128);
  CHECK(roped.layers[3].rope.has_value());
  CHECK_FALSE(roped.layers[2].rope.has_value());
  // Zamba2Config: attention_head_dim = 2 · hidden_size // heads; "hybrid" blocks attend fully.
  posenc::hf_config z = shape("zamba2", 3584, 32, 3);
  z["layers_block_type"] = config_value::strings(3);
  const char* types[] = {"mamba", "hybrid", "mamba"};
  for (int i = 0; i < 3; ++i) z["layers_block_type." + std::to_string(i)] = config_value::of_text(types[i]);
  CHECK(posenc::model_from_config(z).encodings.empty());
  z["use_mem_rope"] = config_value::of_bool(true);
  const posenc::model_info zm = posenc::model_from_config(z);
  REQUIRE(zm.encodings.size() == 1);
  CHECK(zm.encodings[0].head_dim == 224);
  CHECK(zm.encodings[0].rotary_dim == 224);
  CHECK(zm.layers[1].attention == attention_kind::full);
  CHECK(zm.layers[1].rope.has_value());
  CHECK(zm.layers[0].attention == attention_kind::linear);
  CHECK(zm.encodings[0].scaling.max_position_embeddings == 4096);
  z["use_long_context"] = config_value::of_bool(true);  // Zamba2Config: max_position_embeddings 16384
  CHECK(posenc::model_from_config(z).encodings[0].scaling.max_position_embeddings == 16384);
}

TEST_CASE("config families: the ModernBERT decoder's per-type θ keys, rope_scaling and halved window", "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // ModernBertDecoderConfig: full when i % 3 == 0 at global_rope_theta (160000), sliding at
  // local_rope_theta (10000) with sliding_window = local_attention // 2; head hidden // heads.
  posenc::hf_config m = shape("modernbert-decoder", 768, 12, 6);
  const posenc::model_info mm = posenc::model_from_config(m);
  REQUIRE(mm.encodings.size() == 2);
  for (const posenc::layer_info& l : mm.layers) {
    const bool full = l.index % 3 == 0;
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::sliding));
    CHECK(l.window == (full ? std::optional<int>() : std::optional<int>(64)));
    CHECK(mm.encodings[*l.rope].base == (full ? 160000.0 : 10000.0));
    CHECK(mm.encodings[*l.rope].head_dim == 64);
  }
  m["local_rope_theta"] = config_value::of(160000);
  m["rope_scaling"] = config_value::object();
  m["rope_scaling.rope_type"] = config_value::of_text("linear");
  m["rope_scaling.factor"] = config_value::of(4);
  const posenc::model_info sm = posenc::model_from_config(m);
  REQUIRE(sm.encodings.size() == 1);  // both types now the same linear ladder
  CHECK(sm.encodings[0].scaling.type == posenc::scaling_type::linear);
  CHECK(sm.encodings[0].base == 160000.0);
  m["rope_parameters"] = config_value::object();
  m["rope_parameters.full_attention"] = config_value::object();
  m["rope_parameters.full_attention.rope_type"] = config_value::of_text("default");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(m); }, "rope_parameters.sliding_attention is missing");
}

TEST_CASE("config families: RecurrentGemma rotates the whole head (partial_rotary_factor unread) on its attention blocks",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // RecurrentGemmaConfig: head_dim = hidden // heads, layers_block_type = (block_types * 100)[:n];
  // RecurrentGemmaRotaryEmbedding spans head_dim and apply_rotary_pos_emb rotates cos.shape[-1].
  posenc::hf_config g = shape("recurrent_gemma", 2560, 10, 6);
  g["partial_rotary_factor"] = config_value::of(0.5);
  const posenc::model_info m = posenc::model_from_config(g);
  REQUIRE(m.encodings.size() == 1);
  CHECK(m.encodings[0].head_dim == 256);
  CHECK(m.encodings[0].rotary_dim == 256);
  for (const posenc::layer_info& l : m.layers) {
    const bool attention = l.index % 3 == 2;
    CHECK(l.attention == (attention ? attention_kind::sliding : attention_kind::linear));
    CHECK(l.rope.has_value() == attention);
    if (attention) CHECK(l.window == 2048);
  }
  g["rope_parameters"] = config_value::object();
  g["rope_parameters.rope_type"] = config_value::of_text("linear");
  g["rope_parameters.factor"] = config_value::of(2);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(g); }, "rope_parameters.rope_type = 'linear'");
}

TEST_CASE("config families: Cohere Compass runs RoPE only on layer types whose rope dict is not null",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // CohereCompassTextModel: rotary_emb(…) if rope_parameters[layer_type] is not None; the
  // rotary is Qwen3-VL's interleaved M-RoPE (section default [24, 20, 20]), head hidden // heads.
  posenc::hf_config c = shape("cohere_compass_text", 2048, 16, 4);
  c["layer_types"] = config_value::strings(4);
  for (int i = 0; i < 4; ++i)
    c["layer_types." + std::to_string(i)] = config_value::of_text(i == 3 ? "full_attention" : "sliding_attention");
  c["rope_parameters"] = config_value::object();
  c["rope_parameters.full_attention"] = config_value::null_value();
  c["rope_parameters.sliding_attention"] = config_value::object();
  c["rope_parameters.sliding_attention.rope_type"] = config_value::of_text("default");
  c["rope_parameters.sliding_attention.rope_theta"] = config_value::of(50000);
  const posenc::model_info m = posenc::model_from_config(c);
  REQUIRE(m.encodings.size() == 1);
  CHECK(m.encodings[0].head_dim == 128);
  CHECK(m.encodings[0].axes.kind == posenc::rope_axes_kind::mrope_interleaved);
  CHECK((m.encodings[0].axes.section == std::array<int, 3>{24, 20, 20}));
  for (const posenc::layer_info& l : m.layers) {
    CHECK(l.rope.has_value() == (l.index != 3));
    CHECK(l.attention == (l.index == 3 ? attention_kind::full : attention_kind::sliding));
    if (l.index != 3) CHECK(l.window == 4096);
  }
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c); }, "rope_parameters.full_attention is null");
  c.erase("rope_parameters.sliding_attention.rope_theta");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); }, "rope_parameters.sliding_attention.rope_theta is required");
}

namespace {

// HF _compute_default_rope_parameters: 1 / base^(arange(0, dim, 2) / dim), in double.
double hf_default_rung(double base, int dim, int i) { return 1.0 / std::pow(base, 2.0 * i / dim); }

}  // namespace

TEST_CASE("config families: Step 3.5 / 3.7's per-layer rope_theta and partial_rotary_factors, as "
          "Step3p7TextConfig builds one rope dict per layer type",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // Step3p7TextConfig.__post_init__: lists of n + num_nextn_predict_layers are cut to n; each
  // layer type takes its first layer's θ and factor; rope_scaling updates full_attention's.
  posenc::hf_config s = shape("step3p5", 4096, 64, 5);
  s["head_dim"] = config_value::of(128);
  s["num_nextn_predict_layers"] = config_value::of(2);
  s["sliding_window"] = config_value::of(512);
  posenc::test::put_strings(s, "layer_types", {"full_attention", "sliding_attention", "sliding_attention",
                               "sliding_attention", "full_attention", "sliding_attention",
                               "sliding_attention"});
  s["rope_theta"] = config_value::of_numbers({5e6, 1e4, 1e4, 1e4, 5e6, 1e4, 1e4});
  s["partial_rotary_factors"] = config_value::of_numbers({0.5, 1, 1, 1, 0.5, 1, 1});
  s["rope_scaling"] = config_value::object();
  s["rope_scaling.rope_type"] = config_value::of_text("llama3");
  s["rope_scaling.factor"] = config_value::of(2.0);
  s["rope_scaling.original_max_position_embeddings"] = config_value::of(131072);
  s["rope_scaling.low_freq_factor"] = config_value::of(1.0);
  s["rope_scaling.high_freq_factor"] = config_value::of(32.0);
  const posenc::model_info m = posenc::model_from_config(s);
  REQUIRE(m.layers.size() == 5);
  REQUIRE(m.encodings.size() == 2);
  for (const posenc::layer_info& l : m.layers) {
    const bool full = l.index % 4 == 0;
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::sliding));
    CHECK(l.window == (full ? std::optional<int>() : std::optional<int>(512)));
    const posenc::rope_config& r = m.encodings[*l.rope];
    CHECK(r.head_dim == 128);
    CHECK(r.rotary_dim == (full ? 64 : 128));  // int(128 · 0.5)
    CHECK(r.base == (full ? 5e6 : 1e4));
    CHECK(r.layout == posenc::rope_layout::half);  // rotate_half over cos.shape[-1] dims
    CHECK(r.scaling.type == (full ? posenc::scaling_type::llama3 : posenc::scaling_type::none));
  }
  // _compute_llama3_parameters over int(128 · 0.5) = 64 dims at 5e6: the highest rungs keep
  // θ (wavelength < 131072 / 32), the lowest are θ / 2 (wavelength > 131072 / 1).
  const posenc::rope_config& g = m.encodings[*m.layers[0].rope];
  const std::vector<double> full = posenc::inverse_frequencies(g.rotary_dim, g.base, g.scaling).inv_freq;
  REQUIRE(full.size() == 32);
  CHECK(full[0] == Approx(hf_default_rung(5e6, 64, 0)).epsilon(1e-15));
  CHECK(full[31] == Approx(hf_default_rung(5e6, 64, 31) / 2).epsilon(1e-14));
  const auto one = posenc::layer_rope_from_config(s, {.layer = 1});
  REQUIRE(one);
  CHECK(one->base == 1e4);
  // A scalar rope_theta is every layer's; without partial_rotary_factors the whole head.
  posenc::hf_config flat = s;
  flat["rope_theta"] = config_value::of(1e6);
  flat.erase("partial_rotary_factors");
  flat.erase("rope_scaling");
  for (auto it = flat.begin(); it != flat.end();)
    it = it->first.starts_with("rope_scaling.") ? flat.erase(it) : std::next(it);
  const posenc::model_info f = posenc::model_from_config(flat);
  REQUIRE(f.encodings.size() == 1);
  CHECK(f.encodings[0].base == 1e6);
  CHECK(f.encodings[0].rotary_dim == 128);
  // Layers of one type that disagree: transformers takes the first one's, the model's own
  // code each layer's — refused naming the entry.
  posenc::hf_config split = s;
  split["rope_theta"] = config_value::of_numbers({5e6, 1e4, 2e4, 1e4, 5e6, 1e4, 1e4});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(split); },
      "rope_theta[2] = 20000 differs from the first sliding_attention layer's 10000");
  split = s;
  split["partial_rotary_factors"] = config_value::of_numbers({0.5, 1, 1});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(split); },
      "partial_rotary_factors must hold one value per layer (5, or 7 with the num_nextn_predict_layers");
  split = s;
  split["yarn_only_types"] = config_value::strings(0);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(split); }, "yarn_only_types is not read by transformers");
  split = s;
  split["partial_rotary_factors"] = config_value::of_numbers({0.5, 0.01, 0.01, 0.01, 0.5, 1, 1});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(split); },
      "partial_rotary_factors[1] = 0.01 gives rotary dim 1 for head_dim 128");
  split = s;
  split.erase("sliding_window");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(split); }, "sliding_window is required");
  // A config transformers saved keeps its per-type dicts; the lists are gone from it.
  posenc::hf_config saved = shape("step3p5", 4096, 64, 2);
  saved["sliding_window"] = config_value::of(512);
  posenc::test::put_strings(saved, "layer_types", {"full_attention", "sliding_attention"});
  saved["rope_parameters"] = config_value::object();
  saved["rope_parameters.full_attention"] = config_value::object();
  saved["rope_parameters.full_attention.rope_type"] = config_value::of_text("default");
  saved["rope_parameters.full_attention.rope_theta"] = config_value::of(5e6);
  saved["rope_parameters.full_attention.partial_rotary_factor"] = config_value::of(0.5);
  saved["rope_parameters.sliding_attention"] = config_value::object();
  saved["rope_parameters.sliding_attention.rope_type"] = config_value::of_text("default");
  saved["rope_parameters.sliding_attention.rope_theta"] = config_value::of(1e4);
  const posenc::model_info sm = posenc::model_from_config(saved);
  REQUIRE(sm.encodings.size() == 2);
  CHECK(sm.encodings[*sm.layers[0].rope].rotary_dim == 64);
  CHECK(sm.encodings[*sm.layers[1].rope].base == 1e4);
  saved["rope_theta"] = config_value::of_numbers({5e6, 1e4});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(saved); },
      "rope_theta is not read by step3p7 when rope_parameters holds one dict per layer type");
}

TEST_CASE("config families: Muse Glimmer's layer_rope_theta switches RoPE per layer at rope_theta",
          "[config][families]") {
  using posenc::attention_kind;
  using posenc::config_value;
  // MuseGlimmerTextConfig: full when (n - 1 - i) % 4 == 0, else sliding (window 2048); without
  // layer_rope_theta those full layers are NoPE; MuseGlimmerTextModel rotates the rest with
  // its one rotary (rope_parameters.rope_theta, the whole 128-wide head).
  posenc::hf_config g = shape("muse_glimmer_text", 6656, 32, 10);
  g["head_dim"] = config_value::of(128);
  g["rope_parameters"] = config_value::object();
  g["rope_parameters.rope_type"] = config_value::of_text("default");
  g["rope_parameters.rope_theta"] = config_value::of(5e5);
  const posenc::model_info m = posenc::model_from_config(g);
  REQUIRE(m.encodings.size() == 1);
  CHECK(m.encodings[0].base == 5e5);
  CHECK(m.encodings[0].rotary_dim == 128);
  for (const posenc::layer_info& l : m.layers) {
    const bool full = (9 - l.index) % 4 == 0;  // layers 1, 5, 9
    CHECK(l.attention == (full ? attention_kind::full : attention_kind::sliding));
    CHECK(l.window == (full ? std::optional<int>() : std::optional<int>(2048)));
    CHECK(l.rope.has_value() == !full);
  }
  CHECK(posenc::rope_from_config(g).base == 5e5);
  // A saved list: any non-zero entry turns RoPE on at rope_theta; 0 turns it off.
  g["layer_rope_theta"] = config_value::of_numbers({5e5, 0, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 0});
  const posenc::model_info listed = posenc::model_from_config(g);
  REQUIRE(listed.encodings.size() == 1);
  for (const posenc::layer_info& l : listed.layers) CHECK(l.rope.has_value() == (l.index != 1 && l.index != 9));
  CHECK_FALSE(posenc::layer_rope_from_config(g, {.layer = 9}).has_value());
  // Another θ in the list is not what transformers rotates with: refused naming the entry.
  g["layer_rope_theta"] = config_value::of_numbers({5e5, 0, 1e4, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 0});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(g); }, "layer_rope_theta[2] = 10000 is not the θ transformers rotates with");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(g); }, "layer_rope_theta[2] = 10000 is not the θ transformers rotates with");
}
