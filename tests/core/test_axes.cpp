// test_axes.cpp — the multi-axis presets of image and video models (posenc/axes.hpp), their
// position grids (posenc/axes_positions.hpp) and the 2-D sinusoidal table
// (posenc/sinusoidal_2d.hpp), each against a float64 reference written here from the
// model's reference code (diffusers at 58eb52c0803ea9af3abec60841c2a093bdf1f951,
// transformers' modeling_dinov3_vit.py at 015e68769f9823df27f5f7372dc155277e6ff7e6; each
// reference names its file and function), on the models' real shapes; and every refused input.
#include "posenc/axes.hpp"
#include "posenc/axes_positions.hpp"
#include "posenc/errors.hpp"
#include "posenc/half.hpp"
#include "posenc/rotary.hpp"
#include "posenc/sinusoidal_2d.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using posenc::axes_grid;
using posenc::axes_grid_request;
using posenc::rope_config;
using posenc::rope_layout;
using posenc::rotary_cache;
using posenc::tensor_view;

namespace {

using angles64 = std::vector<std::vector<double>>;  // [tokens][rotary_dim/2] angles

// ── float64 references, written from diffusers / transformers ──────────────────────────

// embeddings.py get_1d_rotary_pos_embed: freqs = 1.0 / (theta ** (arange(0, dim, 2) / dim)),
// torch.outer(pos, freqs) (float64: freqs_dtype=torch.float64, as Flux and Wan pass).
std::vector<double> rope_1d(int dim, double pos, double theta) {
  std::vector<double> a;
  for (int j = 0; j < dim; j += 2) a.push_back(pos * (1.0 / std::pow(theta, double(j) / dim)));
  return a;
}

// transformer_flux.py FluxPosEmbed.forward (and Flux2PosEmbed, HunyuanVideoRotaryPosEmbed,
// WanRotaryPosEmbed, QwenEmbedRope.rope_params, get_3d_rotary_pos_embed): one
// get_1d_rotary_pos_embed per axis on that axis' ids, concatenated along the head.
angles64 axes_angles(const std::vector<int>& axes_dim, const std::vector<double>& ids,
                     std::size_t tokens, double theta) {
  angles64 out(tokens);
  for (std::size_t t = 0; t < tokens; ++t)
    for (std::size_t a = 0; a < axes_dim.size(); ++a)
      for (double v : rope_1d(axes_dim[a], ids[a * tokens + t], theta)) out[t].push_back(v);
  return out;
}

// embeddings.py apply_rotary_emb(use_real=True, use_real_unbind_dim=-1) with cos/sin
// repeat_interleave'd: x_real, x_imag = x.reshape(..., -1, 2).unbind(-1);
// x_rotated = stack([-x_imag, x_real], -1).flatten(3); out = x·cos + x_rotated·sin.
// (Wan's and Qwen-Image's complex products compute the same.)
std::vector<double> rotate_adjacent(const float* x, const std::vector<double>& angles, int dim) {
  std::vector<double> out(x, x + dim);
  for (std::size_t i = 0; i < angles.size(); ++i) {
    const double c = std::cos(angles[i]), s = std::sin(angles[i]);
    out[2 * i] = double(x[2 * i]) * c + (-double(x[2 * i + 1])) * s;
    out[2 * i + 1] = double(x[2 * i + 1]) * c + double(x[2 * i]) * s;
  }
  return out;
}

// transformers rotate_half: out = x·cos + cat(−x2, x1)·sin over the first 2·angles dims,
// cos/sin = cat(angles, angles) (DINOv3 tile(2); Stable Audio's apply_rotary_emb with
// use_real_unbind_dim=-2 on the rotated part).
std::vector<double> rotate_half(const float* x, const std::vector<double>& angles, int dim) {
  std::vector<double> out(x, x + dim);
  const std::size_t h = angles.size();
  for (std::size_t i = 0; i < h; ++i) {
    const double c = std::cos(angles[i]), s = std::sin(angles[i]);
    out[i] = double(x[i]) * c - double(x[i + h]) * s;
    out[i + h] = double(x[i + h]) * c + double(x[i]) * s;
  }
  return out;
}

// ── helpers ───────────────────────────────────────────────────────────────────────────

using posenc::test::random_tensor;

// Rotates x [tokens][heads][head_dim] with the cache at `ids` ([axes][tokens], real) and
// checks every element within 4e−7·(|a| + |b|) of the reference rotation by `angles`;
// dims past the rotary width must come back unchanged.
void check_apply(const rotary_cache& cache, const std::vector<double>& ids,
                 const angles64& angles, std::int64_t heads) {
  const auto tokens = static_cast<std::int64_t>(angles.size());
  const int dim = cache.head_dim();
  const std::vector<float> in = random_tensor(static_cast<std::size_t>(tokens * heads * dim), 7);
  std::vector<float> out = in;
  posenc::rope_apply(cache, tensor_view::dense(out.data(), out.size(), tokens, heads, dim), ids);
  double worst = 0;
  const bool half = cache.layout() == rope_layout::half;
  const int r = cache.rotary_dim();
  for (std::int64_t t = 0; t < tokens; ++t)
    for (std::int64_t h = 0; h < heads; ++h) {
      const float* x = &in[static_cast<std::size_t>((t * heads + h) * dim)];
      const float* y = &out[static_cast<std::size_t>((t * heads + h) * dim)];
      const std::vector<double> ref = half ? rotate_half(x, angles[t], dim)
                                           : rotate_adjacent(x, angles[t], dim);
      for (int j = 0; j < dim; ++j) {
        if (j >= r) {
          REQUIRE(y[j] == x[j]);
          continue;
        }
        const int partner = half ? (j < r / 2 ? j + r / 2 : j - r / 2) : (j ^ 1);
        const double scale = std::abs(x[j]) + std::abs(x[partner]);
        worst = std::max(worst, std::abs(y[j] - ref[j]) / (scale + 1e-30));
      }
    }
  INFO("worst error / (|a| + |b|) = " << worst);
  CHECK(worst <= 4e-7);
}

axes_grid grid(axes_grid_request r) { return posenc::axes_positions(r); }

}  // namespace

