// posenc/train.hpp — a tiny decoder-only transformer with its position encoding as a
// parameter, trained by hand-written backward and Adam: the "train short, test long" lab.
//
// Model (pre-norm, GPT-2 shape, no dropout):
//   x_t = E[token_t] (+ PE(t) sinusoidal, or + P[t] learned)
//   per layer:  x += W_o · attn(LN1(x)),   x += W_2 · relu(W_1 · LN2(x) + b_1) + b_2
//   logits_t = LN_f(x_t) · Eᵀ                                   (tied output)
// attn is causal multi-head attention, score(i, j) = q_i·k_j/√head_dim + bias_h(i, j), with
// the encoding acting where it acts in the model it comes from:
//   none              nothing (order only through the causal mask)
//   sinusoidal        sinusoidal_table (interleaved layout, base 10000) added to √dim·E
//                     (the paper scales the embedding so the sinusoids do not drown it)
//   learned           P [max_positions][dim] added to E, initialised from learned_table
//   t5                bias_h = b[h][t5_bucket(j − i)], causal buckets (t5_buckets), one
//                     learned table shared by all layers as in T5
//   alibi             bias_h = alibi_bias (slopes alibi_slopes(heads)), fixed
//   rope-half         q, k rotated by rotary_cache's cos/sin, half layout (GPT-NeoX)
//   rope-interleaved  the same, interleaved layout (RoFormer, GPT-J)
// At evaluation a RoPE model may meet a length T past its training length L with PI (linear
// scaling, factor T/L) or YaRN (factor T/L, original length L), through inverse_frequencies'
// scaling as rotary_cache applies it (the attention factor included).
// ReLU (the original Transformer's; no libm call, and cheap where time is short); layer
// norm ε = 1e−5.
//
// Deterministic: the same config and seed give the same parameters, and the same batches the
// same gradients, bit for bit on one build (one thread, fixed summation order, no FMA
// contraction in the kernels). Other builds (WebAssembly, another libm) draw the same initial
// weights and batches (posenc::random: integer and correctly rounded arithmetic) but may
// round exp and the SIMD lane sums differently, so their curves agree only approximately.
// Float is the training type; double exists for gradient checks against finite differences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

enum class train_encoding { none, sinusoidal, learned, t5, alibi, rope_half, rope_interleaved };

// "none" | "sinusoidal" | "learned" | "t5" | "alibi" | "rope-half" | "rope-interleaved";
// anything else throws posenc::invalid_argument naming `encoding`.
train_encoding parse_train_encoding(std::string_view name);
std::string_view to_string(train_encoding encoding) noexcept;

// How a RoPE model is evaluated at a length T past its training length L (ignored at T ≤ L
// and for other encodings): none (plain RoPE), pi (linear scaling by T/L), yarn (factor T/L,
// original_max_position_embeddings L, HF's defaults for the rest).
enum class rope_extension { none, pi, yarn };

// "none" | "pi" | "yarn"; anything else throws posenc::invalid_argument naming `extension`.
rope_extension parse_rope_extension(std::string_view name);
std::string_view to_string(rope_extension extension) noexcept;

// Limits of model_config (checked by the transformer's constructor).
inline constexpr int max_train_vocab = 65536;
inline constexpr int max_train_dim = 1024;
inline constexpr int max_train_heads = 64;
inline constexpr int max_train_layers = 8;
inline constexpr int max_train_mlp = 8192;
inline constexpr int max_train_positions = 8192;
// Largest workspace of one sequence, in scalars (layers·(heads·T² + T·(11·dim + 2·mlp)) +
// T·(4·dim + vocab)): 2²⁸, 1 GiB of float.
inline constexpr std::size_t max_train_workspace = std::size_t{1} << 28;

struct model_config {
  int vocab = 0;        // tokens 0 … vocab−1, in [2, max_train_vocab]
  int dim = 32;         // model width, in [2, max_train_dim], a multiple of heads
  int heads = 4;        // in [1, max_train_heads]; rope-*: dim/heads even; sinusoidal: dim even
  int layers = 2;       // in [1, max_train_layers]
  int mlp = 64;         // hidden width of the MLP, in [1, max_train_mlp]
  train_encoding encoding = train_encoding::none;
  // Longest sequence any call accepts, in [1, max_train_positions]; also the rows of the
  // learned table (rows past the training length are never trained and keep their initial
  // values: that is how a learned table meets a longer input).
  int max_positions = 512;
  double rope_base = 10000.0;  // rope-*: finite, > 1 (rotary_cache's range)
  int t5_buckets = 32;         // t5: in [2, 65536] (t5_bucket's num_buckets, causal)
  int t5_max_distance = 128;   // t5: in (t5_buckets/2, 2²⁴]
};

