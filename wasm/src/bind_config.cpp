// wasm/src/bind_config.cpp — a Hugging Face config.json → the rope_config posenc would build
// (core: posenc/config.hpp rope_from_config).
//
// wasm/js/config.js flattens the parsed JSON (reading nothing but own enumerable keys) and
// stages it as two blocks, decoded here in order:
//   entries (doubles): [count, then per entry: kind, key length, a, b … , then the values
//     of every number list, concatenated]; kind 0 null, 1 boolean (a = 0 | 1), 2 number
//     (a), 3 string (a = its length), 4 number list (a = its count), 5 object, 6 other,
//     7 string list (a = its count; its elements follow as string entries path.0, path.1, …);
//   text (UTF-16 code units): each entry's key path, then its string value, in entry order.
// The result goes back as numbers only (see config_result): JS builds the rotator from them
// through the same path as pe.rope(options), so nothing here creates a rotator.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/config.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/multimodal.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace posenc::wasm {
namespace {

// UTF-16 (as JS strings hold it) → UTF-8; a lone surrogate becomes U+FFFD.
void append_utf8(std::string& out, const std::uint16_t* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
      c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
    else if (c >= 0xD800 && c <= 0xDFFF)
      c = 0xFFFD;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

// Reads the staged blocks; every count is checked against the block sizes (JS wrote them,
// but a miscount must not read outside the blocks).
class staged_config {
public:
  staged_config(const double* entries, std::size_t n_entries, const std::uint16_t* text,
                std::size_t n_text)
      : e_(entries), ne_(n_entries), t_(text), nt_(n_text) {}

  hf_config decode() {
    hf_config out;
    const std::size_t count = count_at(0);
    std::size_t values = 1 + 4 * count;
    if (values > ne_) bad();
    for (std::size_t i = 0; i < count; ++i) {
      const double* entry = e_ + 1 + 4 * i;
      const std::string key = text(count_of(entry[1]));
      config_value v;
      switch (static_cast<int>(entry[0])) {
        case 0: break;
        case 1: v = config_value::of_bool(entry[2] != 0); break;
        case 2: v = config_value::of(entry[2]); break;
        case 3: v = config_value::of_text(text(count_of(entry[2]))); break;
        case 4: {
          const std::size_t n = count_of(entry[2]);
          if (n > ne_ - values) bad();
          v = config_value::of_numbers(std::vector<double>(e_ + values, e_ + values + n));
          values += n;
          break;
        }
        case 5: v = config_value::object(); break;
        case 7: v = config_value::strings(count_of(entry[2])); break;
        default: v = config_value::other(); break;
      }
      out[key] = std::move(v);
    }
    return out;
  }

private:
  [[noreturn]] static void bad() { detail::fail_length("config: the staged block is malformed"); }
  std::size_t count_of(double v) const {
    if (!(v >= 0 && v <= static_cast<double>(ne_ + nt_))) bad();
    return static_cast<std::size_t>(v);
  }
  std::size_t count_at(std::size_t i) const {
    if (i >= ne_) bad();
    return count_of(e_[i]);
  }
  std::string text(std::size_t n) {
    if (n > nt_ - at_) bad();
    std::string out;
    append_utf8(out, t_ + at_, n);
    at_ += n;
    return out;
  }

  const double* e_;
  std::size_t ne_;
  const std::uint16_t* t_;
  std::size_t nt_;
  std::size_t at_ = 0;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double or_nan(const std::optional<double>& v) {
  return v ? *v : std::numeric_limits<double>::quiet_NaN();
}
double or_nan(const std::optional<int>& v) {
  return v ? static_cast<double>(*v) : std::numeric_limits<double>::quiet_NaN();
}

// UTF-8 text → one double per UTF-16 code unit, after its count.
void append_text(std::vector<double>& out, const std::string& s) {
  std::vector<double> units;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    std::uint32_t c = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
    for (int k = 1; k < n && i + k < s.size(); ++k) c = (c << 6) | (s[i + k] & 0x3F);
    i += n;
    if (c >= 0x10000) {
      units.push_back(0xD800 + ((c - 0x10000) >> 10));
      units.push_back(0xDC00 + ((c - 0x10000) & 0x3FF));
    } else {
      units.push_back(c);
    }
  }
  out.push_back(static_cast<double>(units.size()));
  out.insert(out.end(), units.begin(), units.end());
}

// → [head_dim, rotary_dim, base, layout (0 half, 1 interleaved), turn (0 forward, 1 inverse),
//    axes (0 none, 1 mrope, 2 mrope-interleaved, 3 qwen2-vl, 4 pixtral), section t, h, w,
//    scaling type (0 default,
//    1 linear, 2 dynamic, 3 yarn, 4 llama3, 5 longrope, 6 proportional), then the scaling
//    block of wasm/js/scaling.js (its 14 fields, NaN when unset; the counts of short_factor
//    and long_factor; their values; axes 5 (bands): the preset's name, append_text)],
//    appended to `out`.
void append_config(std::vector<double>& out, const rope_config& c) {
  const scaling& s = c.scaling;
  out.insert(out.end(), {
      static_cast<double>(c.head_dim), static_cast<double>(c.rotary_dim), c.base,
      c.layout == rope_layout::interleaved ? 1.0 : 0.0,
      c.turn == direction::inverse ? 1.0 : 0.0, static_cast<double>(c.axes.kind),
      static_cast<double>(c.axes.section[0]), static_cast<double>(c.axes.section[1]),
      static_cast<double>(c.axes.section[2]), static_cast<double>(s.type),
      or_nan(s.factor), or_nan(s.original_max_position_embeddings),
      or_nan(s.max_position_embeddings), or_nan(s.seq_len), or_nan(s.attention_factor),
      s.beta_fast, s.beta_slow, or_nan(s.mscale), or_nan(s.mscale_all_dim),
      s.truncate ? 1.0 : 0.0, s.low_freq_factor, s.high_freq_factor,
      or_nan(s.partial_rotary_factor), or_nan(s.alpha),
      static_cast<double>(s.short_factor.size()), static_cast<double>(s.long_factor.size())});
  out.insert(out.end(), s.short_factor.begin(), s.short_factor.end());
  out.insert(out.end(), s.long_factor.begin(), s.long_factor.end());
  if (c.axes.kind == rope_axes_kind::bands) append_text(out, c.axes.name);
}

// The options every entry point takes; layer < 0: none.
config_options options_of(const std::string& layout, double seq_len, std::string layer_type,
                          std::string tower, std::string family, int layer, std::string part,
                          std::string stack) {
  config_options options;
  if (!layout.empty()) options.layout = parse_rope_layout(layout);
  if (!std::isnan(seq_len)) options.seq_len = static_cast<int>(seq_len);
  options.layer_type = std::move(layer_type);
  options.tower = std::move(tower);
  options.family = std::move(family);
  if (layer >= 0) options.layer = layer;
  options.part = std::move(part);
  options.stack = std::move(stack);
  return options;
}


// layout: "" (the family's) | "half" | "interleaved"; seq_len NaN when not given (else an
// integer JS checked); layer −1 when not given; the rest as config_options names them.
// → [1, the rotator's block], or [0] for a layer without RoPE.
val rope_from_config_at(std::uintptr_t entries, std::size_t n_entries, std::uintptr_t text,
                        std::size_t n_text, std::string layout, double seq_len,
                        std::string layer_type, std::string tower, std::string family, int layer,
                        std::string part, std::string stack) {
  return guarded([&] {
    staged_config staged(from_address<const double>(entries), n_entries,
                         from_address<const std::uint16_t>(text), n_text);
    const config_options options = options_of(layout, seq_len, std::move(layer_type),
                                              std::move(tower), std::move(family), layer,
                                              std::move(part), std::move(stack));
    std::vector<double> out;
    const std::optional<rope_config> rope =
        options.layer ? layer_rope_from_config(staged.decode(), options)
                      : std::optional<rope_config>(rope_from_config(staged.decode(), options));
    out.push_back(rope ? 1.0 : 0.0);
    if (rope) append_config(out, *rope);
    return hand_over(std::move(out));
  });
}

// → [model_type (text), family (text), layer count, per layer: rope (−1 none), attention
//    (attention_kind), window, chunk, floor_scale, attn_scale, offset (NaN unset),
//    bidirectional (0 | 1), lookahead (NaN unset), cross (cross_attention), patch window
//    side and merge (NaN unset), compress rate (NaN unset), rope slice head and offset (NaN
//    unset), output inverse (0 | 1), indexer slice head and offset (NaN unset);
//    encoding count, per encoding: its block's length, the block of append_config].
val model_from_config_at(std::uintptr_t entries, std::size_t n_entries, std::uintptr_t text,
                         std::size_t n_text, std::string layout, double seq_len,
                         std::string tower, std::string family, std::string stack) {
  return guarded([&] {
    staged_config staged(from_address<const double>(entries), n_entries,
                         from_address<const std::uint16_t>(text), n_text);
    const model_info m = model_from_config(
        staged.decode(), options_of(layout, seq_len, "full_attention", std::move(tower),
                                    std::move(family), -1, "attention", std::move(stack)));
    std::vector<double> out;
    append_text(out, m.model_type);
    append_text(out, m.family);
    out.push_back(static_cast<double>(m.layers.size()));
    for (const layer_info& l : m.layers) {
      const bool scaled = l.query_scale.has_value();
      out.insert(out.end(), {l.rope ? static_cast<double>(*l.rope) : -1.0,
                             static_cast<double>(l.attention), or_nan(l.window), or_nan(l.chunk),
                             scaled ? l.query_scale->floor_scale : kNaN,
                             scaled ? l.query_scale->attn_scale : kNaN,
                             scaled ? l.query_scale->offset : kNaN, l.bidirectional ? 1.0 : 0.0,
                             or_nan(l.lookahead), static_cast<double>(l.cross),
                             l.patches ? l.patches->side : kNaN, l.patches ? l.patches->merge : kNaN,
                             l.compressed ? l.compressed->rate : kNaN,
                             l.slice ? l.slice->head : kNaN, l.slice ? l.slice->offset : kNaN,
                             l.output_inverse ? 1.0 : 0.0,
                             l.indexer ? l.indexer->head : kNaN, l.indexer ? l.indexer->offset : kNaN});
    }
    out.push_back(static_cast<double>(m.encodings.size()));
    for (const rope_config& c : m.encodings) {
      const std::size_t at = out.size();
      out.push_back(0);
      append_config(out, c);
      out[at] = static_cast<double>(out.size() - at - 1);
    }
    return hand_over(std::move(out));
  });
}

// The query scale (Llama 4, Ministral 3) at each position of the staged int64-as-double list.
val query_scales_at(double floor_scale, double attn_scale, double offset, std::uintptr_t positions,
                    std::size_t n) {
  return guarded([&] {
    const double* p = from_address<const double>(positions);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(p[i] >= 0 && p[i] <= static_cast<double>(max_position) && p[i] == std::floor(p[i])))
        detail::fail_argument("positions[", i, "] must be an integer in [0, ", max_position,
                              "], got ", p[i]);
      out[i] = query_scale_at({floor_scale, attn_scale, offset}, static_cast<std::int64_t>(p[i]));
    }
    return hand_over(std::move(out));
  });
}

// The compressed keys a query sees (DeepSeek-V4) at each position of the staged list.
val compressed_keys_at(int rate, std::uintptr_t positions, std::size_t n) {
  return guarded([&] {
    const double* p = from_address<const double>(positions);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(p[i] >= 0 && p[i] < static_cast<double>(max_position) && p[i] == std::floor(p[i])))
        detail::fail_argument("positions[", i, "] must be an integer in [0, ", max_position - 1,
                              "], got ", p[i]);
      out[i] = static_cast<double>(compressed_keys_seen({rate}, static_cast<std::int64_t>(p[i])));
    }
    return hand_over(std::move(out));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_config) {
  emscripten::function("compressedKeys", &posenc::wasm::compressed_keys_at);
  emscripten::function("ropeFromConfig", &posenc::wasm::rope_from_config_at);
  emscripten::function("modelFromConfig", &posenc::wasm::model_from_config_at);
  emscripten::function("queryScales", &posenc::wasm::query_scales_at);
}