TEST_CASE("axes presets: the bands of each model at its head size", "[axes]") {
  const auto bands = [](const char* name, int head_dim) {
    std::vector<int> dims;
    for (const auto& b : posenc::axes_preset(name, head_dim).axes.bands) dims.push_back(b.dims);
    return dims;
  };
  CHECK(bands("flux", 128) == std::vector<int>{16, 56, 56});
  CHECK(bands("flux2", 128) == std::vector<int>{32, 32, 32, 32});
  CHECK(bands("hunyuan-video", 128) == std::vector<int>{16, 56, 56});
  CHECK(bands("qwen-image", 128) == std::vector<int>{16, 56, 56});
  // transformer_wan.py: h_dim = w_dim = 2 * (attention_head_dim // 6); t_dim = rest.
  CHECK(bands("wan", 128) == std::vector<int>{44, 42, 42});
  // embeddings.py get_3d_rotary_pos_embed: dim_t = D // 4, dim_h = dim_w = D // 8 * 3.
  CHECK(bands("cogvideox", 64) == std::vector<int>{16, 24, 24});
  CHECK(bands("dinov3", 64) == std::vector<int>{32, 32});
  CHECK(posenc::axes_preset("stable-audio", 64).rotary_dim == 32);
  CHECK(posenc::axes_preset("hunyuan-video", 128).base == 256.0);
  CHECK(posenc::axes_preset("flux2", 128).base == 2000.0);
  CHECK(posenc::axes_preset("dinov3", 64).base == 100.0);
  CHECK(posenc::axes_preset("dinov3", 64).layout == rope_layout::half);
  CHECK(posenc::axes_preset("wan", 128).layout == rope_layout::interleaved);
  CHECK(posenc::axes_presets().size() == 10);
  CHECK(bands("allegro", 96) == std::vector<int>{32, 32, 32});
  CHECK(bands("muse-glimmer", 96) == std::vector<int>{48, 48});  // w then h (MuseGlimmerVisionRotaryEmbedding)
}

TEST_CASE("flux: a 1024x1024 latent (64x64 packed tokens) and 512 text tokens match "
          "FluxPosEmbed + apply_rotary_emb", "[axes]") {
  const axes_grid g = grid({.model = "flux", .height = 64, .width = 64, .text_tokens = 512});
  REQUIRE(g.axes == 3);
  REQUIRE(g.tokens == 512 + 64 * 64);
  // pipeline_flux.py _prepare_latent_image_ids: ids[..., 1] = arange(h)[:, None],
  // ids[..., 2] = arange(w)[None, :], reshaped (h·w, 3); text_ids zeros (512, 3); the
  // transformer takes cat((txt_ids, img_ids)).
  std::vector<double> ids(3 * g.tokens, 0.0);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      const std::size_t t = 512 + i * 64 + j;
      ids[g.tokens + t] = i;
      ids[2 * g.tokens + t] = j;
    }
  REQUIRE(g.positions == ids);
  CHECK(g.integral);
  const rotary_cache cache(posenc::axes_preset("flux", 128));
  check_apply(cache, g.positions, axes_angles({16, 56, 56}, ids, g.tokens, 10000), 2);
}

TEST_CASE("flux2: text (0,0,0,l), the image and two reference images (10 + 10k, …) match "
          "Flux2PosEmbed and the pipeline's ids", "[axes]") {
  const axes_grid g = grid({.model = "flux2", .height = 32, .width = 48, .text_tokens = 64,
                            .references = {{16, 16}, {24, 20}}});
  REQUIRE(g.axes == 4);
  // pipeline_flux2.py: _prepare_text_ids cartesian_prod(0, 0, 0, arange(L)),
  // _prepare_latent_ids cartesian_prod(0, arange(h), arange(w), 0), _prepare_image_ids
  // t = scale + scale·i (scale 10); the transformer concatenates text, then image rows.
  std::vector<std::array<double, 4>> ref;
  for (int l = 0; l < 64; ++l) ref.push_back({0, 0, 0, double(l)});
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 48; ++j) ref.push_back({0, double(i), double(j), 0});
  const int sides[2][2] = {{16, 16}, {24, 20}};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < sides[k][0]; ++i)
      for (int j = 0; j < sides[k][1]; ++j) ref.push_back({10.0 + 10 * k, double(i), double(j), 0});
  REQUIRE(g.tokens == static_cast<std::int64_t>(ref.size()));
  for (std::size_t t = 0; t < ref.size(); ++t)
    for (int a = 0; a < 4; ++a) REQUIRE(g.positions[a * ref.size() + t] == ref[t][a]);
  const rotary_cache cache(posenc::axes_preset("flux2", 128));
  check_apply(cache, g.positions, axes_angles({32, 32, 32, 32}, g.positions, g.tokens, 2000), 1);
}