// Sequences of one length. tokens and targets are [sequences][length]; targets[i] is the
// token expected at that position, or −1 where nothing is scored.
struct train_batch {
  int sequences = 0;
  int length = 0;
  std::vector<std::int32_t> tokens;
  std::vector<std::int32_t> targets;
};

// Sum of the cross-entropy (natural log) over the scored targets, how many the argmax got
// right (ties go to the lowest token), and how many were scored.
struct batch_score {
  double loss_sum = 0;
  std::int64_t correct = 0;
  std::int64_t scored = 0;
  double loss() const noexcept { return scored ? loss_sum / static_cast<double>(scored) : 0.0; }
  double accuracy() const noexcept {
    return scored ? static_cast<double>(correct) / static_cast<double>(scored) : 0.0;
  }
};

struct eval_options {
  rope_extension extension = rope_extension::none;
  // The training length L the extension scales from: required (in [1, max_positions]) when
  // extension is not none.
  int trained_length = 0;
};

// One named block of the flat parameter vector (for tests and inspection).
struct parameter_block {
  std::string name;  // "embedding", "layer0.attn.qkv", "final_norm.gain", …
  std::size_t offset = 0;
  std::size_t size = 0;
};

// The model. S is float (training) or double (gradient checks); both are instantiated.
template <class S>
class transformer {
public:
  // Validates config (posenc::invalid_argument naming `config.<field>`; length_error when the
  // workspace of a max_positions sequence would exceed max_train_workspace) and draws the
  // initial parameters from posenc::random(seed): embeddings U(±0.1), weights U(±1/√fan_in),
  // gains 1, biases 0, the t5 table 0, the learned table 0.1·learned_table(max_positions,
  // dim, seed + 1).
  transformer(const model_config& config, std::uint64_t seed);

  const model_config& config() const noexcept { return config_; }
  std::span<S> parameters() noexcept { return params_; }
  std::span<const S> parameters() const noexcept { return params_; }
  // d(mean loss over the batch's scored targets)/d(parameters), from the last gradient().
  std::span<const S> gradients() const noexcept { return grads_; }
  std::span<const parameter_block> blocks() const noexcept { return blocks_; }

  // Forward and backward over every sequence: overwrites gradients() with the gradient of
  // the mean loss (zero when nothing is scored) and returns the score. The batch must have
  // sequences ≥ 1, length in [1, max_positions], tokens in [0, vocab), targets in
  // [−1, vocab), both arrays sequences·length long; else posenc::invalid_argument /
  // length_error naming `batch.<field>`, nothing changed.
  batch_score gradient(const train_batch& batch);

  // Forward only (the batch as for gradient()). options.extension applies to rope-* models
  // at lengths past options.trained_length; invalid_argument naming `options.trained_length`
  // when an extension is asked without a valid one.
  batch_score evaluate(const train_batch& batch, const eval_options& options = {});

  // Attention probabilities of one sequence (tokens, length ≤ max_positions):
  // [layers][heads][length][length], zero above the diagonal. Same ranges as evaluate().
  std::vector<S> attention(std::span<const std::int32_t> tokens,
                           const eval_options& options = {});

  // Scalars of workspace one sequence of `length` needs (the bound of the header above).
  std::size_t workspace(int length) const noexcept;

  struct impl;  // core/src/train_model.cpp

private:
  model_config config_;
  std::vector<S> params_;
  std::vector<S> grads_;
  std::vector<parameter_block> blocks_;
};

extern template class transformer<float>;
extern template class transformer<double>;

// Adam (Kingma & Ba 2015) with bias correction, and clipping of the global gradient norm.
struct adam_config {
  double learning_rate = 3e-3;  // peak rate, finite > 0
  double beta1 = 0.9;           // in [0, 1)
  double beta2 = 0.99;          // in [0, 1)
  double epsilon = 1e-8;        // finite > 0
  double clip_norm = 1.0;       // gradients scaled to this norm when above; 0 = no clipping
  int warmup_steps = 20;        // linear warm-up, then cosine decay to 10% at the last step
};

// The rate of step `step` (0-based, in [0, steps)) of `steps` (≥ 1) under config's schedule:
// learning_rate·(step + 1)/warmup_steps during warm-up, then cosine from learning_rate to
// 0.1·learning_rate at the last step (steps past it stay at 0.1·learning_rate).
double adam_rate(const adam_config& config, int step, int steps) noexcept;

template <class S>
class adam {
public:
  // Ranges as documented on adam_config; invalid_argument naming `adam.<field>` otherwise.
  adam(std::size_t parameters, const adam_config& config);
  // One update of params by grads (same size as at construction, else length_error naming
  // `params` / `grads`) at rate `rate` (finite ≥ 0). Returns the gradient norm before clipping.
  double step(std::span<S> params, std::span<const S> grads, double rate);

private:
  adam_config config_;
  std::vector<S> m_, v_;
  std::int64_t t_ = 0;
};

extern template class adam<float>;
extern template class adam<double>;

}  // namespace posenc
