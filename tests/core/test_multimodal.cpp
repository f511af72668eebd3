// test_multimodal.cpp — M-RoPE (Qwen2-VL / Qwen2.5-VL contiguous, Qwen3-VL interleaved) and
// the 2-D rotary of vision towers (Qwen2-VL, Pixtral), against float64 references written
// here line by line from Hugging Face transformers' code (each names its file and
// function), on the real models' shapes and at large positions; text-only positions against
// plain RoPE bit for bit; every refused input.
#include "posenc/axes.hpp"
#include "posenc/axes_positions.hpp"
#include "posenc/errors.hpp"
#include "posenc/multimodal.hpp"
#include "posenc/rotary.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using posenc::rope_axes_kind;
using posenc::rope_config;
using posenc::rope_layout;
using posenc::rotary_cache;
using posenc::tensor_view;

namespace {

using rows64 = std::vector<std::vector<double>>;  // [tokens][head_dim] full-width cos or sin

// ── float64 references, written from HF transformers ────────────────────────────────────

// 1 / base ** (arange(0, dim, 2) / dim), in float64 (HF computes it in float32).
std::vector<double> hf_inv_freq(int dim, double base) {
  std::vector<double> f;
  for (int j = 0; j < dim; j += 2) f.push_back(1.0 / std::pow(base, double(j) / dim));
  return f;
}

// torch.cat((freqs, freqs), dim=-1)
std::vector<double> doubled(const std::vector<double>& freqs) {
  std::vector<double> e = freqs;
  e.insert(e.end(), freqs.begin(), freqs.end());
  return e;
}

// models/qwen2_vl/modeling_qwen2_vl.py: Qwen2VLRotaryEmbedding.forward gives cos/sin of
// emb = cat(freqs, freqs) per axis, freqs[a] = position_ids[a] · inv_freq; then
// apply_multimodal_rotary_pos_emb: mrope_section = mrope_section * 2;
// cos = cat([m[i % 3] for i, m in enumerate(cos.split(mrope_section, dim=-1))], dim=-1).
void hf_qwen2vl_mrope(const std::vector<std::array<double, 3>>& pos, int dim, double base,
                      std::array<int, 3> section, rows64& cos, rows64& sin) {
  const auto inv = hf_inv_freq(dim, base);
  const std::array<int, 6> split = {section[0], section[1], section[2],
                                    section[0], section[1], section[2]};
  cos.assign(pos.size(), {});
  sin.assign(pos.size(), {});
  for (std::size_t t = 0; t < pos.size(); ++t) {
    std::array<std::vector<double>, 3> emb;
    for (int a = 0; a < 3; ++a) {
      std::vector<double> freqs;
      for (double f : inv) freqs.push_back(pos[t][a] * f);
      emb[a] = doubled(freqs);
    }
    int e = 0;
    for (int chunk = 0; chunk < 6; ++chunk)
      for (int k = 0; k < split[chunk]; ++k, ++e) {
        cos[t].push_back(std::cos(emb[chunk % 3][e]));
        sin[t].push_back(std::sin(emb[chunk % 3][e]));
      }
  }
}

// models/qwen3_vl/modeling_qwen3_vl.py: Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope:
// freqs_t = freqs[0]; for dim, offset in enumerate((1, 2), start=1):
//   length = mrope_section[dim] * 3; idx = slice(offset, length, 3);
//   freqs_t[..., idx] = freqs[dim, ..., idx]
// then forward: emb = cat((freqs_t, freqs_t), dim=-1); cos = emb.cos(); sin = emb.sin().
void hf_qwen3vl_mrope(const std::vector<std::array<double, 3>>& pos, int dim, double base,
                      std::array<int, 3> section, rows64& cos, rows64& sin) {
  const auto inv = hf_inv_freq(dim, base);
  const int half = dim / 2;
  cos.assign(pos.size(), {});
  sin.assign(pos.size(), {});
  for (std::size_t t = 0; t < pos.size(); ++t) {
    std::vector<double> freqs_t(half);
    for (int i = 0; i < half; ++i) freqs_t[i] = pos[t][0] * inv[i];
    for (int d = 1; d <= 2; ++d)
      for (int i = d; i < section[d] * 3 && i < half; i += 3) freqs_t[i] = pos[t][d] * inv[i];
    for (double a : doubled(freqs_t)) {
      cos[t].push_back(std::cos(a));
      sin[t].push_back(std::sin(a));
    }
  }
}

// models/qwen2_vl/modeling_qwen2_vl.py: VisionRotaryEmbedding(dim = head_dim // 2):
// inv_freq = 1 / theta ** (arange(0, dim, 2) / dim), forward(seqlen) = outer(seq, inv_freq);
// Qwen2VisionTransformerPretrainedModel.rot_pos_emb: rotary_pos_emb_full[pos_ids].flatten(1)
// with pos_ids = stack([hpos_ids, wpos_ids], -1), i.e. cat(row·inv_freq, col·inv_freq);
// VisionAttention: emb = cat((rotary_pos_emb, rotary_pos_emb), dim=-1), cos/sin of it.
void hf_qwen2vl_vision(const std::vector<std::array<double, 2>>& pos, int head_dim,
                       double theta, rows64& cos, rows64& sin) {
  const auto inv = hf_inv_freq(head_dim / 2, theta);
  cos.assign(pos.size(), {});
  sin.assign(pos.size(), {});
  for (std::size_t t = 0; t < pos.size(); ++t) {
    std::vector<double> rpe;
    for (double f : inv) rpe.push_back(pos[t][0] * f);
    for (double f : inv) rpe.push_back(pos[t][1] * f);
    for (double a : doubled(rpe)) {
      cos[t].push_back(std::cos(a));
      sin[t].push_back(std::sin(a));
    }
  }
}

// models/pixtral/modeling_pixtral.py: PixtralRotaryEmbedding.__init__:
// freqs = 1 / base ** (arange(0, dim, 2) / dim); freqs_h = outer(h, freqs[::2]);
// freqs_w = outer(w, freqs[1::2]); inv_freq = cat([freqs_h …, freqs_w …], -1) per (h, w);
// inv_freq = cat((inv_freq, inv_freq), -1); forward: cos/sin of inv_freq[position_ids].
// (Mistral's precompute_freqs_cis_2d builds the same dim/2 angles, as complex numbers.)
std::vector<double> pixtral_angles(double row, double col, int dim, double base) {
  const auto freqs = hf_inv_freq(dim, base);
  std::vector<double> a;
  for (std::size_t j = 0; j < freqs.size(); j += 2) a.push_back(row * freqs[j]);
  for (std::size_t j = 1; j < freqs.size(); j += 2) a.push_back(col * freqs[j]);
  return a;
}

void hf_pixtral(const std::vector<std::array<double, 2>>& pos, int dim, double base,
                rows64& cos, rows64& sin) {
  cos.assign(pos.size(), {});
  sin.assign(pos.size(), {});
  for (std::size_t t = 0; t < pos.size(); ++t)
    for (double a : doubled(pixtral_angles(pos[t][0], pos[t][1], dim, base))) {
      cos[t].push_back(std::cos(a));
      sin[t].push_back(std::sin(a));
    }
}

// The HF rotation of one head row with full-width cos/sin (models/llama/modeling_llama.py:
// apply_rotary_pos_emb, rotate_half(x) = cat((-x2, x1))): q·cos + rotate_half(q)·sin.
std::vector<double> hf_rotate_half(const float* x, const std::vector<double>& cos,
                                   const std::vector<double>& sin) {
  const std::size_t d = cos.size(), h = d / 2;
  std::vector<double> out(d);
  for (std::size_t j = 0; j < d; ++j) {
    const double rot = j < h ? -double(x[j + h]) : double(x[j - h]);
    out[j] = double(x[j]) * cos[j] + rot * sin[j];
  }
  return out;
}

// Mistral's interleaved form (mistral_inference vision_encoder / vLLM models/pixtral.py:
// apply_rotary_emb_vit): view_as_complex(x.reshape(-1, 2)) · polar(1, angle).
std::vector<double> complex_rotate(const float* x, const std::vector<double>& angles) {
  std::vector<double> out(2 * angles.size());
  for (std::size_t i = 0; i < angles.size(); ++i) {
    const double a = x[2 * i], b = x[2 * i + 1], c = std::cos(angles[i]), s = std::sin(angles[i]);
    out[2 * i] = a * c - b * s;
    out[2 * i + 1] = a * s + b * c;
  }
  return out;
}

// ── helpers ───────────────────────────────────────────────────────────────────────────

using posenc::test::random_tensor;

// posenc's [axes][tokens] int32 positions of per-token tuples.
template <std::size_t A>
std::vector<std::int32_t> axis_major(const std::vector<std::array<double, A>>& pos) {
  std::vector<std::int32_t> ids(A * pos.size());
  for (std::size_t a = 0; a < A; ++a)
    for (std::size_t t = 0; t < pos.size(); ++t)
      ids[a * pos.size() + t] = static_cast<std::int32_t>(pos[t][a]);
  return ids;
}

// Every rotated element within 4e−7·(|a| + |b|) of the reference (rotary.hpp's bound for
// |p| ≤ 2^24), pairs as the layout forms them.
void check_close(const std::vector<float>& in, const std::vector<float>& out,
                 const std::vector<std::vector<double>>& ref_rows, std::int64_t heads,
                 int dim, rope_layout layout) {
  double worst = 0;
  for (std::size_t r = 0; r < ref_rows.size(); ++r) {
    const std::size_t base = r * static_cast<std::size_t>(dim);
    for (int j = 0; j < dim; ++j) {
      const int partner = layout == rope_layout::half ? (j < dim / 2 ? j + dim / 2 : j - dim / 2)
                                                      : (j ^ 1);
      const double scale = std::abs(in[base + j]) + std::abs(in[base + partner]);
      const double err = std::abs(double(out[base + j]) - ref_rows[r][j]);
      worst = std::max(worst, err / (scale + 1e-30));
    }
  }
  INFO("heads " << heads << ", worst error / (|a| + |b|) = " << worst);
  CHECK(worst <= 4e-7);
}

// Rows of the reference for x [tokens][heads][dim] rotated by per-token cos/sin (half).
std::vector<std::vector<double>> reference_half(const std::vector<float>& x, std::int64_t heads,
                                                int dim, const rows64& cos, const rows64& sin) {
  std::vector<std::vector<double>> out;
  for (std::size_t t = 0; t < cos.size(); ++t)
    for (std::int64_t h = 0; h < heads; ++h)
      out.push_back(hf_rotate_half(&x[(t * heads + h) * dim], cos[t], sin[t]));
  return out;
}

// A Qwen2-VL style sequence (HF get_rope_index): `lead` text tokens at t = h = w = start + i,
// then a grid of frames × rows × cols vision tokens at (start + lead + f, + r, + c), then
// text again from max + 1.
std::vector<std::array<double, 3>> vl_positions(double start, int lead, int frames, int rows,
                                                int cols, int tail) {
  std::vector<std::array<double, 3>> pos;
  for (int i = 0; i < lead; ++i) pos.push_back({start + i, start + i, start + i});
  const double v0 = start + lead;
  for (int f = 0; f < frames; ++f)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) pos.push_back({v0 + f, v0 + r, v0 + c});
  const double next = v0 + std::max({frames, rows, cols});
  for (int i = 0; i < tail; ++i) pos.push_back({next + i, next + i, next + i});
  return pos;
}

