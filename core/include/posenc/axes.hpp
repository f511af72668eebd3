// posenc/axes.hpp — the multi-axis rotary conventions of image and video models, as data:
// each preset is a rope_config whose axes are `bands` (multimodal.hpp: the rotary dims cut
// into one chunk per axis, each chunk its own ladder on its own position). The rotation is
// plain RoPE's kernel; only the angle of each pair differs.
//
//   preset          bands at head_dim d (d = 128 unless noted)   base   layout       source
//   flux            t 16, h 56, w 56                            10000  interleaved  diffusers FluxPosEmbed
//   flux2           t 32, h 32, w 32, l 32                      2000   interleaved  diffusers Flux2PosEmbed
//   hunyuan-video   t 16, h 56, w 56                            256    interleaved  diffusers HunyuanVideoRotaryPosEmbed
//   wan             t d − 2·h, h = w = 2·(d / 6)  (44, 42, 42)  10000  interleaved  diffusers WanRotaryPosEmbed
//   qwen-image      t 16, h 56, w 56                            10000  interleaved  diffusers QwenEmbedRope
//   cogvideox       t d / 4, h = w = 3·(d / 8)  (d = 64: 16, 24, 24)
//                                                               10000  interleaved  diffusers get_3d_rotary_pos_embed
//   dinov3          y d / 2, x d / 2, each angle × 2π  (d = 64)  100    half         transformers DINOv3ViTRopePositionEmbedding
//   stable-audio    one axis of d / 2 (partial rotary)          10000  half         diffusers get_1d_rotary_pos_embed(repeat_interleave_real=False)
//   allegro         t, h, w d / 3 each (d = 96: 32, 32, 32)     10000  half in each chunk  diffusers apply_rotary_emb_allegro
//   muse-glimmer    w d / 2, h d / 2  (columns first; d = 96)   10000  half         transformers MuseGlimmerVisionRotaryEmbedding
//                   (its positions are (col + 1, row + 1): axes_positions' muse-glimmer grid)
//
// "interleaved" pairs dims adjacently inside each chunk (diffusers repeat_interleave_real
// and apply_rotary_emb(use_real_unbind_dim=-1), Wan's and Qwen-Image's complex pairs);
// "half" is transformers' rotate_half over the whole rotated width; "half in each chunk"
// rotates each axis' chunk by rotate_half on its own (x.chunk(3), then per chunk).
// diffusers evaluates some ladders in float32 (HunyuanVideo, Qwen-Image, DINOv3 in
// transformers); posenc forms every ladder and angle in double and rounds cos/sin once.
#pragma once

#include "posenc/rotary.hpp"

#include <span>
#include <string_view>

namespace posenc {

struct axes_preset_info {
  std::string_view name;    // the preset's name in axes_preset / pe.rope({ axes })
  std::string_view models;  // models that use it
  std::string_view source;  // the reference function it follows
};

// Every preset, in the order of the table above.
std::span<const axes_preset_info> axes_presets() noexcept;

// The rope_config of preset `name` for heads of head_dim (head_dim in [2, max_dim]); its
// base is the preset's. Bands that do not fit head_dim (dims not summing to the rotary dim,
// odd or zero widths, e.g. flux at head_dim 64) and unknown names throw
// posenc::invalid_argument naming `axes` or `head_dim`.
rope_config axes_preset(std::string_view name, int head_dim);

}  // namespace posenc