TEST_CASE("wan: an 81-frame 480x832 video (21 x 30 x 52 patches) matches WanRotaryPosEmbed",
          "[axes]") {
  // 81 frames → (81 − 1)/4 + 1 = 21 latent frames; 480x832 → 60x104 latents → patch (1, 2, 2).
  const axes_grid g = grid({.model = "wan", .frames = 21, .height = 30, .width = 52});
  REQUIRE(g.tokens == 21 * 30 * 52);
  // WanRotaryPosEmbed.forward: freqs_f[:ppf].view(ppf, 1, 1), freqs_h[:pph].view(1, pph, 1),
  // freqs_w[:ppw].view(1, 1, ppw), expanded and flattened frame-major.
  std::size_t t = 0;
  for (int f = 0; f < 21; ++f)
    for (int i = 0; i < 30; ++i)
      for (int j = 0; j < 52; ++j, ++t) {
        REQUIRE(g.positions[t] == f);
        REQUIRE(g.positions[g.tokens + t] == i);
        REQUIRE(g.positions[2 * g.tokens + t] == j);
      }
  const rotary_cache cache(posenc::axes_preset("wan", 128));
  check_apply(cache, g.positions, axes_angles({44, 42, 42}, g.positions, g.tokens, 10000), 1);
}

TEST_CASE("hunyuan-video: (t, h, w) with theta 256, text after the video unrotated", "[axes]") {
  // 33 frames at 544x960: 9 latent frames, 68x120 latents, patch 2 → 9 x 34 x 60.
  const axes_grid g = grid({.model = "hunyuan-video", .frames = 9, .height = 34, .width = 60,
                            .text_tokens = 256});
  REQUIRE(g.tokens == 9 * 34 * 60 + 256);
  // HunyuanVideoRotaryPosEmbed: meshgrid(arange(T), arange(H), arange(W), indexing="ij").
  REQUIRE(g.positions[9 * 34 * 60 - 1] == 8);
  REQUIRE(g.positions[g.tokens + 9 * 34 * 60 - 1] == 33);
  REQUIRE(g.positions[2 * g.tokens + 9 * 34 * 60 - 1] == 59);
  const rotary_cache cache(posenc::axes_preset("hunyuan-video", 128));
  const angles64 angles = axes_angles({16, 56, 56}, g.positions, g.tokens, 256);
  check_apply(cache, g.positions, angles, 1);
  // Text tokens sit at the origin: the rotation is the identity, bit for bit.
  std::vector<float> x = random_tensor(128, 3), y = x;
  const std::vector<double> origin(3, 0.0);
  posenc::rope_apply(cache, tensor_view::dense(y.data(), y.size(), 1, 1, 128), origin);
  CHECK(std::memcmp(x.data(), y.data(), 128 * sizeof(float)) == 0);
}

TEST_CASE("qwen-image: scale_rope centres rows and columns, text from max_vid_index, edit "
          "references at the next frame index", "[axes]") {
  // 1024x1024 → 128x128 latents → 2x2 packing → 64x64; one 48x32 reference (Qwen-Image-Edit).
  const axes_grid g = grid({.model = "qwen-image", .height = 64, .width = 64, .text_tokens = 30,
                            .references = {{48, 33}}});
  // transformer_qwenimage.py QwenEmbedRope: pos_index = arange(4096), neg_index =
  // arange(4096).flip(0)·−1 − 1; _compute_video_freqs(idx): frame idx, height
  // cat(neg[-(h − h//2):], pos[:h//2]), width likewise; text pos_freqs[max_vid_index :
  // + txt_len] with max_vid_index = max(h//2, w//2) over the images; text comes first.
  std::vector<double> neg;
  for (int k = 4095; k >= 0; --k) neg.push_back(-k - 1.0);
  const auto centred = [&](int n) {
    std::vector<double> v(neg.end() - (n - n / 2), neg.end());
    for (int k = 0; k < n / 2; ++k) v.push_back(k);
    return v;
  };
  std::vector<std::array<double, 3>> ref;
  for (int j = 0; j < 30; ++j) ref.push_back({32.0 + j, 32.0 + j, 32.0 + j});
  const int sides[2][2] = {{64, 64}, {48, 33}};
  for (int k = 0; k < 2; ++k) {
    const auto rows = centred(sides[k][0]), cols = centred(sides[k][1]);
    for (double r : rows)
      for (double c : cols) ref.push_back({double(k), r, c});
  }
  REQUIRE(g.tokens == static_cast<std::int64_t>(ref.size()));
  for (std::size_t t = 0; t < ref.size(); ++t)
    for (int a = 0; a < 3; ++a) REQUIRE(g.positions[a * ref.size() + t] == ref[t][a]);
  const rotary_cache cache(posenc::axes_preset("qwen-image", 128));
  check_apply(cache, g.positions, axes_angles({16, 56, 56}, g.positions, g.tokens, 10000), 1);
}