rope_config mrope_config(int head_dim, double base, std::array<int, 3> section,
                         bool interleaved) {
  rope_config c{.head_dim = head_dim, .base = base};
  c.axes = {interleaved ? rope_axes_kind::mrope_interleaved : rope_axes_kind::mrope, section};
  return c;
}

}  // namespace

TEST_CASE("axes names parse and print; axis counts", "[multimodal]") {
  for (const char* name : {"none", "mrope", "mrope-interleaved", "mrope-hw", "qwen2-vl", "pixtral"})
    CHECK(posenc::to_string(posenc::parse_rope_axes(name)) == name);
  posenc::test::require_throws<posenc::invalid_argument>(
      [] { (void)posenc::parse_rope_axes("2d"); }, "axes");
  CHECK(posenc::axis_count(rope_axes_kind::mrope) == 3);
  CHECK(posenc::axis_count(rope_axes_kind::vision_pixtral) == 2);
  CHECK(posenc::axis_count(rope_axes_kind::none) == 1);
}

TEST_CASE("Qwen2-VL / Qwen2.5-VL M-RoPE matches HF apply_multimodal_rotary_pos_emb",
          "[multimodal]") {
  // Qwen2-VL-7B / Qwen2.5-VL: head_dim 128, rope_theta 1e6, mrope_section [16, 24, 24]; a
  // 64-dim variant with [8, 12, 12]; starts up to ~2^20 (long video context).
  struct shape { int dim; std::array<int, 3> section; double start; };
  const shape shapes[] = {{128, {16, 24, 24}, 0}, {128, {16, 24, 24}, 1048000},
                          {64, {8, 12, 12}, 5000}};
  for (const shape& s : shapes) {
    const auto pos = vl_positions(s.start, 3, 2, 3, 4, 3);
    const std::int64_t heads = 4, tokens = static_cast<std::int64_t>(pos.size());
    const rotary_cache cache(mrope_config(s.dim, 1e6, s.section, false));
    auto x = random_tensor(static_cast<std::size_t>(tokens * heads * s.dim), 11);
    const auto in = x;
    const auto ids = axis_major(pos);
    posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, s.dim), ids);
    rows64 cos, sin;
    hf_qwen2vl_mrope(pos, s.dim, 1e6, s.section, cos, sin);
    INFO("head_dim " << s.dim << " start " << s.start);
    check_close(in, x, reference_half(in, heads, s.dim, cos, sin), heads, s.dim,
                rope_layout::half);
  }
}

