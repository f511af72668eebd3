// mrope_positions.cpp — HF's get_rope_index for Qwen2-VL, Qwen2.5-VL and Qwen3-VL
// (posenc/mrope_positions.hpp states the maths and the ranges).
#include "posenc/mrope_positions.hpp"

#include "posenc/detail/check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace posenc {

mrope_model parse_mrope_model(std::string_view name) {
  if (name == "qwen2-vl") return mrope_model::qwen2_vl;
  if (name == "qwen2.5-vl") return mrope_model::qwen2_5_vl;
  if (name == "qwen3-vl") return mrope_model::qwen3_vl;
  detail::fail_argument("model must be \"qwen2-vl\", \"qwen2.5-vl\" or \"qwen3-vl\", got ", detail::quoted(name));
}

std::string_view to_string(mrope_model model) noexcept {
  switch (model) {
    case mrope_model::qwen2_5_vl: return "qwen2.5-vl";
    case mrope_model::qwen3_vl: return "qwen3-vl";
    default: return "qwen2-vl";
  }
}

namespace {

constexpr std::int64_t max_tokens = std::int64_t{1} << 26;
constexpr std::int64_t max_position = 2147483647;
constexpr double max_time_factor = 16777216.0;  // 2^24: tokens_per_second, seconds_per_grid
constexpr int max_merge = 1024;

// One visual item, merged and checked: its grid in LLM tokens and its time step.
struct visual {
  std::int64_t t, h, w;
  bool scaled;     // qwen2_5_vl: time(ti) = trunc(f32(f32(ti)·s)·tps)
  float seconds;   // s (0 for qwen2_5_vl images)
};

const char* kind_name(mrope_item_kind kind) {
  return kind == mrope_item_kind::image ? "image" : "video";
}

// HF's llm_grid = (t, h // m, w // m), with the divisibility HF's processor guarantees checked.
visual merged(const mrope_item& item, std::size_t i, int m, mrope_model model, double tps) {
  const char* axis[3] = {"t", "h", "w"};
  for (int a = 0; a < 3; ++a) {
    const std::int64_t v = item.grid[a];
    if (v < 1 || v > max_position)
      detail::fail_argument("items[", i, "].", kind_name(item.kind), "[", a, "] (", axis[a],
                            ") must be an integer in [1, 2147483647], got ", v);
    if (a > 0 && v % m != 0)
      detail::fail_argument("items[", i, "].", kind_name(item.kind), "[", a, "] (", axis[a],
                            ") must be a multiple of spatial_merge (", m, "), got ", v);
  }
  visual g{item.grid[0], item.grid[1] / m, item.grid[2] / m, model == mrope_model::qwen2_5_vl, 0.0f};
  if (g.scaled && item.kind == mrope_item_kind::video) {
    const double s = item.seconds_per_grid;
    if (!std::isfinite(s) || s < 0 || s > max_time_factor)
      detail::fail_argument("items[", i, "].seconds_per_grid must be a finite number in [0, 2^24], got ", s);
    if (!(tps > 0))
      detail::fail_argument("tokens_per_second (2 in the released Qwen2.5-VL checkpoints) is required "
                            "for a qwen2.5-vl video (items[", i, "])");
    g.seconds = static_cast<float>(s);
  }
  if (model == mrope_model::qwen3_vl && item.kind == mrope_item_kind::video && g.t != 1)
    detail::fail_argument("items[", i, "].video[0] (t) must be 1 for qwen3-vl, got ", g.t,
                          ": Qwen3-VL writes each frame as its own item (HF splits video_grid_thw "
                          "into frames), list them with their timestamp tokens between");
  return g;
}

// time(ti) of a visual item, before the offset; may exceed int32 (checked by the caller).
double time_of(const visual& g, std::int64_t ti, float tps) {
  if (!g.scaled) return static_cast<double>(ti);
  // torch: arange(int64) · float32 tensor → float32, · tokens_per_second → float32, .long().
  const float step = static_cast<float>(ti) * g.seconds;
  return std::trunc(static_cast<double>(step * tps));
}

// Every item checked, its token count and first position found, and the largest position
// checked against int32 before anything is allocated. time() is non-decreasing in ti
// (s, tps ≥ 0 and rounding is monotonic), so a visual item's largest position is at its
// last frame, last row or last column.
struct plan {
  std::vector<visual> grids;
  std::int64_t tokens = 0;
  std::int64_t next = 0;  // one past the largest position so far
};

void check_position(std::size_t i, double largest) {
  if (largest > static_cast<double>(max_position))
    detail::fail_argument("items[", i, "] takes positions past 2147483647 (2^31 - 1, the "
                          "largest int32 position id), got ", largest);
}

plan plan_items(std::span<const mrope_item> items, int m, mrope_model model, double tps) {
  plan p;
  const auto tps32 = static_cast<float>(tps);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const mrope_item& item = items[i];
    // An enum cast from an integer outside its values would read as a video.
    const auto kind = static_cast<int>(item.kind);
    if (kind < 0 || kind > 2)
      detail::fail_argument("items[", i, "].kind must be mrope_item_kind text, image or video (0, 1, 2), got ", kind);
    std::int64_t n = 0;
    if (item.kind == mrope_item_kind::text) {
      n = item.text;
      if (n < 0 || n > max_tokens)
        detail::fail_argument("items[", i, "].text must be an integer in [0, 67108864], got ", n);
      check_position(i, static_cast<double>(p.next + n - 1));
      p.next += n;
    } else {
      const visual g = merged(item, i, m, model, tps);
      // Each factor ≤ 2^31, so one product at a time stays below 2^62 before the check.
      n = g.t;
      for (std::int64_t f : {g.h, g.w}) n = n > max_tokens ? n : n * f;
      if (n <= max_tokens) {
        const double largest = static_cast<double>(p.next) +
            std::max({time_of(g, g.t - 1, tps32), static_cast<double>(g.h - 1), static_cast<double>(g.w - 1)});
        check_position(i, largest);
        p.next = static_cast<std::int64_t>(largest) + 1;
      }
      p.grids.push_back(g);
    }
    p.tokens += n;
    if (n > max_tokens || p.tokens > max_tokens)
      detail::fail_length("items hold more than 67108864 (2^26) tokens (items[", i, "] reaches ",
                          n > max_tokens ? n : p.tokens, ")");
  }
  return p;
}

}  // namespace