TEST_CASE("cogvideox 1.0: get_resize_crop_region_for_grid + linspace grids; 1.5: slices",
          "[axes]") {
  // pipeline_cogvideox.py get_resize_crop_region_for_grid and embeddings.py
  // get_3d_rotary_pos_embed(grid_type="linspace"), in float64.
  const auto reference = [](int frames, int gh, int gw, int base_h, int base_w) {
    const double th = base_h, tw = base_w, h = gh, w = gw;
    double rh, rw;
    if (h / w > th / tw) {
      rh = th;
      rw = std::nearbyint(th / h * w);
    } else {
      rw = tw;
      rh = std::nearbyint(tw / w * h);
    }
    const double top = std::nearbyint((th - rh) / 2.0), left = std::nearbyint((tw - rw) / 2.0);
    const auto linspace = [](double a, double b, int n) {
      std::vector<double> v;
      for (int k = 0; k < n; ++k) v.push_back(n == 1 ? a : a + k * ((b - a) / (n - 1)));
      return v;
    };
    const auto gy = linspace(top, (top + rh) * (gh - 1) / gh, gh);
    const auto gx = linspace(left, (left + rw) * (gw - 1) / gw, gw);
    const auto gt = linspace(0, frames * (frames - 1.0) / frames, frames);
    std::vector<std::array<double, 3>> out;
    for (double t : gt)
      for (double y : gy)
        for (double x : gx) out.push_back({t, y, x});
    return out;
  };
  // 480x720 at base 60x90 latents / patch 2: the base grid itself, integers.
  const axes_grid base = grid({.model = "cogvideox", .frames = 13, .height = 30, .width = 45,
                               .text_tokens = 226, .version = "1.0", .base_height = 30,
                               .base_width = 45});
  CHECK(base.integral);
  // A square 480x480 request: cropped and stretched, real positions.
  const axes_grid g = grid({.model = "cogvideox", .frames = 13, .height = 30, .width = 30,
                            .text_tokens = 0, .version = "1.0", .base_height = 30,
                            .base_width = 45});
  CHECK_FALSE(g.integral);
  const auto ref = reference(13, 30, 30, 30, 45);
  REQUIRE(g.tokens == static_cast<std::int64_t>(ref.size()));
  for (std::size_t t = 0; t < ref.size(); ++t)
    for (int a = 0; a < 3; ++a) REQUIRE(g.positions[a * ref.size() + t] == ref[t][a]);
  const rotary_cache cache(posenc::axes_preset("cogvideox", 64));
  check_apply(cache, g.positions, axes_angles({16, 24, 24}, g.positions, g.tokens, 10000), 2);
  // Text first at the origin (CogVideoX rotates query[:, :, text_seq_length:] only).
  REQUIRE(base.tokens == 226 + 13 * 30 * 45);
  CHECK(base.positions[225] == 0);
  CHECK(base.positions[base.tokens + 226 + 45] == 1);
  // 1.5: grid_type "slice", arange rows / columns / frames.
  const axes_grid s = grid({.model = "cogvideox", .frames = 11, .height = 48, .width = 85,
                            .version = "1.5", .base_height = 48, .base_width = 85});
  CHECK(s.integral);
  CHECK(s.positions[s.tokens - 1] == 10);
  CHECK(s.positions[2 * s.tokens - 1] == 47);
  CHECK(s.positions[3 * s.tokens - 1] == 84);
}

TEST_CASE("dinov3: 224x224 (14x14 patches), patch centres in (-1, 1), angles x 2pi, prefix "
          "tokens untouched, match DINOv3ViTRopePositionEmbedding + rotate_half", "[axes]") {
  const axes_grid g = grid({.model = "dinov3", .height = 14, .width = 14, .prefix_tokens = 5});
  REQUIRE(g.tokens == 5 + 196);
  CHECK_FALSE(g.integral);
  // modeling_dinov3_vit.py get_patches_center_coordinates: arange(0.5, n) / n, 2·c − 1;
  // DINOv3ViTRopePositionEmbedding: inv_freq = 1 / base ** arange(0, 1, 4 / head_dim);
  // angles = 2π · coords[:, :, None] · inv_freq → flatten (y rungs, then x) → tile(2).
  const int head_dim = 64;
  std::vector<double> inv;
  for (int k = 0; k < head_dim / 4; ++k) inv.push_back(1.0 / std::pow(100.0, k * (4.0 / head_dim)));
  angles64 angles(g.tokens, std::vector<double>(head_dim / 2, 0.0));
  for (int i = 0; i < 14; ++i)
    for (int j = 0; j < 14; ++j) {
      const std::size_t t = 5 + i * 14 + j;
      const double y = 2.0 * ((i + 0.5) / 14) - 1.0, x = 2.0 * ((j + 0.5) / 14) - 1.0;
      REQUIRE(g.positions[t] == y);
      REQUIRE(g.positions[g.tokens + t] == x);
      for (int k = 0; k < head_dim / 4; ++k) {
        angles[t][k] = 2 * std::numbers::pi * y * inv[k];
        angles[t][head_dim / 4 + k] = 2 * std::numbers::pi * x * inv[k];
      }
    }
  const rotary_cache cache(posenc::axes_preset("dinov3", head_dim));
  check_apply(cache, g.positions, angles, 6);
}

TEST_CASE("stable-audio: half the head rotated, pairs across halves of that part", "[axes]") {
  // pipeline_stable_audio.py: get_1d_rotary_pos_embed(attention_head_dim // 2, n,
  // use_real=True, repeat_interleave_real=False); StableAudioAttnProcessor2_0 rotates
  // x[..., :rot_dim] by apply_rotary_emb(use_real_unbind_dim=-2) and keeps the rest.
  const rotary_cache cache(posenc::axes_preset("stable-audio", 64));
  REQUIRE(cache.axes() == 1);
  std::vector<double> ids;
  angles64 angles;
  for (int t = 0; t < 300; ++t) {
    ids.push_back(t);
    angles.push_back(rope_1d(32, t, 10000));
  }
  check_apply(cache, ids, angles, 2);
}

