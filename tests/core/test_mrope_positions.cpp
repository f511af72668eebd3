// test_mrope_positions.cpp — M-RoPE position ids against Hugging Face transformers: the
// worked examples of the get_rope_index docstrings (models/qwen2_vl/modeling_qwen2_vl.py
// Qwen2VLModel.get_rope_index, models/qwen2_5_vl/modeling_qwen2_5_vl.py
// Qwen2_5_VLModel.get_rope_index), a transcription of HF's loop over token ids (it finds
// each image / video by its placeholder token, as HF does) on real Qwen2-VL shapes, and
// every refused input.
#include "posenc/errors.hpp"
#include "posenc/mrope_positions.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using posenc::mrope_item;
using posenc::mrope_model;
using posenc::mrope_positions;

namespace {

using ids3 = std::array<std::vector<std::int64_t>, 3>;

constexpr std::int64_t text_id = 1, start_id = 2, image_id = 3, video_id = 4;

// Token ids for the items: text → text_id (a text run right before a visual item ends with
// <|vision_start|>, as in HF prompts), a visual item → its placeholder tokens.
std::vector<std::int64_t> token_ids(const std::vector<mrope_item>& items, int m) {
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const mrope_item& it = items[i];
    if (it.kind == posenc::mrope_item_kind::text) {
      const bool before_visual = i + 1 < items.size() && items[i + 1].kind != posenc::mrope_item_kind::text;
      for (std::int64_t k = 0; k < it.text; ++k) ids.push_back(before_visual && k + 1 == it.text ? start_id : text_id);
    } else {
      const auto n = it.grid[0] * (it.grid[1] / m) * (it.grid[2] / m);
      ids.insert(ids.end(), static_cast<std::size_t>(n), it.kind == posenc::mrope_item_kind::image ? image_id : video_id);
    }
  }
  return ids;
}

// HF get_rope_index for one unpadded sequence, line by line (Qwen2-VL; Qwen2.5-VL when
// tokens_per_second > 0: second_per_grid_t = 0 for images, the video's entry for videos,
// time = (arange(t) · s · tokens_per_second).long() in float32).
ids3 hf_get_rope_index(const std::vector<std::int64_t>& input_tokens, std::vector<std::array<std::int64_t, 3>> image_grid_thw,
                       std::vector<std::array<std::int64_t, 3>> video_grid_thw, std::vector<float> second_per_grid_ts,
                       int spatial_merge_size, float tokens_per_second, std::int64_t& delta) {
  std::int64_t image_nums = 0, video_nums = 0;
  for (std::size_t i = 0; i + 1 < input_tokens.size(); ++i)
    if (input_tokens[i] == start_id) {
      image_nums += input_tokens[i + 1] == image_id;
      video_nums += input_tokens[i + 1] == video_id;
    }
  auto index_of = [&](std::int64_t id, std::size_t st) {
    return std::size_t(std::find(input_tokens.begin() + std::ptrdiff_t(st), input_tokens.end(), id) - input_tokens.begin());
  };
  std::vector<ids3> llm_pos_ids_list;
  auto max_of = [](const ids3& b) {
    std::int64_t m = INT64_MIN;
    for (const auto& row : b) for (auto v : row) m = std::max(m, v);
    return m;
  };
  std::size_t st = 0, image_index = 0, video_index = 0;
  std::int64_t remain_images = image_nums, remain_videos = video_nums;
  for (std::int64_t k = 0; k < image_nums + video_nums; ++k) {
    const std::size_t ed_image = remain_images > 0 ? index_of(image_id, st) : input_tokens.size() + 1;
    const std::size_t ed_video = remain_videos > 0 ? index_of(video_id, st) : input_tokens.size() + 1;
    std::array<std::int64_t, 3> thw;
    float second_per_grid_t;
    std::size_t ed;
    if (ed_image < ed_video) {
      thw = image_grid_thw[image_index++];
      second_per_grid_t = 0;
      --remain_images;
      ed = ed_image;
    } else {
      second_per_grid_t = second_per_grid_ts.empty() ? 1.0f : second_per_grid_ts[video_index];
      thw = video_grid_thw[video_index++];
      --remain_videos;
      ed = ed_video;
    }
    const std::int64_t llm_grid_t = thw[0], llm_grid_h = thw[1] / spatial_merge_size, llm_grid_w = thw[2] / spatial_merge_size;
    const auto text_len = std::int64_t(ed - st);
    const std::int64_t st_idx = llm_pos_ids_list.empty() ? 0 : max_of(llm_pos_ids_list.back()) + 1;
    ids3 text;
    for (auto& row : text) for (std::int64_t p = 0; p < text_len; ++p) row.push_back(p + st_idx);
    llm_pos_ids_list.push_back(text);
    ids3 vis;
    for (std::int64_t t = 0; t < llm_grid_t; ++t)
      for (std::int64_t h = 0; h < llm_grid_h; ++h)
        for (std::int64_t w = 0; w < llm_grid_w; ++w) {
          const std::int64_t t_index = tokens_per_second > 0
              ? std::int64_t(float(float(t) * second_per_grid_t) * tokens_per_second) : t;
          vis[0].push_back(t_index + text_len + st_idx);
          vis[1].push_back(h + text_len + st_idx);
          vis[2].push_back(w + text_len + st_idx);
        }
    llm_pos_ids_list.push_back(vis);
    st = ed + std::size_t(llm_grid_t * llm_grid_h * llm_grid_w);
  }
  if (st < input_tokens.size()) {
    const std::int64_t st_idx = llm_pos_ids_list.empty() ? 0 : max_of(llm_pos_ids_list.back()) + 1;
    ids3 text;
    for (auto& row : text) for (std::size_t p = 0; p < input_tokens.size() - st; ++p) row.push_back(std::int64_t(p) + st_idx);
    llm_pos_ids_list.push_back(text);
  }
  ids3 all;
  for (const auto& b : llm_pos_ids_list) for (int a = 0; a < 3; ++a) all[a].insert(all[a].end(), b[a].begin(), b[a].end());
  delta = max_of(all) + 1 - std::int64_t(input_tokens.size());
  return all;
}