TEST_CASE("Qwen3-VL interleaved M-RoPE matches HF apply_interleaved_mrope", "[multimodal]") {
  // Qwen3-VL: head_dim 128, rope_theta 5e6, mrope_section [24, 20, 20], mrope_interleaved.
  for (double start : {0.0, 3000000.0}) {
    const auto pos = vl_positions(start, 2, 3, 4, 5, 2);
    const std::int64_t heads = 3, tokens = static_cast<std::int64_t>(pos.size());
    const rotary_cache cache(mrope_config(128, 5e6, {24, 20, 20}, true));
    auto x = random_tensor(static_cast<std::size_t>(tokens * heads * 128), 12);
    const auto in = x;
    posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, 128),
                       axis_major(pos));
    rows64 cos, sin;
    hf_qwen3vl_mrope(pos, 128, 5e6, {24, 20, 20}, cos, sin);
    INFO("start " << start);
    check_close(in, x, reference_half(in, heads, 128, cos, sin), heads, 128, rope_layout::half);
  }
  // The rung map itself: rungs 1, 4, …, 58 are h, 2, 5, …, 59 are w, the rest t.
  const rotary_cache cache(mrope_config(128, 5e6, {24, 20, 20}, true));
  const auto axis = cache.pair_axis();
  REQUIRE(axis.size() == 64);
  int count[3] = {0, 0, 0};
  for (std::size_t i = 0; i < 64; ++i) {
    ++count[axis[i]];
    const int expected = i < 60 ? static_cast<int>(i % 3) : 0;
    CHECK(axis[i] == expected);
  }
  CHECK(count[0] == 24);
  CHECK(count[1] == 20);
  CHECK(count[2] == 20);
}

