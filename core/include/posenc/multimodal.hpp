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
//     last s_w take w. θ'_i = θ_i (the plain ladder, with any scaling): three bands on the
//     shared ladder, rungs 0 + k, s_t + k and s_t + s_h + k.
//   mrope_interleaved (Qwen3-VL; HF `apply_interleaved_mrope`): rung i takes h when
//     i ≡ 1 (mod 3) and i < 3·s_h, w when i ≡ 2 (mod 3) and i < 3·s_w, t otherwise: bands
//     on the shared ladder, h rungs 1 + 3k, w rungs 2 + 3k, t the list of the others.
//   mrope_hw (ERNIE 4.5 VL; HF `Ernie4_5_VLMoeTextRotaryEmbedding`: inv_freq_3d,
//     recomposition_to_3d): with section (s_t, s_h, s_w), s_h = s_w, rung i < s_h + s_w takes
//     h when i is even and w when odd, the last s_t rungs take t: bands on the shared ladder,
//     h rungs 2k, w rungs 1 + 2k, t rungs s_h + s_w + k. (HF's mrope_section lists the same
//     counts in the order h, w, t.)
//   vision_qwen2vl (Qwen2-VL / Qwen2.5-VL vision tower; HF `VisionRotaryEmbedding(head_dim/2)`,
//     `rot_pos_emb`, `apply_rotary_pos_emb_vision`): positions (row, col); with φ_j the
//     ladder of dim r/2 (φ_j = b^(−4j/r), j < r/4), rung i < r/4 is row·φ_i and rung
//     r/4 + i is col·φ_i.
//   vision_pixtral (Pixtral / Mistral vision; HF `PixtralRotaryEmbedding`): positions
//     (row, col); rung i < r/4 is row·θ_{2i}, rung r/4 + i is col·θ_{2i+1} (θ of dim r:
//     even rungs for rows, odd for columns). HF's model rotates it in the half layout
//     (`rotate_half`); Mistral's reference (`precompute_freqs_cis_2d`,
//     `apply_rotary_emb_vit`) in the interleaved layout, the same angles.
//   bands (image and video models: posenc/axes.hpp names the presets): the rotary dims
//     split into consecutive chunks, one per axis (`axes_dim` in diffusers); chunk a of
//     d_a dims holds d_a/2 rungs with its own ladder θ_j = b^(−2j/d_a) (or the rungs
//     first + step·k of a ladder of ladder_dim: Pixtral), times the band's scale s_a
//     (DINOv3: 2π), on the token's position on axis a. vision_qwen2vl and vision_pixtral
//     are two such bands of r/2 dims. Rungs are numbered across
//     the chunks, so the interleaved layout pairs dims adjacently inside each chunk
//     (diffusers `repeat_interleave_real=True`, Flux / Wan / HunyuanVideo / Qwen-Image /
//     CogVideoX) and the half layout pairs rung i with rung i + r/2 over the whole head
//     (transformers `rotate_half`, DINOv3 / Qwen2-VL vision). With half_per_band the half
//     layout pairs inside each chunk instead: dim o_a + j with o_a + d_a/2 + j (diffusers
//     `apply_rotary_emb_allegro`: x.chunk(3) then rotate-half per chunk).
//     With shared_ladder the bands split one ladder instead of the head: the ladder of the
//     rotary dim with the config's scaling (as plain RoPE has it), each band taking a set of
//     its rungs (possibly none), and rung j rotating pair j whichever band takes it
//     (M-RoPE's sections and Qwen3-VL's round-robin).
// A token whose positions are all equal (text in M-RoPE: t = h = w) is rotated exactly as
// plain RoPE rotates that position (bit-identical).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

enum class rope_axes_kind {
  none, mrope, mrope_interleaved, vision_qwen2vl, vision_pixtral, bands, mrope_hw
};

// Most positions a token may have (Flux.2: t, h, w, l).
inline constexpr int max_axes = 4;

// One axis of a `bands` description: its name in messages ("t", "h", "w", "l", "y", "x"),
// the rotary dims its chunk takes (even, ≥ 2; ≥ 0 with shared_ladder), the factor s on its
// angles (finite, > 0), and which rungs it takes: rung k of the chunk is rung first + step·k
// of the ladder b^(−2j/ladder_dim) (ladder_dim 0 = dims; Pixtral: the rotary dim's ladder,
// rows even rungs, columns odd ones), or rungs[k] when `rungs` is given (dims/2 of them).
struct axis_band {
  std::string name;
  int dims = 0;
  double scale = 1.0;
  int ladder_dim = 0;
  int first = 0;
  int step = 1;
  std::vector<int> rungs = {};
};

// "none" | "mrope" | "mrope-interleaved" | "mrope-hw" | "qwen2-vl" | "pixtral"; anything else throws
// posenc::invalid_argument naming `axes`.
rope_axes_kind parse_rope_axes(std::string_view name);
std::string_view to_string(rope_axes_kind kind) noexcept;

// How many positions each token has: 1 (none), 3 (M-RoPE: t, h, w) or 2 (vision: row, col);
// for bands, the caller counts the bands (rope_axes::count).
int axis_count(rope_axes_kind kind) noexcept;

// The multi-position part of a rope_config.
//  - mrope / mrope_interleaved: `section` (each ≥ 0) must sum to rotary_dim/2; interleaved
//    also needs 3·s_h ≤ r/2 + 1 and 3·s_w ≤ r/2 (else HF's stride-3 slices would hold fewer
//    rungs than the section says). Any scaling of rope_config applies.
//  - mrope_hw: as mrope, and s_h = s_w (h and w alternate over their 2·s_h rungs).
//  - vision_qwen2vl / vision_pixtral: rotary_dim a multiple of 4 (rows and columns get r/4
//    rungs each); `section` unused; rope_config::scaling must be none.
//  - bands: 1 to max_axes bands whose dims sum to rotary_dim, each even ≥ 2 with a finite
//    scale > 0; rope_config::scaling must be none. `name` (the preset's, or "custom")
//    appears in every message. half_per_band needs layout half (else invalid_argument
//    naming layout), and such a rotator takes float32 tensors only (16-bit: invalid_argument
//    naming x).
//  - bands with shared_ladder: ladder_dim 0 or rotary_dim, dims ≥ 0, and the bands' rungs
//    taking every rung of the ladder once; any scaling applies; not with half_per_band. As
//    for M-RoPE, a rotator of such bands takes `start` (every axis at start + t).
// Violations throw posenc::invalid_argument naming mrope.section, axes[i].dims, axes[i].scale,
// axes[i].rungs, axes, rotary_dim or scaling.
struct rope_axes {
  rope_axes_kind kind = rope_axes_kind::none;
  std::array<int, 3> section = {0, 0, 0};
  std::vector<axis_band> bands = {};  // kind bands only
  std::string name = {};              // kind bands only: the preset, or "custom"
  bool half_per_band = false;         // kind bands, layout half: pairs within each chunk
  bool shared_ladder = false;         // kind bands: rungs of one ladder, rung j at pair j
  // Positions per token.
  int count() const noexcept {
    return kind == rope_axes_kind::bands ? static_cast<int>(bands.size()) : axis_count(kind);
  }
};

}  // namespace posenc