// posenc's positions as [3][tokens] rows.
ids3 rows(const posenc::mrope_position_ids& r) {
  ids3 out;
  for (int a = 0; a < 3; ++a)
    for (std::int64_t i = 0; i < r.tokens; ++i) out[a].push_back(r.positions[std::size_t(a * r.tokens + i)]);
  return out;
}

void require_hf(const std::vector<mrope_item>& items, int m, mrope_model model, double tps) {
  std::vector<std::array<std::int64_t, 3>> images, videos;
  std::vector<float> seconds;
  for (const auto& it : items) {
    if (it.kind == posenc::mrope_item_kind::image) images.push_back(it.grid);
    if (it.kind == posenc::mrope_item_kind::video) {
      videos.push_back(it.grid);
      seconds.push_back(float(it.seconds_per_grid));
    }
  }
  std::int64_t hf_delta = 0;
  const ids3 hf = hf_get_rope_index(token_ids(items, m), images, videos, seconds, m,
                                    model == mrope_model::qwen2_5_vl ? float(tps) : 0.0f, hf_delta);
  const auto r = mrope_positions(items, m, model, tps);
  REQUIRE(r.tokens == std::int64_t(hf[0].size()));
  CHECK(rows(r) == hf);
  CHECK(r.delta == hf_delta);
}

}  // namespace