TEST_CASE("ERNIE 4.5 VL's M-RoPE 'hw': h the even, w the odd rungs of the first h + w, t the rest",
          "[multimodal]") {
  // Ernie4_5_VLMoeTextRotaryEmbedding.recomposition_to_3d: freq_hw = stack(h, w) restores
  // rung order over the first 44 rungs (h on the even ones, w on the odd), then t's 20.
  rope_config c{.head_dim = 128, .base = 500000.0, .layout = rope_layout::interleaved};
  c.axes = {rope_axes_kind::mrope_hw, {20, 22, 22}};
  const rotary_cache cache(c);
  CHECK(cache.axes() == 3);
  CHECK(cache.shared_ladder());
  CHECK(cache.axes_name() == "mrope-hw");
  const auto axis = cache.pair_axis();
  REQUIRE(axis.size() == 64);
  for (std::size_t i = 0; i < 64; ++i) CHECK(axis[i] == (i < 44 ? 1 + i % 2 : 0));
  rope_config plain = c;
  plain.axes = {};
  const rotary_cache flat(plain);
  CHECK(std::equal(flat.inv_freq().begin(), flat.inv_freq().end(), cache.inv_freq().begin()));
  c.axes.section = {20, 20, 24};  // torch.stack of 20 h and 24 w rungs fails in HF
  posenc::test::require_throws<posenc::invalid_argument>([&] { (void)rotary_cache(c); },
                                                         "needs section[1] == section[2]");
}

TEST_CASE("M-RoPE with partial rotary: sections cover rotaryDim/2, the rest passes through",
          "[multimodal]") {
  // A Qwen3.5-style partial interleaved M-RoPE: head_dim 128, rotary_dim 64, [11, 11, 10].
  rope_config c = mrope_config(128, 1e7, {11, 11, 10}, true);
  c.rotary_dim = 64;
  const rotary_cache cache(c);
  const auto pos = vl_positions(100, 2, 1, 3, 3, 1);
  const std::int64_t heads = 2, tokens = static_cast<std::int64_t>(pos.size());
  auto x = random_tensor(static_cast<std::size_t>(tokens * heads * 128), 13);
  const auto in = x;
  posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, 128),
                     axis_major(pos));
  rows64 cos, sin;
  hf_qwen3vl_mrope(pos, 64, 1e7, {11, 11, 10}, cos, sin);
  double worst = 0;
  for (std::int64_t r = 0; r < tokens * heads; ++r) {
    const auto ref = hf_rotate_half(&in[r * 128], cos[r / heads], sin[r / heads]);
    for (int j = 0; j < 64; ++j) worst = std::max(worst, std::abs(x[r * 128 + j] - ref[j]));
    for (int j = 64; j < 128; ++j) CHECK(x[r * 128 + j] == in[r * 128 + j]);
  }
  CHECK(worst <= 8e-7);
}

TEST_CASE("text-only M-RoPE positions (t = h = w) equal plain RoPE bit for bit",
          "[multimodal]") {
  for (const bool interleaved_axes : {false, true})
    for (const rope_layout layout : {rope_layout::half, rope_layout::interleaved}) {
      rope_config mc = interleaved_axes ? mrope_config(128, 1e6, {24, 20, 20}, true)
                                        : mrope_config(128, 1e6, {16, 24, 24}, false);
      mc.layout = layout;
      rope_config pc{.head_dim = 128, .base = 1e6, .layout = layout};
      // Positions in and out of the caches, and huge ones.
      const std::vector<std::int32_t> p = {0, 5, 17, 40, 41, 2000000000, -7, 123456789};
      for (const std::int64_t cache_count : {0, 50}) {
        const rotary_cache m(mc, 0, cache_count), plain(pc, 0, cache_count);
        const std::int64_t tokens = static_cast<std::int64_t>(p.size()), heads = 5;
        auto a = random_tensor(static_cast<std::size_t>(tokens * heads * 128), 14);
        auto b = a;
        std::vector<std::int32_t> ids;
        for (int k = 0; k < 3; ++k) ids.insert(ids.end(), p.begin(), p.end());
        posenc::rope_apply(m, tensor_view::dense(a.data(), a.size(), tokens, heads, 128), ids);
        posenc::rope_apply(plain, tensor_view::dense(b.data(), b.size(), tokens, heads, 128), p);
        CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
        // start + t is every axis at start + t.
        auto c2 = random_tensor(static_cast<std::size_t>(7 * heads * 128), 15);
        auto d2 = c2;
        posenc::rope_apply(m, tensor_view::dense(c2.data(), c2.size(), 7, heads, 128),
                           std::int64_t{1} << 40);
        posenc::rope_apply(plain, tensor_view::dense(d2.data(), d2.size(), 7, heads, 128),
                           std::int64_t{1} << 40);
        CHECK(std::memcmp(c2.data(), d2.data(), c2.size() * sizeof(float)) == 0);
      }
    }
}

