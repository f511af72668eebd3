// posenc/mrope_positions.hpp — the M-RoPE position ids (t, h, w) of a text + image + video
// sequence, as Hugging Face computes them, and the decode offset (`rope_deltas`).
//
// A sequence is a list of items in token order: a text run of n tokens, or an image / video
// given by HF's `image_grid_thw` / `video_grid_thw` row (t, h, w) in vision patches, before
// the spatial merge: it occupies t·(h/m)·(w/m) tokens (m = `spatial_merge_size`), laid out
// frame by frame, row by row. Vision special tokens (<|vision_start|>, <|vision_end|>, a
// Qwen3-VL frame's timestamp) are text: count them in the text runs around the item.
//
// Positions (HF `Qwen2VLModel.get_rope_index`, models/qwen2_vl/modeling_qwen2_vl.py):
//   next = 0; a text run of n tokens gets (p, p, p) for p = next … next + n − 1, then
//   next += n; a visual item with merged grid (T, H, W) gets, for its token (ti, hi, wi),
//   (next + time(ti), next + hi, next + wi), then next = 1 + the largest of those.
//   delta = (largest position + 1) − tokens (HF `mrope_position_deltas`, no padding), 0 for
//   an empty sequence: decoding continues with token index n at position n + delta on every
//   axis (HF: position_ids = cache_position + rope_deltas).
// time(ti) by model:
//   qwen2_vl:   ti.
//   qwen2_5_vl: (HF `Qwen2_5_VLModel.get_rope_index`, models/qwen2_5_vl/modeling_qwen2_5_vl.py)
//     video: trunc(ti · s · tokens_per_second) in float32 as torch computes it, s = that
//     video's `second_per_grid_ts` entry (1 when the processor gave none); image: 0 for every
//     frame (HF sets second_per_grid_t = 0 for images). The product is truncated after the
//     multiplication, as in HF's current code; releases before the fix of fractional intervals
//     truncated s to an integer first (s = 0.5 gave 0 for every frame).
//   qwen3_vl:   (HF `Qwen3VLModel.get_rope_index`, models/qwen3_vl/modeling_qwen3_vl.py) as
//     qwen2_vl once HF has split each video into its frames (repeat_interleave of
//     video_grid_thw, t set to 1): Qwen3-VL's processor writes every frame as its own
//     <timestamp> <|vision_start|> frame <|vision_end|>, so a video is listed frame by frame,
//     {video (1, h, w)} items with those text runs between; a video item with t ≠ 1 is refused.
//     (Qwen3-VL's rotation itself is mrope_interleaved.)
//
// Range (all checked before the output is allocated; violations throw
// posenc::invalid_argument naming the argument):
//   spatial_merge in [1, 1024]; grid t, h, w each in [1, 2^31 − 1], h and w multiples of
//   spatial_merge, t = 1 for qwen3_vl videos; text runs in [0, 2^26]; tokens in total ≤ 2^26
//   (else posenc::length_error naming items); every position ≤ 2^31 − 1 (an int32 position
//   id, as the rotators take); for qwen2_5_vl videos only: tokens_per_second (HF
//   vision_config.tokens_per_second, 2 in the released checkpoints) in (0, 2^24], required
//   (0 = not given); seconds_per_grid in [0, 2^24]. Both are ignored by the other models and
//   by images.
// Accuracy: exact (integers; the one float32 product of qwen2_5_vl is rounded as torch does).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace posenc {

enum class mrope_model { qwen2_vl, qwen2_5_vl, qwen3_vl };

// "qwen2-vl" | "qwen2.5-vl" | "qwen3-vl"; anything else throws posenc::invalid_argument naming
// `model`.
mrope_model parse_mrope_model(std::string_view name);
std::string_view to_string(mrope_model model) noexcept;

enum class mrope_item_kind { text, image, video };

// One item of the sequence (see the top of this file).
struct mrope_item {
  mrope_item_kind kind = mrope_item_kind::text;
  std::int64_t text = 0;                    // text: the token count
  std::array<std::int64_t, 3> grid{1, 1, 1};  // image / video: HF grid_thw (t, h, w), pre-merge
  double seconds_per_grid = 1.0;            // video: HF second_per_grid_ts entry (qwen2_5_vl)

  static mrope_item text_run(std::int64_t n) { return {mrope_item_kind::text, n, {1, 1, 1}, 1.0}; }
  static mrope_item image(std::int64_t t, std::int64_t h, std::int64_t w) {
    return {mrope_item_kind::image, 0, {t, h, w}, 1.0};
  }
  static mrope_item video(std::int64_t t, std::int64_t h, std::int64_t w, double seconds_per_grid = 1.0) {
    return {mrope_item_kind::video, 0, {t, h, w}, seconds_per_grid};
  }
};

struct mrope_position_ids {
  std::vector<std::int32_t> positions;  // [3][tokens]: positions[a·tokens + i], a = t, h, w
  std::int64_t tokens = 0;
  std::int64_t delta = 0;               // HF mrope_position_deltas (rope_deltas)
};

// The position ids of `items` (see the top of this file for the maths, range and errors).
mrope_position_ids mrope_positions(std::span<const mrope_item> items, int spatial_merge,
                                   mrope_model model, double tokens_per_second = 0.0);

}  // namespace posenc
