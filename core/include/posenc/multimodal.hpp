// posenc/multimodal.hpp — rotary position embedding with more than one position per token:
// multimodal RoPE (M-RoPE: a temporal, a height and a width position per token) and the
// 2-D rotary of vision towers (a row and a column position per image patch).
//
// Every convention below rotates the same pairs as plain RoPE (rotary.hpp: half layout
// (x[i], x[i + r/2]), interleaved (x[2i], x[2i + 1])) by the same kernel; only the angle of
// pair i changes: it is p_{axis(i)}·θ'_i, where axis(i) picks one of the token's positions
// and θ'_i is the rung pair i uses (rotary_cache::inv_freq()). The angle is formed and
// reduced in double and rounded once (core/src/detail/angles.hpp), as for plain RoPE.
//
//   mrope (Qwen2-VL, Qwen2.5-VL; HF `apply_multimodal_rotary_pos_emb`): positions (t, h, w);
//     section = HF `mrope_section` (s_t, s_h, s_w), s_t + s_h + s_w = r/2. HF splits the
//     full-width cos/sin [c_0 … c_{r/2−1}, c_0 … c_{r/2−1}] by mrope_section·2, i.e. the same
//     contiguous sections in both halves, so rung i < s_t takes t, the next s_h take h, the
//     last s_w take w. θ'_i = θ_i (the plain ladder, with any scaling).
//   mrope_interleaved (Qwen3-VL; HF `apply_interleaved_mrope`): rung i takes h when
//     i ≡ 1 (mod 3) and i < 3·s_h, w when i ≡ 2 (mod 3) and i < 3·s_w, t otherwise.
//   vision_qwen2vl (Qwen2-VL / Qwen2.5-VL vision tower; HF `VisionRotaryEmbedding(head_dim/2)`,
//     `rot_pos_emb`, `apply_rotary_pos_emb_vision`): positions (row, col); with φ_j the
//     ladder of dim r/2 (φ_j = b^(−4j/r), j < r/4), rung i < r/4 is row·φ_i and rung
//     r/4 + i is col·φ_i.
//   vision_pixtral (Pixtral / Mistral vision; HF `PixtralRotaryEmbedding`): positions
//     (row, col); rung i < r/4 is row·θ_{2i}, rung r/4 + i is col·θ_{2i+1} (θ of dim r:
//     even rungs for rows, odd for columns). HF's model rotates it in the half layout
//     (`rotate_half`); Mistral's reference (`precompute_freqs_cis_2d`,
//     `apply_rotary_emb_vit`) in the interleaved layout, the same angles.
// A token whose positions are all equal (text in M-RoPE: t = h = w) is rotated exactly as
// plain RoPE rotates that position (bit-identical).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace posenc {

enum class rope_axes_kind { none, mrope, mrope_interleaved, vision_qwen2vl, vision_pixtral };

// "none" | "mrope" | "mrope-interleaved" | "qwen2-vl" | "pixtral"; anything else throws
// posenc::invalid_argument naming `axes`.
rope_axes_kind parse_rope_axes(std::string_view name);
std::string_view to_string(rope_axes_kind kind) noexcept;

// How many positions each token has: 1 (none), 3 (M-RoPE: t, h, w) or 2 (vision: row, col).
int axis_count(rope_axes_kind kind) noexcept;

// The multi-position part of a rope_config.
//  - mrope / mrope_interleaved: `section` (each ≥ 0) must sum to rotary_dim/2; interleaved
//    also needs 3·s_h ≤ r/2 + 1 and 3·s_w ≤ r/2 (else HF's stride-3 slices would hold fewer
//    rungs than the section says). Any scaling of rope_config applies.
//  - vision_qwen2vl / vision_pixtral: rotary_dim a multiple of 4 (rows and columns get r/4
//    rungs each); `section` unused; rope_config::scaling must be none.
// Violations throw posenc::invalid_argument naming mrope.section, rotary_dim or scaling.
struct rope_axes {
  rope_axes_kind kind = rope_axes_kind::none;
  std::array<int, 3> section = {0, 0, 0};
};

}  // namespace posenc