namespace {

// Every rope_scaling type M-RoPE models may carry (HF applies it to the one ladder all three
// axes share: Qwen2VLRotaryEmbedding / Qwen3VLTextRotaryEmbedding via ROPE_INIT_FUNCTIONS).
std::vector<posenc::scaling> every_scaling(int rotary_dim) {
  using posenc::scaling_type;
  std::vector<posenc::scaling> v(11);
  v[1].type = scaling_type::linear, v[1].factor = 4.0;
  v[2].type = scaling_type::dynamic, v[2].factor = 2.0, v[2].max_position_embeddings = 4096;
  v[2].seq_len = 20000;
  v[3].type = scaling_type::dynamic, v[3].alpha = 1000.0;
  v[4].type = scaling_type::yarn, v[4].factor = 4.0, v[4].original_max_position_embeddings = 32768;
  v[5] = v[4], v[5].factor = 8.0, v[5].mscale = 1.0, v[5].mscale_all_dim = 0.707, v[5].truncate = false;
  v[6].type = scaling_type::llama3, v[6].factor = 8.0, v[6].original_max_position_embeddings = 8192;
  v[7].type = scaling_type::longrope, v[7].original_max_position_embeddings = 4096;
  v[7].max_position_embeddings = 131072, v[7].seq_len = 8000;
  for (int i = 0; i < rotary_dim / 2; ++i) {
    v[7].short_factor.push_back(1.0 + 0.01 * i);
    v[7].long_factor.push_back(1.0 + 0.37 * i);
  }
  v[8] = v[7], v[8].seq_len = 100;  // short factors
  v[9].type = scaling_type::proportional, v[9].partial_rotary_factor = 0.25, v[9].factor = 2.0;
  v[10].type = scaling_type::none;
  return v;
}

// The axis rung i takes, by HF's rule: apply_multimodal_rotary_pos_emb (contiguous sections,
// the same in both halves) or Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (h at
// 1::3 below 3·s_h, w at 2::3 below 3·s_w, t elsewhere).
int hf_axis_of(int i, std::array<int, 3> s, bool interleaved) {
  if (interleaved) return i % 3 == 1 && i < 3 * s[1] ? 1 : i % 3 == 2 && i < 3 * s[2] ? 2 : 0;
  return i < s[0] ? 0 : i < s[0] + s[1] ? 1 : 2;
}

// The dims of rung i's pair in a head row.
std::array<int, 2> pair_dims(int i, int rotary_dim, rope_layout layout) {
  if (layout == rope_layout::interleaved) return {2 * i, 2 * i + 1};
  return {i, i + rotary_dim / 2};
}

}  // namespace

TEST_CASE("M-RoPE under every scaling type, empty sections and partial rotary: each pair is "
          "rotated exactly as plain RoPE of the same scaling rotates it at its axis' "
          "position (bit for bit)", "[multimodal]") {
  struct kind_case { bool interleaved; int head_dim, rotary_dim; std::array<int, 3> section; };
  const kind_case kinds[] = {{false, 128, 128, {16, 24, 24}}, {false, 128, 128, {64, 0, 0}},
                             {false, 128, 128, {0, 32, 32}},  {false, 128, 128, {0, 0, 64}},
                             {false, 128, 64, {11, 11, 10}},  {true, 128, 128, {24, 20, 20}},
                             {true, 128, 128, {64, 0, 0}},    {true, 128, 128, {43, 0, 21}},
                             {true, 96, 64, {11, 11, 10}}};
  // In and out of the cache, negative, past 2^24, 2^31 and up to 2^53.
  const std::vector<std::int64_t> values = {0, 1, 5, 39, 40, 41, 1000, -3, -70001, 1 << 24,
                                            (1 << 24) + 1, 2147483647, 123456789012LL,
                                            (std::int64_t{1} << 53) - 1, -(std::int64_t{1} << 53)};
  const auto tokens = static_cast<std::int64_t>(values.size());
  const std::int64_t heads = 2;
  for (const kind_case& k : kinds)
    for (const posenc::scaling& s : every_scaling(k.rotary_dim))
      for (const rope_layout layout : {rope_layout::half, rope_layout::interleaved})
        for (const std::int64_t count : {0, 40}) {
          rope_config pc{.head_dim = k.head_dim, .rotary_dim = k.rotary_dim, .base = 1e6,
                         .layout = layout};
          pc.scaling = s;
          rope_config mc = pc;
          mc.axes = {k.interleaved ? rope_axes_kind::mrope_interleaved : rope_axes_kind::mrope,
                     k.section};
          const rotary_cache m(mc, 0, count), plain(pc, 0, count);
          INFO("section " << k.section[0] << " " << k.section[1] << " " << k.section[2]
                          << (k.interleaved ? " interleaved" : "") << ", scaling "
                          << posenc::to_string(s.type) << ", layout " << posenc::to_string(layout)
                          << ", cache " << count);
          REQUIRE(m.inv_freq().size() == plain.inv_freq().size());
          CHECK(std::memcmp(m.inv_freq().data(), plain.inv_freq().data(),
                            plain.inv_freq().size() * sizeof(double)) == 0);
          CHECK(m.attention_factor() == plain.attention_factor());
          CHECK(m.axes() == 3);
          // Token t sits at (values[t], values[t + 5], values[t + 11]) (mod tokens); token 2
          // is a text token (t = h = w). Integer and real-valued positions.
          std::vector<std::int64_t> ids(static_cast<std::size_t>(3 * tokens));
          for (std::int64_t t = 0; t < tokens; ++t)
            for (int a = 0; a < 3; ++a)
              ids[static_cast<std::size_t>(a * tokens + t)] =
                  values[static_cast<std::size_t>((t + (t == 2 ? 0 : 5 * a + a / 2)) % tokens)];
          std::vector<double> reals(ids.begin(), ids.end());
          for (std::size_t i = 0; i < reals.size(); i += 4)
            if (std::abs(reals[i]) < 1e9) reals[i] += 0.375;
          const std::size_t n = static_cast<std::size_t>(tokens * heads * k.head_dim);
          const std::vector<float> x = random_tensor(n, 31);
          for (const bool real : {false, true}) {
            std::vector<float> got = x;
            std::array<std::vector<float>, 3> per_axis = {x, x, x};
            const auto view = [&](std::vector<float>& v) {
              return tensor_view::dense(v.data(), v.size(), tokens, heads, k.head_dim);
            };
            for (int a = 0; a < 3; ++a) {
              const auto at = static_cast<std::ptrdiff_t>(a * tokens);
              if (real)
                posenc::rope_apply(plain, view(per_axis[a]),
                                   std::span<const double>(reals.data() + at, tokens));
              else
                posenc::rope_apply(plain, view(per_axis[a]),
                                   std::span<const std::int64_t>(ids.data() + at, tokens));
            }
            if (real) posenc::rope_apply(m, view(got), std::span<const double>(reals));
            else posenc::rope_apply(m, view(got), std::span<const std::int64_t>(ids));
            std::vector<float> want = x;  // pass-through dims stay
            for (std::int64_t row = 0; row < tokens * heads; ++row)
              for (int i = 0; i < k.rotary_dim / 2; ++i)
                for (const int d : pair_dims(i, k.rotary_dim, layout)) {
                  const auto e = static_cast<std::size_t>(row * k.head_dim + d);
                  want[e] = per_axis[static_cast<std::size_t>(hf_axis_of(i, k.section, k.interleaved))][e];
                }
            CHECK(std::memcmp(got.data(), want.data(), n * sizeof(float)) == 0);
          }
        }
}