TEST_CASE("axes: real positions with integral values rotate bit-identically to int positions; "
          "qwen2-vl through bands is unchanged", "[axes]") {
  const rotary_cache cache(posenc::axes_preset("flux", 128), 0, 64);
  const axes_grid g = grid({.model = "flux", .height = 8, .width = 100, .text_tokens = 3});
  std::vector<std::int32_t> ids32(g.positions.begin(), g.positions.end());
  std::vector<float> a = random_tensor(static_cast<std::size_t>(g.tokens) * 3 * 128, 11), b = a;
  posenc::rope_apply(cache, tensor_view::dense(a.data(), a.size(), g.tokens, 3, 128), g.positions);
  posenc::rope_apply(cache, tensor_view::dense(b.data(), b.size(), g.tokens, 3, 128),
                     std::span<const std::int32_t>(ids32));
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  // cos/sin pairs agree as well.
  const std::size_t n = static_cast<std::size_t>(g.tokens) * 128;
  std::vector<float> c1(n), s1(n), c2(n), s2(n);
  posenc::rope_cos_sin(cache, std::span<const double>(g.positions), c1, s1);
  posenc::rope_cos_sin(cache, std::span<const std::int32_t>(ids32), c2, s2);
  CHECK(c1 == c2);
  CHECK(s1 == s2);
}

TEST_CASE("axes: bad descriptions and positions are refused by name", "[axes]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  using posenc::test::require_throws;
  rope_config c = posenc::axes_preset("flux", 128);
  c.axes.bands[1].dims = 40;
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "t 16 + h 40 + w 56 = 112");
  c.axes.bands[1].dims = 55;
  c.axes.bands[2].dims = 57;
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "axes[1].dims");
  c.axes.bands[2].dims = 56;  // an odd sum: the description is named, not rotary_dim
  c.rotary_dim = 127;
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "axes[1].dims");
  c = posenc::axes_preset("flux", 128);
  c.axes.bands[0].scale = std::nan("");
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "axes[0].scale");
  c = posenc::axes_preset("flux2", 128);
  c.axes.bands.push_back({"z", 2});
  c.head_dim = c.rotary_dim = 130;
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "1 to 4 bands");
  c = posenc::axes_preset("flux", 128);
  c.scaling.type = posenc::scaling_type::linear;
  c.scaling.factor = 2;
  require_throws<invalid_argument>([&] { rotary_cache{c}; }, "scaling must be none");
  require_throws<invalid_argument>([] { rotary_cache{posenc::axes_preset("flux", 64)}; },
                                   "dims must sum to rotaryDim 64");
  require_throws<invalid_argument>([] { posenc::axes_preset("sd3", 64); }, "axes must be one of");

  const rotary_cache cache(posenc::axes_preset("flux", 128));
  std::vector<float> x(2 * 128);
  const tensor_view v = tensor_view::dense(x.data(), x.size(), 2, 1, 128);
  const std::vector<double> five(5, 0.0);
  require_throws<length_error>([&] { posenc::rope_apply(cache, v, five); },
                               "a 3-axis rotator (flux) takes 3 x tokens = 6");
  std::vector<double> bad(6, 0.0);
  bad[4] = INFINITY;
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, v, bad); }, "positions[4]");
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, v, std::int64_t{0}); },
                                   "not start");
  CHECK(x == std::vector<float>(2 * 128));  // nothing written

  require_throws<invalid_argument>([] { grid({.model = "wan", .height = 4, .width = 4, .text_tokens = 3}); },
                                   "textTokens");
  require_throws<invalid_argument>([] { grid({.model = "flux", .height = 0, .width = 4}); }, "height");
  require_throws<invalid_argument>([] { grid({.model = "cogvideox", .height = 4, .width = 4}); },
                                   "version");
  require_throws<invalid_argument>(
      [] { grid({.model = "cogvideox", .height = 4, .width = 4, .version = "1.0"}); }, "baseHeight");
  require_throws<invalid_argument>(
      [] { grid({.model = "dinov3", .height = 4, .width = 4, .references = {{2, 2}}}); }, "references");
  require_throws<invalid_argument>([] { grid({.model = "sd3", .height = 4, .width = 4}); }, "model");
}

