// posenc/axes_positions.hpp — the position grids of image and video models (the presets of
// posenc/axes.hpp), built the way each model's reference code builds them, in the token
// order the model's attention sees: [axes][tokens] (axis a of token t at a·tokens + t), as
// the multi-axis rotators take them.
//
// Sizes are in tokens (after the VAE and the patching / packing: a 1024×1024 Flux image is a
// 64×64 grid of 2×2-packed latents). Per model (reference file, function):
//   flux        text (0, 0, 0) × text_tokens, then the image (0, row, col).
//               (diffusers pipeline_flux.py `_prepare_latent_image_ids`, text_ids zeros;
//               transformer_flux.py concatenates txt_ids, img_ids)
//   flux2       text (0, 0, 0, l), l < text_tokens; the image (0, row, col, 0); reference image
//               k (10 + 10k, row, col, 0). (pipeline_flux2.py `_prepare_text_ids`,
//               `_prepare_latent_ids`, `_prepare_image_ids` with scale 10; text first)
//   qwen-image  images: the generated one, then each reference (the edit pipelines'); image k
//               frame f: (k + f, row − ⌈h/2⌉, col − ⌈w/2⌉) (scale_rope centres rows and
//               columns on negative indices); text token j: m + j on every axis, m the largest
//               ⌊h/2⌋, ⌊w/2⌋ over the images. Text first. (transformer_qwenimage.py
//               `QwenEmbedRope.forward`, `_compute_video_freqs`)
//   wan         (frame, row, col). No text in the sequence. (transformer_wan.py
//               `WanRotaryPosEmbed.forward`)
//   hunyuan-video (frame, row, col), then text_tokens at (0, 0, 0): HunyuanVideo rotates the
//               video part only, and position 0 is the identity. (transformer_hunyuan_video.py
//               `HunyuanVideoRotaryPosEmbed`, attention processor)
//   cogvideox   text_tokens at (0, 0, 0) first (not rotated), then (frame, row, col).
//               1.0 ("1.0", patch_size_t none): rows / columns are torch.linspace over the
//               crop of the base grid (base_height × base_width = sample size / patch) that
//               `get_resize_crop_region_for_grid` picks: real numbers unless the grid is the
//               base grid. 1.5 ("1.5"): integer rows / columns (grid_type "slice"), at most
//               the base grid when given. (pipeline_cogvideox.py
//               `_prepare_rotary_positional_embeddings`, embeddings.py `get_3d_rotary_pos_embed`)
//   dinov3      prefix_tokens (CLS + registers) at (0, 0) (not rotated: identity), then patch
//               centres (y, x) = (2·(i + ½)/h − 1, 2·(j + ½)/w − 1) in (−1, 1).
//               (modeling_dinov3_vit.py `get_patches_center_coordinates`, eval mode: no
//               augmentation)
//   allegro     (frame / 2.2, row / 2, col / 2): the grids divided by AllegroTransformer3DModel's
//               interpolation scales (t 2.2, h 2.0, w 2.0, its defaults). No text in the
//               sequence. (embeddings.py `get_3d_rotary_pos_embed_allegro`, pipeline_allegro.py
//               `_prepare_rotary_positional_embeddings`)
//   muse-glimmer (col + 1, row + 1) per patch, raster order, each frame again (MuseGlimmerVision-
//               Model.forward: get_vision_position_ids(grid_thw, 1).flip(-1) + 1); the model
//               then reorders patches and positions by window (layer_info::patches).
// Ranges (posenc::invalid_argument naming the argument): frames, height, width, base_height,
// base_width and every reference's sides in [1, 2^20]; text_tokens, prefix_tokens in
// [0, 2^26]; tokens in total ≤ 2^26 (else posenc::length_error naming the model's grid); an
// argument the model does not take (references for wan, …) is refused by name.
// Accuracy: integers exact; real positions (cogvideox 1.0, dinov3, allegro) the float64 evaluation of
// the reference formula (torch evaluates it in float32: within 1 ulp(float) of ours).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace posenc {

struct grid_size {
  int height = 0;
  int width = 0;
};

struct axes_grid_request {
  std::string_view model;             // a preset of axes.hpp with a grid (not stable-audio)
  int frames = 1;                     // video latents' frames (after temporal patching)
  int height = 0, width = 0;          // token grid of the generated image / video
  int text_tokens = 0;                // flux, flux2, qwen-image, hunyuan-video, cogvideox
  std::vector<grid_size> references;  // flux2, qwen-image: conditioning images, in order
  std::string_view version;           // cogvideox: "1.0" | "1.5"
  int base_height = 0, base_width = 0;  // cogvideox: the base grid (1.0: required)
  int prefix_tokens = 0;              // dinov3: CLS + register tokens
};

struct axes_grid {
  int axes = 0;
  std::int64_t tokens = 0;
  std::vector<double> positions;  // [axes][tokens]
  bool integral = true;           // every position an integer (Int32Array in JS)
};

axes_grid axes_positions(const axes_grid_request& request);

}  // namespace posenc