TEST_CASE("M-RoPE rows are the same with or without a cache; GQA equals two calls; "
          "inverse undoes it; interleaved layout is the half layout on permuted dims",
          "[multimodal]") {
  const auto pos = vl_positions(10, 4, 2, 5, 6, 4);
  const auto ids = axis_major(pos);
  const std::int64_t tokens = static_cast<std::int64_t>(pos.size());
  const rope_config c = mrope_config(128, 1e6, {16, 24, 24}, false);
  const rotary_cache uncached(c), cached(c, 0, 30);
  auto a = random_tensor(static_cast<std::size_t>(tokens * 2 * 128), 16);
  auto b = a;
  const auto in = a;
  posenc::rope_apply(uncached, tensor_view::dense(a.data(), a.size(), tokens, 2, 128), ids);
  posenc::rope_apply(cached, tensor_view::dense(b.data(), b.size(), tokens, 2, 128), ids);
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);

  auto q = in, k = random_tensor(static_cast<std::size_t>(tokens * 128), 17);
  const auto k0 = k;
  posenc::rope_apply_qk(cached, tensor_view::dense(q.data(), q.size(), tokens, 2, 128),
                        tensor_view::dense(k.data(), k.size(), tokens, 1, 128), ids);
  auto k_alone = k0;
  posenc::rope_apply(cached, tensor_view::dense(k_alone.data(), k_alone.size(), tokens, 1, 128),
                     ids);
  CHECK(std::memcmp(q.data(), a.data(), q.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(k.data(), k_alone.data(), k.size() * sizeof(float)) == 0);

  posenc::rope_apply(cached, tensor_view::dense(b.data(), b.size(), tokens, 2, 128), ids,
                     posenc::direction::inverse);
  for (std::size_t i = 0; i < b.size(); ++i) CHECK(std::abs(b[i] - in[i]) <= 1e-6f);

  // Interleaved layout: pair i is (2i, 2i + 1), with the same angle as half-layout pair i.
  rope_config ci = c;
  ci.layout = rope_layout::interleaved;
  const rotary_cache inter(ci);
  std::vector<float> perm(in.size());
  for (std::size_t r = 0; r < in.size() / 128; ++r)
    for (int i = 0; i < 64; ++i) {
      perm[r * 128 + 2 * i] = in[r * 128 + i];
      perm[r * 128 + 2 * i + 1] = in[r * 128 + 64 + i];
    }
  posenc::rope_apply(inter, tensor_view::dense(perm.data(), perm.size(), tokens, 2, 128), ids);
  double worst = 0;
  for (std::size_t r = 0; r < in.size() / 128; ++r)
    for (int i = 0; i < 64; ++i) {
      worst = std::max(worst, double(std::abs(perm[r * 128 + 2 * i] - a[r * 128 + i])));
      worst = std::max(worst, double(std::abs(perm[r * 128 + 2 * i + 1] - a[r * 128 + 64 + i])));
    }
  CHECK(worst <= 2e-7);
}