namespace {

// embeddings.py get_2d_sincos_pos_embed (output_type "pt"): grid_h = arange(H) / (H /
// base_size) / interpolation_scale (likewise w); grid = meshgrid(grid_w, grid_h,
// indexing="xy"); get_2d_sincos_pos_embed_from_grid: emb_h = 1d(D/2, grid[0]) (the column
// coordinate), emb_w = 1d(D/2, grid[1]); cat([emb_h, emb_w]); get_1d_sincos_pos_embed_from_grid:
// omega = 1 / 10000 ** (arange(D/2 / 2) / (D/2 / 2)), cat([sin(pos·omega), cos(pos·omega)]).
// PatchEmbed.cropped_pos_embed: top = (max − h) // 2, left = (max − w) // 2.
std::vector<double> sincos_2d(int dim, int gh, int gw, double base_size, double interp,
                              int max_size) {
  const int side_h = max_size ? max_size : gh, side_w = max_size ? max_size : gw;
  const int top = (side_h - gh) / 2, left = (side_w - gw) / 2;
  const auto one_d = [&](double pos, std::vector<double>& out) {
    const int q = dim / 4;
    for (int k = 0; k < q; ++k) out.push_back(std::sin(pos * (1.0 / std::pow(10000.0, double(k) / q))));
    for (int k = 0; k < q; ++k) out.push_back(std::cos(pos * (1.0 / std::pow(10000.0, double(k) / q))));
  };
  std::vector<double> out;
  for (int i = 0; i < gh; ++i)
    for (int j = 0; j < gw; ++j) {
      one_d((left + j) / (side_w / base_size) / interp, out);
      one_d((top + i) / (side_h / base_size) / interp, out);
    }
  return out;
}

void check_table(const posenc::sinusoidal_2d_options& o) {
  const std::size_t rows = posenc::sinusoidal_2d_rows(o);
  std::vector<float> t(rows * o.dim, -1.0f);
  posenc::sinusoidal_2d(t.data(), t.size(), o);
  for (std::size_t k = 0; k < static_cast<std::size_t>(o.extra_tokens) * o.dim; ++k) REQUIRE(t[k] == 0.0f);
  const std::vector<double> ref =
      sincos_2d(o.dim, o.height, o.width, o.base_size, o.interpolation_scale, o.max_size);
  REQUIRE(ref.size() + static_cast<std::size_t>(o.extra_tokens) * o.dim == t.size());
  double worst = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    worst = std::max(worst, std::abs(t[o.extra_tokens * o.dim + k] - ref[k]));
  INFO("worst absolute error " << worst);
  CHECK(worst <= 1e-7);
}

}  // namespace

TEST_CASE("sinusoidal_2d matches get_2d_sincos_pos_embed: DiT, MAE, SD3 crop, PixArt "
          "interpolation", "[axes][sinusoidal]") {
  // DiT-XL/2 at 256px: 16x16 tokens, base_size 16, hidden 1152.
  check_table({.dim = 1152, .height = 16, .width = 16, .base_size = 16});
  // MAE ViT-B/16 at 224 (its own grid: positions 0 … 13), with the CLS row.
  check_table({.dim = 768, .height = 14, .width = 14, .base_size = 14, .extra_tokens = 1});
  // SD3 medium: pos_embed_max_size 192, base_size 64 (sample 128 / patch 2), 1024x1024 →
  // 64x64 cropped from the centre; and a non-square 1344x768 (84x48).
  check_table({.dim = 1536, .height = 64, .width = 64, .base_size = 64, .max_size = 192});
  check_table({.dim = 1536, .height = 84, .width = 48, .base_size = 64, .max_size = 192});
  // PixArt-alpha 1024: base_size 64, interpolation_scale 2, a 48x80 grid.
  check_table({.dim = 1152, .height = 48, .width = 80, .base_size = 64, .interpolation_scale = 2});
  using posenc::test::require_throws;
  require_throws<posenc::invalid_argument>([] { (void)posenc::sinusoidal_2d_rows({.dim = 6, .height = 2, .width = 2}); }, "dim");
  require_throws<posenc::invalid_argument>(
      [] { (void)posenc::sinusoidal_2d_rows({.dim = 8, .height = 9, .width = 2, .max_size = 8}); }, "max_size");
  require_throws<posenc::invalid_argument>(
      [] { (void)posenc::sinusoidal_2d_rows({.dim = 8, .height = 2, .width = 2, .base_size = 0}); }, "base_size");
  std::vector<float> small(3);
  require_throws<posenc::length_error>(
      [&] { posenc::sinusoidal_2d(small.data(), small.size(), {.dim = 8, .height = 2, .width = 2}); }, "out");
}

