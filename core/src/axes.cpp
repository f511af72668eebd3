// axes.cpp — the presets of posenc/axes.hpp: one row each, the split rule written once.
#include "posenc/axes.hpp"

#include "posenc/detail/check.hpp"

#include <array>
#include <numbers>
#include <string>

namespace posenc {
namespace {

using bands = std::vector<axis_band>;

struct preset_row {
  axes_preset_info info;
  double base;
  rope_layout layout;
  bool half_per_band;
  int (*rotary_dim)(int head_dim);     // the rotated width
  bands (*split)(int rotary_dim);      // the per-axis chunks
};

int whole(int d) { return d; }
int half_of(int d) { return d / 2; }

bands thw(int t, int h, int w) { return {{"t", t}, {"h", h}, {"w", w}}; }

constexpr std::array<preset_row, 10> kPresets = {{
    {{"flux", "FLUX.1 [dev] / [schnell] / Kontext", "diffusers transformer_flux.py FluxPosEmbed"},
     10000.0, rope_layout::interleaved, false, whole, [](int) { return thw(16, 56, 56); }},
    {{"flux2", "FLUX.2 [dev] / [klein]", "diffusers transformer_flux2.py Flux2PosEmbed"}, 2000.0,
     rope_layout::interleaved, false, whole,
     [](int) { return bands{{"t", 32}, {"h", 32}, {"w", 32}, {"l", 32}}; }},
    {{"hunyuan-video", "HunyuanVideo", "diffusers transformer_hunyuan_video.py HunyuanVideoRotaryPosEmbed"},
     256.0, rope_layout::interleaved, false, whole, [](int) { return thw(16, 56, 56); }},
    {{"wan", "Wan 2.1 / 2.2", "diffusers transformer_wan.py WanRotaryPosEmbed"}, 10000.0,
     rope_layout::interleaved, false, whole,
     [](int d) { return thw(d - 4 * (d / 6), 2 * (d / 6), 2 * (d / 6)); }},
    {{"qwen-image", "Qwen-Image, Qwen-Image-Edit", "diffusers transformer_qwenimage.py QwenEmbedRope"},
     10000.0, rope_layout::interleaved, false, whole, [](int) { return thw(16, 56, 56); }},
    {{"cogvideox", "CogVideoX 1.0 / 1.5", "diffusers embeddings.py get_3d_rotary_pos_embed"}, 10000.0,
     rope_layout::interleaved, false, whole, [](int d) { return thw(d / 4, d / 8 * 3, d / 8 * 3); }},
    {{"dinov3", "DINOv3 ViT", "transformers modeling_dinov3_vit.py DINOv3ViTRopePositionEmbedding"},
     100.0, rope_layout::half, false, whole,
     [](int d) {
       return bands{{"y", d / 2, 2 * std::numbers::pi}, {"x", d / 2, 2 * std::numbers::pi}};
     }},
    {{"stable-audio", "Stable Audio Open",
      "diffusers embeddings.py get_1d_rotary_pos_embed(repeat_interleave_real=False)"},
     10000.0, rope_layout::half, false, half_of, [](int d) { return bands{{"t", d}}; }},
    {{"allegro", "Allegro", "diffusers embeddings.py get_3d_rotary_pos_embed_allegro, apply_rotary_emb_allegro"},
     10000.0, rope_layout::half, true, whole, [](int d) { return thw(d / 3, d / 3, d / 3); }},
    {{"muse-glimmer", "Muse Glimmer vision tower",
      "transformers modeling_muse_glimmer.py MuseGlimmerVisionRotaryEmbedding"},
     10000.0, rope_layout::half, false, whole,
     [](int d) { return bands{{"w", d / 2}, {"h", d / 2}}; }},  // columns first
}};

constexpr std::array<axes_preset_info, kPresets.size()> kInfos = [] {
  std::array<axes_preset_info, kPresets.size()> out{};
  for (std::size_t i = 0; i < kPresets.size(); ++i) out[i] = kPresets[i].info;
  return out;
}();

}  // namespace

std::span<const axes_preset_info> axes_presets() noexcept { return kInfos; }

rope_config axes_preset(std::string_view name, int head_dim) {
  detail::check_range("head_dim", head_dim, 2, max_dim);
  for (const preset_row& row : kPresets) {
    if (row.info.name != name) continue;
    rope_config config;
    config.head_dim = head_dim;
    config.rotary_dim = row.rotary_dim(head_dim);
    config.base = row.base;
    config.layout = row.layout;
    config.axes.kind = rope_axes_kind::bands;
    config.axes.bands = row.split(config.rotary_dim);
    config.axes.name = std::string(name);
    config.axes.half_per_band = row.half_per_band;
    return config;
  }
  std::string names;
  for (const preset_row& row : kPresets) names += (names.empty() ? "\"" : ", \"") + std::string(row.info.name) + "\"";
  detail::fail_argument("axes must be one of ", names, " or an explicit list of axes, got \"",
                        std::string(name), "\"");
}

}  // namespace posenc