TEST_CASE("Qwen2-VL vision 2-D rotary matches HF VisionRotaryEmbedding + "
          "apply_rotary_pos_emb_vision", "[multimodal]") {
  // Qwen2-VL / Qwen2.5-VL vision tower: head_dim 80 (1280 / 16 heads), theta 10000; patch
  // rows and columns of a 14 × 20 grid, and a grid far out (row/col up to ~1e5).
  for (const double offset : {0.0, 100000.0}) {
    std::vector<std::array<double, 2>> pos;
    for (int r = 0; r < 14; ++r)
      for (int c = 0; c < 20; c += 3) pos.push_back({offset + r, offset + c});
    const std::int64_t heads = 3, tokens = static_cast<std::int64_t>(pos.size());
    rope_config cfg{.head_dim = 80, .base = 10000};
    cfg.axes.kind = rope_axes_kind::vision_qwen2vl;
    const rotary_cache cache(cfg, 0, 16);
    auto x = random_tensor(static_cast<std::size_t>(tokens * heads * 80), 18);
    const auto in = x;
    posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, 80),
                       axis_major(pos));
    rows64 cos, sin;
    hf_qwen2vl_vision(pos, 80, 10000, cos, sin);
    INFO("offset " << offset);
    check_close(in, x, reference_half(in, heads, 80, cos, sin), heads, 80, rope_layout::half);
  }
}

TEST_CASE("Muse Glimmer's vision rotary (axes 'muse-glimmer' on its grid) matches HF "
          "MuseGlimmerVisionRotaryEmbedding + apply_rotary_pos_emb_vision", "[multimodal]") {
  // models/muse_glimmer/modeling_muse_glimmer.py: spatial_dim = head_dim // 2, inv_freq =
  // 1 / base ** (arange(0, spatial_dim, 2) / spatial_dim); forward: freq = cat([w·inv_freq,
  // h·inv_freq, w·inv_freq, h·inv_freq]); MuseGlimmerVisionModel.forward: position_ids =
  // get_vision_position_ids(grid_thw, 1) (raster (row, col)) .flip(-1) + 1. Head 96 (1536 / 16).
  const int d = 96, frames = 2, h = 5, w = 7;
  const posenc::axes_grid g = posenc::axes_positions({.model = "muse-glimmer", .frames = frames,
                                                      .height = h, .width = w});
  REQUIRE(g.axes == 2);
  REQUIRE(g.tokens == frames * h * w);
  std::vector<std::array<double, 2>> pos;
  for (int f = 0; f < frames; ++f)
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) pos.push_back({c + 1.0, r + 1.0});  // flip(-1) + 1
  for (std::size_t t = 0; t < pos.size(); ++t)
    REQUIRE((g.positions[t] == pos[t][0] && g.positions[pos.size() + t] == pos[t][1]));
  rope_config cfg = posenc::axes_preset("muse-glimmer", d);
  CHECK(cfg.base == 10000.0);
  CHECK(cfg.layout == rope_layout::half);
  const rotary_cache cache(cfg, 0, 16);
  const std::int64_t heads = 2, tokens = g.tokens;
  auto x = random_tensor(static_cast<std::size_t>(tokens * heads * d), 23);
  const auto in = x;
  posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, d), axis_major(pos));
  // cat([w·f, h·f, w·f, h·f]) is Qwen2-VL's cat((rpe, rpe)) with (w, h) in place of (row, col).
  rows64 cos, sin;
  hf_qwen2vl_vision(pos, d, 10000.0, cos, sin);
  check_close(in, x, reference_half(in, heads, d, cos, sin), heads, d, rope_layout::half);
}

TEST_CASE("Pixtral 2-D rotary matches HF PixtralRotaryEmbedding (half) and Mistral's "
          "complex form (interleaved)", "[multimodal]") {
  // Pixtral-12B vision: head_dim 64 (1024 / 16 heads), rope_theta 10000, 1024 / 16 = 64
  // patches per side.
  std::vector<std::array<double, 2>> pos;
  for (int r = 0; r < 64; r += 5)
    for (int c = 0; c < 64; c += 7) pos.push_back({double(r), double(c)});
  pos.push_back({30000, 45000});
  const std::int64_t heads = 2, tokens = static_cast<std::int64_t>(pos.size());
  const auto ids = axis_major(pos);
  const auto in = random_tensor(static_cast<std::size_t>(tokens * heads * 64), 19);
  for (const rope_layout layout : {rope_layout::half, rope_layout::interleaved}) {
    rope_config cfg{.head_dim = 64, .base = 10000, .layout = layout};
    cfg.axes.kind = rope_axes_kind::vision_pixtral;
    const rotary_cache cache(cfg);
    auto x = in;
    posenc::rope_apply(cache, tensor_view::dense(x.data(), x.size(), tokens, heads, 64), ids);
    std::vector<std::vector<double>> ref;
    if (layout == rope_layout::half) {
      rows64 cos, sin;
      hf_pixtral(pos, 64, 10000, cos, sin);
      ref = reference_half(in, heads, 64, cos, sin);
    } else {
      for (std::int64_t t = 0; t < tokens; ++t)
        for (std::int64_t h = 0; h < heads; ++h)
          ref.push_back(complex_rotate(&in[(t * heads + h) * 64],
                                       pixtral_angles(pos[t][0], pos[t][1], 64, 10000)));
    }
    INFO("layout " << posenc::to_string(layout));
    check_close(in, x, ref, heads, 64, layout);
  }
}