TEST_CASE("allegro: three chunks of head_dim/3, rotate_half inside each, positions divided by "
          "the interpolation scales, match apply_rotary_emb_allegro", "[axes]") {
  // 88 frames at 720x1280 → 22 latent frames, 90x160 latents, patch 2 → 22 x 45 x 80; a slice
  // of 2 frames keeps the test quick.
  const axes_grid g = grid({.model = "allegro", .frames = 2, .height = 45, .width = 80});
  CHECK_FALSE(g.integral);
  // pipeline_allegro.py: grid_t = linspace(0, T(T − 1)/T, T) / 2.2, grid_h = … / 2.0.
  CHECK(g.positions[45 * 80] == 1 / 2.2);
  CHECK(g.positions[g.tokens + 80] == 0.5);
  const rotary_cache cache(posenc::axes_preset("allegro", 96));
  REQUIRE(cache.chunks().size() == 3);
  // embeddings.py apply_rotary_emb_allegro: t, h, w = x.chunk(3, dim=-1); apply_1d_rope per
  // chunk: x1, x2 = halves; cat(−x2, x1); x·cos + rotated·sin with cos = cat(cos, cos) of
  // get_1d_rotary_pos_embed(32, grid / scale, repeat_interleave_real=False).
  const std::int64_t tokens = g.tokens, heads = 2;
  const std::vector<float> in = random_tensor(static_cast<std::size_t>(tokens * heads * 96), 21);
  std::vector<float> out(in.size());
  posenc::rope_apply(cache, posenc::const_tensor_view::dense(in.data(), in.size(), tokens, heads, 96),
                     tensor_view::dense(out.data(), out.size(), tokens, heads, 96), g.positions);
  double worst = 0;
  for (std::int64_t t = 0; t < tokens; ++t)
    for (std::int64_t h = 0; h < heads; ++h)
      for (int c = 0; c < 3; ++c) {
        const float* x = &in[static_cast<std::size_t>((t * heads + h) * 96 + 32 * c)];
        const float* y = &out[static_cast<std::size_t>((t * heads + h) * 96 + 32 * c)];
        const std::vector<double> ref = rotate_half(x, rope_1d(32, g.positions[c * tokens + t], 10000), 32);
        for (int j = 0; j < 32; ++j) {
          const double scale = std::abs(x[j]) + std::abs(x[j < 16 ? j + 16 : j - 16]);
          worst = std::max(worst, std::abs(y[j] - ref[j]) / (scale + 1e-30));
        }
      }
  INFO("worst error / (|a| + |b|) = " << worst);
  CHECK(worst <= 4e-7);
  // The inverse undoes it; a shift by 3 equals rotating at positions + 3 on every axis.
  std::vector<float> back = out;
  posenc::rope_apply(cache, tensor_view::dense(back.data(), back.size(), tokens, heads, 96), g.positions,
                     posenc::direction::inverse);
  for (std::size_t k = 0; k < in.size(); ++k) REQUIRE(std::abs(back[k] - in[k]) <= 2e-6);
  std::vector<double> moved = g.positions;
  for (double& v : moved) v += 3;
  std::vector<float> shifted = out, direct = in;
  posenc::rope_shift(cache, tensor_view::dense(shifted.data(), shifted.size(), tokens, heads, 96), 3);
  posenc::rope_apply(cache, tensor_view::dense(direct.data(), direct.size(), tokens, heads, 96), moved);
  for (std::size_t k = 0; k < in.size(); ++k) REQUIRE(std::abs(shifted[k] - direct[k]) <= 4e-6);
  // The cos/sin pair holds each chunk's cat(cos, cos).
  std::vector<float> c(96), s(96);
  const std::vector<double> p = {1 / 2.2, 3.0, 5.5};
  posenc::rope_cos_sin(cache, std::span<const double>(p), c, s);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 16; ++j) {
      CHECK(c[32 * k + j] == c[32 * k + 16 + j]);
      CHECK(std::abs(c[32 * k + j] - std::cos(rope_1d(32, p[k], 10000)[j])) <= 3e-7);
    }
  // 16-bit tensors are refused by name; layout interleaved with half_per_band too.
  std::vector<std::uint16_t> bits(96);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] {
        posenc::rope_apply(cache, posenc::half_tensor_view::dense(bits.data(), bits.size(), 1, 1, 96,
                                                                  posenc::half_format::bfloat16),
                           std::span<const std::int32_t>(std::vector<std::int32_t>{0, 0, 0}));
      },
      "float32 tensors only");
  rope_config bad = posenc::axes_preset("allegro", 96);
  bad.layout = rope_layout::interleaved;
  posenc::test::require_throws<posenc::invalid_argument>([&] { rotary_cache{bad}; }, "layout");
}

TEST_CASE("qwen2-vl's and pixtral's 2-D rotaries, now two bands of rotary_dim/2, keep their "
          "ladders bit for bit", "[axes]") {
  // What the vision tower's rung map was before bands: φ = inverse_frequencies(r/2, base)
  // for the rows, the same φ for the columns (HF VisionRotaryEmbedding(head_dim / 2)).
  for (const int r : {64, 80, 128}) {
    rope_config c{.head_dim = r, .base = 10000.0};
    c.axes.kind = posenc::rope_axes_kind::vision_qwen2vl;
    const rotary_cache cache(c);
    const std::vector<double> phi = posenc::inverse_frequencies(r / 2, 10000.0).inv_freq;
    REQUIRE(cache.inv_freq().size() == 2 * phi.size());
    for (std::size_t i = 0; i < phi.size(); ++i) {
      CHECK(std::memcmp(&cache.inv_freq()[i], &phi[i], sizeof(double)) == 0);
      CHECK(std::memcmp(&cache.inv_freq()[phi.size() + i], &phi[i], sizeof(double)) == 0);
      CHECK(cache.pair_axis()[i] == 0);
      CHECK(cache.pair_axis()[phi.size() + i] == 1);
    }
    CHECK(cache.axes() == 2);
    // Pixtral: rows the even rungs of θ of dim r, columns the odd ones (the map before bands).
    c.axes.kind = posenc::rope_axes_kind::vision_pixtral;
    const rotary_cache pixtral(c);
    const std::vector<double> theta = posenc::inverse_frequencies(r, 10000.0).inv_freq;
    for (std::size_t i = 0; i < theta.size() / 2; ++i) {
      CHECK(std::memcmp(&pixtral.inv_freq()[i], &theta[2 * i], sizeof(double)) == 0);
      CHECK(std::memcmp(&pixtral.inv_freq()[theta.size() / 2 + i], &theta[2 * i + 1], sizeof(double)) == 0);
      CHECK(pixtral.pair_axis()[theta.size() / 2 + i] == 1);
    }
  }
  // A rung pick past the ladder is refused by name.
  rope_config bad = posenc::axes_preset("flux", 128);
  bad.axes.bands[0].step = 9;
  posenc::test::require_throws<posenc::invalid_argument>([&] { rotary_cache{bad}; }, "axes[0].ladder_dim / first / step");
}