TEST_CASE("mrope_positions: the get_rope_index docstring examples (3 frames of 2×2, then 5 text tokens)") {
  const std::vector<std::int64_t> h{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, w{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  const auto expect = [&](const posenc::mrope_position_ids& r, std::vector<std::int64_t> t, std::int64_t text) {
    ids3 want{t, h, w};
    for (auto& row : want) for (std::int64_t p = text; p < text + 5; ++p) row.push_back(p);
    CHECK(rows(r) == want);
    CHECK(r.delta == text + 5 - 17);
  };
  // Qwen2-VL: vision t [0,0,0,0,1,1,1,1,2,2,2,2], text 3 … 7.
  expect(mrope_positions(std::vector<mrope_item>{mrope_item::video(3, 4, 4), mrope_item::text_run(5)}, 2,
                         mrope_model::qwen2_vl),
         {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, 3);
  // Qwen2.5-VL: interval tokens_per_second · temporal_patch_size / fps = 25 · 2 / 1 = 50; text 101 … 105.
  expect(mrope_positions(std::vector<mrope_item>{mrope_item::video(3, 4, 4, 2.0), mrope_item::text_run(5)}, 2,
                         mrope_model::qwen2_5_vl, 25),
         {0, 0, 0, 0, 50, 50, 50, 50, 100, 100, 100, 100}, 101);
}

TEST_CASE("mrope_positions: HF's loop over token ids, real Qwen2-VL shapes") {
  using I = mrope_item;
  // A 448×448 image: 32×32 patches of 14 px, merged 2×2 → 16×16 = 256 tokens.
  const std::vector<I> image{I::text_run(15), I::image(1, 32, 32), I::text_run(9)};
  // A 4-frame video (temporal patch 2 → t = 2) at 336×252 px, then a second image and text.
  const std::vector<I> mixed{I::text_run(3), I::video(2, 24, 18, 0.5), I::text_run(2), I::image(1, 8, 44),
                             I::text_run(4), I::video(5, 4, 2, 1.5), I::text_run(1)};
  const std::vector<I> edges{I::image(1, 2, 2), I::text_run(1), I::video(1, 2, 2), I::text_run(0), I::text_run(3)};
  for (const auto& items : {image, mixed, edges}) {
    require_hf(items, 2, mrope_model::qwen2_vl, 0);
    for (double tps : {2.0, 25.0, 0.7}) require_hf(items, 2, mrope_model::qwen2_5_vl, tps);
  }
  const auto r = mrope_positions(image, 2, mrope_model::qwen2_vl);
  CHECK(r.tokens == 15 + 256 + 9);
  CHECK(r.positions[std::size_t(r.tokens - 1)] == 15 + 16 + 8);  // text after the image: 31 … 39
  CHECK(r.delta == 40 - 280);
}

TEST_CASE("mrope_positions: Qwen3-VL takes a video frame by frame") {
  using I = mrope_item;
  // HF splits video_grid_thw into frames (t = 1), each <timestamp> <vision_start> … <vision_end>:
  // then Qwen2-VL's loop, so frames listed as items with text between are Qwen2-VL's positions.
  const std::vector<I> frames{I::text_run(2), I::video(1, 4, 4), I::text_run(3), I::video(1, 4, 4), I::text_run(2)};
  const auto r = mrope_positions(frames, 2, mrope_model::qwen3_vl);
  CHECK(rows(r) == rows(mrope_positions(frames, 2, mrope_model::qwen2_vl)));
  CHECK(rows(r)[0] == std::vector<std::int64_t>{0, 1, 2, 2, 2, 2, 4, 5, 6, 7, 7, 7, 7, 9, 10});
  require_hf(frames, 2, mrope_model::qwen2_vl, 0);
  // Images are Qwen2-VL's; a video of t > 1 is refused (its frames need their own items).
  const std::vector<I> img{I::text_run(1), I::image(2, 4, 6)};
  CHECK(rows(mrope_positions(img, 2, mrope_model::qwen3_vl)) == rows(mrope_positions(img, 2, mrope_model::qwen2_vl)));
  posenc::test::require_throws<posenc::invalid_argument>(
      [] { (void)mrope_positions(std::vector<I>{I::text_run(1), I::video(3, 4, 4)}, 2, mrope_model::qwen3_vl); },
      "items[1].video[0] (t) must be 1 for qwen3-vl, got 3");
}

TEST_CASE("mrope_positions: text only and empty") {
  const auto r = mrope_positions(std::vector<mrope_item>{mrope_item::text_run(4)}, 2, mrope_model::qwen2_vl);
  CHECK(rows(r) == ids3{{{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}}});
  CHECK(r.delta == 0);
  const auto e = mrope_positions(std::vector<mrope_item>{}, 2, mrope_model::qwen2_vl);
  CHECK(e.tokens == 0);
  CHECK(e.positions.empty());
  CHECK(e.delta == 0);
}

TEST_CASE("mrope_positions: refused input names the argument") {
  using posenc::test::require_throws;
  using I = mrope_item;
  const auto call = [](std::vector<I> items, int m = 2, mrope_model model = mrope_model::qwen2_vl, double tps = 2) {
    return [=] { (void)mrope_positions(items, m, model, tps); };
  };
  require_throws<posenc::invalid_argument>(call({I::image(1, 4, 4)}, 0), "spatial_merge");
  require_throws<posenc::invalid_argument>(call({I::image(1, 4, 4)}, 1025), "spatial_merge");
  require_throws<posenc::invalid_argument>(call({I::text_run(2), I::image(0, 4, 4)}), "items[1].image[0] (t)");
  require_throws<posenc::invalid_argument>(call({I::image(1, -2, 4)}), "items[0].image[1] (h)");
  require_throws<posenc::invalid_argument>(call({I::video(1, 4, 6)}, 4), "items[0].video[2] (w) must be a multiple of spatial_merge (4)");
  require_throws<posenc::invalid_argument>(call({I::image(1, 4, std::int64_t{1} << 31)}), "items[0].image[2]");
  require_throws<posenc::invalid_argument>(call({I::text_run(-1)}), "items[0].text");
  require_throws<posenc::length_error>(call({I::text_run(1 << 26), I::text_run(1)}), "items hold more than 67108864");
  require_throws<posenc::length_error>(call({I::video(1 << 20, 1 << 20, 1 << 20)}, 1), "2^26");
  require_throws<posenc::invalid_argument>(call({I::video(2, 2, 2, 0.5)}, 2, mrope_model::qwen2_5_vl, 0), "tokens_per_second");
  require_throws<posenc::invalid_argument>(call({I::video(2, 2, 2, -1)}, 2, mrope_model::qwen2_5_vl), "items[0].seconds_per_grid");
  require_throws<posenc::invalid_argument>(call({I::video(2, 2, 2, NAN)}, 2, mrope_model::qwen2_5_vl), "items[0].seconds_per_grid");
  require_throws<posenc::invalid_argument>(call({I::image(1, 2, 2)}, 2, mrope_model::qwen2_vl, INFINITY), "tokens_per_second");
  // int32 positions: a 2-frame video 2^24 s apart at 2^8 tokens per second reaches 2^32.
  require_throws<posenc::invalid_argument>(call({I::video(2, 2, 2, 16777216.0)}, 2, mrope_model::qwen2_5_vl, 256),
                                           "items[0] takes positions past 2147483647");
  // The largest times that fit are kept: 2^23 s per grid at 255 tokens per second.
  const auto ok = mrope_positions(std::vector<I>{I::text_run(1), I::video(2, 2, 2, 8388608.0)}, 2,
                                  mrope_model::qwen2_5_vl, 255);
  CHECK(rows(ok)[0] == std::vector<std::int64_t>{0, 1, 1 + 2139095040});
  CHECK(ok.delta == 2139095042 - 3);
  // Enums cast from integers outside their values: refused, never computed as another kind.
  require_throws<posenc::invalid_argument>(call({I::image(1, 2, 2)}, 2, static_cast<mrope_model>(3)), "model must be");
  require_throws<posenc::invalid_argument>(call({I::image(1, 2, 2)}, 2, static_cast<mrope_model>(-1)), "got -1");
  I bad = I::image(1, 2, 2);
  bad.kind = static_cast<posenc::mrope_item_kind>(3);
  require_throws<posenc::invalid_argument>(call({I::text_run(1), bad}), "items[1].kind");
  bad.kind = static_cast<posenc::mrope_item_kind>(-7);
  require_throws<posenc::invalid_argument>(call({bad}), "items[0].kind");
  require_throws<posenc::invalid_argument>([] { (void)posenc::parse_mrope_model("qwen2_vl"); }, "model must be");
  // A caller's string is quoted short and escaped, never echoed verbatim.
  require_throws<posenc::invalid_argument>([] { (void)posenc::parse_mrope_model("a\nb\x1b[31m"); },
                                           "got 'a\\nb\\u{1b}[31m'");
  require_throws<posenc::invalid_argument>([] { (void)posenc::parse_mrope_model(std::string(1 << 20, 'x')); },
                                           "…' (1048576 bytes)");
  CHECK(posenc::parse_mrope_model("qwen2.5-vl") == mrope_model::qwen2_5_vl);
  CHECK(posenc::to_string(mrope_model::qwen3_vl) == "qwen3-vl");
}