mrope_position_ids mrope_positions(std::span<const mrope_item> items, int spatial_merge,
                                   mrope_model model, double tokens_per_second) {
  const auto model_index = static_cast<int>(model);  // out of range would compute as Qwen2-VL
  if (model_index < 0 || model_index > 2)
    detail::fail_argument("model must be mrope_model qwen2_vl, qwen2_5_vl or qwen3_vl (0, 1, 2), got ",
                          model_index);
  detail::check_range("spatial_merge", spatial_merge, 1, max_merge);
  if (!std::isfinite(tokens_per_second) || tokens_per_second < 0 || tokens_per_second > max_time_factor)
    detail::fail_argument("tokens_per_second must be a finite number in [0, 2^24], got ",
                          tokens_per_second);
  const plan p = plan_items(items, spatial_merge, model, tokens_per_second);
  mrope_position_ids r;
  r.tokens = p.tokens;
  r.delta = p.next - p.tokens;  // HF: max + 1 − length (0 when empty: next = tokens = 0)
  r.positions.resize(3 * static_cast<std::size_t>(r.tokens));
  const auto n = static_cast<std::size_t>(r.tokens);
  std::int32_t* t_row = r.positions.data();
  std::int32_t* h_row = t_row + n;
  std::int32_t* w_row = h_row + n;
  const float tps = static_cast<float>(tokens_per_second);
  std::size_t at = 0, v = 0;
  std::int64_t next = 0;  // positions below 2^31 (checked by plan_items)
  for (const mrope_item& item : items) {
    if (item.kind == mrope_item_kind::text) {
      for (std::int64_t q = next; q < next + item.text; ++q, ++at)
        t_row[at] = h_row[at] = w_row[at] = static_cast<std::int32_t>(q);
      next += item.text;
      continue;
    }
    const visual& g = p.grids[v++];
    std::int64_t largest = next;
    for (std::int64_t ti = 0; ti < g.t; ++ti) {
      const auto time = next + static_cast<std::int64_t>(time_of(g, ti, tps));
      for (std::int64_t hi = 0; hi < g.h; ++hi)
        for (std::int64_t wi = 0; wi < g.w; ++wi, ++at) {
          t_row[at] = static_cast<std::int32_t>(time);
          h_row[at] = static_cast<std::int32_t>(next + hi);
          w_row[at] = static_cast<std::int32_t>(next + wi);
        }
      largest = std::max({largest, time, next + g.h - 1, next + g.w - 1});
    }
    next = largest + 1;
  }
  return r;
}

}  // namespace posenc