TEST_CASE("mrope and mrope-interleaved are bands on the shared ladder: the explicit "
          "description rotates bit for bit as the kind; bad shared-ladder bands are refused "
          "by name", "[axes]") {
  using posenc::axis_band;
  // HF's rules written as bands: apply_multimodal_rotary_pos_emb's contiguous sections
  // [16, 24, 24]; apply_interleaved_mrope's [24, 20, 20] (h at 1::3 below 60, w at 2::3
  // below 60, t every other rung).
  std::vector<int> t_rungs;
  for (int i = 0; i < 64; ++i)
    if (!(i < 60 && i % 3 != 0)) t_rungs.push_back(i);
  REQUIRE(t_rungs.size() == 24);
  struct pair_case { posenc::rope_axes_kind kind; std::array<int, 3> section; std::vector<axis_band> bands; };
  const pair_case cases[] = {
      {posenc::rope_axes_kind::mrope, {16, 24, 24}, {{"t", 32}, {"h", 48, 1.0, 0, 16}, {"w", 48, 1.0, 0, 40}}},
      {posenc::rope_axes_kind::mrope_interleaved, {24, 20, 20},
       {{"t", 48, 1.0, 0, 0, 1, t_rungs}, {"h", 40, 1.0, 0, 1, 3}, {"w", 40, 1.0, 0, 2, 3}}},
      {posenc::rope_axes_kind::mrope, {0, 32, 32}, {{"t", 0}, {"h", 64}, {"w", 64, 1.0, 128, 32}}}};
  posenc::scaling yarn;
  yarn.type = posenc::scaling_type::yarn, yarn.factor = 4.0, yarn.original_max_position_embeddings = 32768;
  for (const pair_case& k : cases)
    for (const rope_layout layout : {rope_layout::half, rope_layout::interleaved}) {
      rope_config kind{.head_dim = 128, .base = 5e6, .layout = layout, .scaling = yarn};
      kind.axes = {k.kind, k.section};
      rope_config bands = kind;
      bands.axes = {posenc::rope_axes_kind::bands, {}, k.bands, "custom"};
      bands.axes.shared_ladder = true;
      const rotary_cache a(kind, 0, 16), b(bands, 0, 16);
      REQUIRE(b.axes() == 3);
      CHECK(std::memcmp(a.inv_freq().data(), b.inv_freq().data(), 64 * sizeof(double)) == 0);
      CHECK(std::equal(a.pair_axis().begin(), a.pair_axis().end(), b.pair_axis().begin(), b.pair_axis().end()));
      CHECK(a.attention_factor() == b.attention_factor());
      const std::vector<std::int64_t> ids = {0, 9, 3000, 1 << 24, 7, 9, 15, -2, 2, 9, 16, 1 << 20};
      std::vector<float> x = posenc::test::random_tensor(4 * 3 * 128, 41), y = x;
      posenc::rope_apply(a, tensor_view::dense(x.data(), x.size(), 4, 3, 128), std::span<const std::int64_t>(ids));
      posenc::rope_apply(b, tensor_view::dense(y.data(), y.size(), 4, 3, 128), std::span<const std::int64_t>(ids));
      CHECK(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
      // A shared ladder takes start (M-RoPE's text tokens), as the kind does.
      CHECK(b.shared_ladder());
      posenc::rope_apply(a, tensor_view::dense(x.data(), x.size(), 4, 3, 128), std::int64_t{1} << 40);
      posenc::rope_apply(b, tensor_view::dense(y.data(), y.size(), 4, 3, 128), std::int64_t{1} << 40);
      CHECK(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
    }
  // Refused descriptions name the field.
  const auto refused = [](std::vector<axis_band> b, const char* needle, bool shared = true,
                          posenc::scaling s = {}) {
    rope_config c{.head_dim = 128, .base = 1e4, .scaling = s};
    c.axes = {posenc::rope_axes_kind::bands, {}, std::move(b), "custom"};
    c.axes.shared_ladder = shared;
    posenc::test::require_throws<posenc::invalid_argument>([&] { rotary_cache{c}; }, needle);
  };
  refused({{"t", 32}, {"h", 48, 1.0, 0, 8}, {"w", 48, 1.0, 0, 40}}, "axes[1].rungs");  // rung 8 twice
  refused({{"t", 32, 1.0, 0, 0, 1, {0, 1}}, {"h", 96, 1.0, 0, 16}}, "axes[0].rungs");  // 2 rungs of 16
  refused({{"t", 4, 1.0, 0, 0, 1, {0, 64}}, {"h", 124, 1.0, 0, 2}}, "axes[0].rungs");  // rung 64 of 64
  refused({{"t", 64, 1.0, 64}, {"h", 64, 1.0, 0, 32}}, "axes[0].ladder_dim");
  refused({{"t", 0}, {"h", 128}}, "axes[0].dims", false);  // empty only on a shared ladder
  refused({{"t", 64}, {"h", 64}}, "scaling", false, yarn);  // per-chunk ladders: no scaling
  rope_config both = posenc::axes_preset("allegro", 96);
  both.axes.shared_ladder = true;
  posenc::test::require_throws<posenc::invalid_argument>([&] { rotary_cache{both}; }, "half_per_band");
}