TEST_CASE("2-D rotary: the score depends only on (drow, dcol)", "[multimodal]") {
  for (const auto kind : {rope_axes_kind::vision_qwen2vl, rope_axes_kind::vision_pixtral}) {
    rope_config cfg{.head_dim = 64, .base = 100};
    cfg.axes.kind = kind;
    const rotary_cache cache(cfg);
    const auto q0 = random_tensor(64, 20), k0 = random_tensor(64, 21);
    const auto score = [&](int qr, int qc, int kr, int kc) {
      auto q = q0, k = k0;
      const std::vector<std::int32_t> qp = {qr, qc}, kp = {kr, kc};
      posenc::rope_apply(cache, tensor_view::dense(q.data(), 64, 1, 1, 64), qp);
      posenc::rope_apply(cache, tensor_view::dense(k.data(), 64, 1, 1, 64), kp);
      double s = 0;
      for (int j = 0; j < 64; ++j) s += double(q[j]) * k[j];
      return s;
    };
    const double base = score(3, 4, 1, 9);
    CHECK(std::abs(score(13, 24, 11, 29) - base) <= 2e-5);
    CHECK(std::abs(score(3, 4, 2, 9) - base) > 1e-3);  // a different drow changes it
    CHECK(std::abs(score(3, 4, 1, 8) - base) > 1e-3);  // as does a different dcol
  }
}

TEST_CASE("the merged row equals the row apply uses", "[multimodal]") {
  const rotary_cache cache(mrope_config(128, 1e6, {16, 24, 24}, false), 0, 8);
  const std::vector<std::int64_t> p = {3, 100, 7};
  float c[64], s[64];
  cache.row(p, c, s);
  float pc[3][64], ps[3][64];
  for (int a = 0; a < 3; ++a) cache.row(p[a], pc[a], ps[a]);
  for (int i = 0; i < 64; ++i) {
    const int a = i < 16 ? 0 : i < 40 ? 1 : 2;
    CHECK(c[i] == pc[a][i]);
    CHECK(s[i] == ps[a][i]);
  }
  posenc::test::require_throws<posenc::length_error>(
      [&] { cache.row(std::vector<std::int64_t>{1, 2}, c, s); }, "positions");
}

TEST_CASE("bad multi-axis configurations and calls throw, naming the argument; nothing written",
          "[multimodal]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  using posenc::test::require_throws;
  require_throws<invalid_argument>(
      [] { rotary_cache c(mrope_config(128, 1e6, {16, 24, 23}, false)); }, "mrope.section");
  require_throws<invalid_argument>(
      [] { rotary_cache c(mrope_config(128, 1e6, {-1, 33, 32}, false)); }, "mrope.section[0]");
  require_throws<invalid_argument>(  // 3·30 > 64 + 1: HF's slice would hold 21 rungs
      [] { rotary_cache c(mrope_config(128, 1e6, {4, 30, 30}, true)); }, "mrope.section");
  rope_config partial = mrope_config(128, 1e6, {16, 24, 24}, false);
  partial.rotary_dim = 64;  // the sections must sum to 32 now
  require_throws<invalid_argument>([&] { rotary_cache c(partial); }, "rotaryDim/2 = 32");
  rope_config odd{.head_dim = 78};
  odd.axes.kind = rope_axes_kind::vision_qwen2vl;
  require_throws<invalid_argument>([&] { rotary_cache c(odd); }, "rotary_dim");
  rope_config scaled{.head_dim = 64};
  scaled.axes.kind = rope_axes_kind::vision_pixtral;
  scaled.scaling.type = posenc::scaling_type::linear;
  scaled.scaling.factor = 2.0;
  require_throws<invalid_argument>([&] { rotary_cache c(scaled); }, "scaling");
  rope_config bad_kind{.head_dim = 64};
  bad_kind.axes.kind = static_cast<rope_axes_kind>(9);
  require_throws<invalid_argument>([&] { rotary_cache c(bad_kind); }, "axes");

  const rotary_cache m(mrope_config(64, 1e6, {8, 12, 12}, false));
  rope_config vc{.head_dim = 64};
  vc.axes.kind = rope_axes_kind::vision_pixtral;
  const rotary_cache v(vc);
  auto x = random_tensor(4 * 2 * 64, 22);
  const auto before = x;
  const auto view = tensor_view::dense(x.data(), x.size(), 4, 2, 64);
  const std::vector<std::int32_t> four(4), eight(8), twelve(12);
  require_throws<length_error>([&] { posenc::rope_apply(m, view, four); }, "positions");
  require_throws<length_error>([&] { posenc::rope_apply(m, view, eight); }, "3 x tokens = 12");
  require_throws<length_error>([&] { posenc::rope_apply(v, view, twelve); }, "positions");
  require_throws<invalid_argument>([&] { posenc::rope_apply(v, view, std::int64_t{0}); }, "start");
  auto k = random_tensor(4 * 64, 23);
  require_throws<length_error>(
      [&] {
        posenc::rope_apply_qk(m, view, tensor_view::dense(k.data(), k.size(), 4, 1, 64), four);
      },
      "positions");
  CHECK(x == before);
  posenc::rope_apply(m, view, twelve);  // still usable
  posenc::rope_apply(v, view, eight);
}
