// The trainer's transformer: parameters, forward, hand-written backward (posenc/train.hpp).
#include "posenc/train.hpp"

#include "posenc/errors.hpp"
#include "posenc/random.hpp"
#include "posenc/relative.hpp"
#include "posenc/rotary.hpp"
#include "posenc/sinusoidal.hpp"

#include "detail/train_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace posenc {
namespace {

using detail::train_axpy;
using detail::train_dot;
using detail::train_matmul;
using detail::train_matmul_nt;
using detail::train_matmul_tn;

constexpr std::array<std::string_view, 7> encoding_names = {
    "none", "sinusoidal", "learned", "t5", "alibi", "rope-half", "rope-interleaved"};
constexpr std::array<std::string_view, 3> extension_names = {"none", "pi", "yarn"};
constexpr double norm_epsilon = 1e-5;

[[noreturn]] void bad(const std::string& what) { throw invalid_argument("posenc: " + what); }

void check_range(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    bad(std::string(name) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
        "], got " + std::to_string(value));
}

bool is_rope(train_encoding e) {
  return e == train_encoding::rope_half || e == train_encoding::rope_interleaved;
}

void check_config(const model_config& c) {
  check_range("config.vocab", c.vocab, 2, max_train_vocab);
  check_range("config.dim", c.dim, 2, max_train_dim);
  check_range("config.heads", c.heads, 1, max_train_heads);
  check_range("config.layers", c.layers, 1, max_train_layers);
  check_range("config.mlp", c.mlp, 1, max_train_mlp);
  check_range("config.max_positions", c.max_positions, 1, max_train_positions);
  const auto e = static_cast<std::size_t>(c.encoding);
  if (e >= encoding_names.size()) bad("config.encoding is not a train_encoding value");
  if (c.dim % c.heads != 0)
    bad("config.dim must be a multiple of config.heads, got dim " + std::to_string(c.dim) +
        " and heads " + std::to_string(c.heads));
  if (is_rope(c.encoding) && (c.dim / c.heads) % 2 != 0)
    bad("config.dim / config.heads (the head dim) must be even for rope-*, got " +
        std::to_string(c.dim / c.heads));
  if (c.encoding == train_encoding::sinusoidal && c.dim % 2 != 0)
    bad("config.dim must be even for sinusoidal, got " + std::to_string(c.dim));
  if (is_rope(c.encoding) && !(std::isfinite(c.rope_base) && c.rope_base > 1))
    bad("config.rope_base must be finite and > 1, got " + std::to_string(c.rope_base));
  if (c.encoding == train_encoding::t5) {
    check_range("config.t5_buckets", c.t5_buckets, 2, 65536);
    check_range("config.t5_max_distance", c.t5_max_distance, c.t5_buckets / 2 + 1, 1 << 24);
  }
}

std::size_t workspace_of(const model_config& c, std::size_t t) {
  const std::size_t d = c.dim, f = c.mlp, h = c.heads, v = c.vocab;
  return c.layers * (h * t * t + t * (11 * d + 2 * f + 2)) + t * (4 * d + v + 1);
}

// Layout of the flat parameter vector.
struct layer_offsets {
  std::size_t norm1_gain, norm1_bias, qkv, out, norm2_gain, norm2_bias, up, up_bias, down,
      down_bias;
};
struct offsets {
  std::size_t embedding, positions = 0, t5 = 0, final_gain, final_bias, total;
  std::vector<layer_offsets> layers;
};

offsets layout(const model_config& c, std::vector<parameter_block>* blocks) {
  offsets o{};
  std::size_t at = 0;
  auto take = [&](const std::string& name, std::size_t n) {
    if (blocks) blocks->push_back({name, at, n});
    at += n;
    return at - n;
  };
  const std::size_t d = c.dim, f = c.mlp;
  o.embedding = take("embedding", std::size_t(c.vocab) * d);
  if (c.encoding == train_encoding::learned) o.positions = take("positions", std::size_t(c.max_positions) * d);
  if (c.encoding == train_encoding::t5) o.t5 = take("t5_bias", std::size_t(c.heads) * c.t5_buckets);
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layer" + std::to_string(l) + ".";
    layer_offsets lo{};
    lo.norm1_gain = take(p + "norm1.gain", d);
    lo.norm1_bias = take(p + "norm1.bias", d);
    lo.qkv = take(p + "attn.qkv", d * 3 * d);
    lo.out = take(p + "attn.out", d * d);
    lo.norm2_gain = take(p + "norm2.gain", d);
    lo.norm2_bias = take(p + "norm2.bias", d);
    lo.up = take(p + "mlp.up", d * f);
    lo.up_bias = take(p + "mlp.up_bias", f);
    lo.down = take(p + "mlp.down", f * d);
    lo.down_bias = take(p + "mlp.down_bias", d);
    o.layers.push_back(lo);
  }
  o.final_gain = take("final_norm.gain", d);
  o.final_bias = take("final_norm.bias", d);
  o.total = at;
  return o;
}

// y = gain·(x − μ)·rstd + bias per row of n; keeps x̂ and rstd for the backward.
template <class S>
void norm_forward(const S* x, const S* gain, const S* bias, S* xhat, S* rstd, S* y,
                  std::size_t rows, std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r) {
    const S* xr = x + r * n;
    S mean = 0, var = 0;
    for (std::size_t j = 0; j < n; ++j) mean += xr[j];
    mean /= S(n);
    for (std::size_t j = 0; j < n; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    const S rs = S(1) / std::sqrt(var / S(n) + S(norm_epsilon));
    rstd[r] = rs;
    for (std::size_t j = 0; j < n; ++j) {
      xhat[r * n + j] = (xr[j] - mean) * rs;
      y[r * n + j] = gain[j] * xhat[r * n + j] + bias[j];
    }
  }
}

// dx += rstd·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with ĝ = dy·gain; accumulates the gain/bias grads.
template <class S>
void norm_backward(const S* dy, const S* gain, const S* xhat, const S* rstd, S* dgain,
                   S* dbias, S* dx, std::size_t rows, std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r) {
    const S* g = dy + r * n;
    const S* xh = xhat + r * n;
    S mean_g = 0, mean_gx = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const S gh = g[j] * gain[j];
      mean_g += gh;
      mean_gx += gh * xh[j];
      dgain[j] += g[j] * xh[j];
      dbias[j] += g[j];
    }
    mean_g /= S(n);
    mean_gx /= S(n);
    for (std::size_t j = 0; j < n; ++j)
      dx[r * n + j] += rstd[r] * (g[j] * gain[j] - mean_g - xh[j] * mean_gx);
  }
}

// One sequence's activations (the backward reads them).
template <class S>
struct layer_trace {
  std::vector<S> x_in, xhat1, rstd1, a1, qkv, probs, att, x_mid, xhat2, rstd2, a2, up, act;
};

}  // namespace

train_encoding parse_train_encoding(std::string_view name) {
  for (std::size_t i = 0; i < encoding_names.size(); ++i)
    if (name == encoding_names[i]) return static_cast<train_encoding>(i);
  bad("encoding must be one of none, sinusoidal, learned, t5, alibi, rope-half, "
      "rope-interleaved, got \"" + std::string(name) + "\"");
}
std::string_view to_string(train_encoding encoding) noexcept {
  const auto i = static_cast<std::size_t>(encoding);
  return i < encoding_names.size() ? encoding_names[i] : "?";
}
rope_extension parse_rope_extension(std::string_view name) {
  for (std::size_t i = 0; i < extension_names.size(); ++i)
    if (name == extension_names[i]) return static_cast<rope_extension>(i);
  bad("extension must be one of none, pi, yarn, got \"" + std::string(name) + "\"");
}
std::string_view to_string(rope_extension extension) noexcept {
  const auto i = static_cast<std::size_t>(extension);
  return i < extension_names.size() ? extension_names[i] : "?";
}

template <class S>
struct transformer<S>::impl {
  // The position constants of one (length, extension), each from posenc's own functions.
  struct positional {
    int length = -1;
    rope_extension extension = rope_extension::none;
    int trained_length = 0;
    std::vector<float> sinusoid;           // [T][dim]
    std::optional<rotary_cache> rope;      // rows 0 … T−1
    std::vector<float> alibi;              // [heads][T][T]
    std::vector<std::int32_t> buckets;     // [T][T]
  };

  static void prepare(const model_config& c, positional& p, int length, const eval_options& o) {
    const rope_extension ext = length > o.trained_length ? o.extension : rope_extension::none;
    if (p.length == length && p.extension == ext && (ext == rope_extension::none || p.trained_length == o.trained_length))
      return;
    p = positional{};
    p.length = length;
    p.extension = ext;
    p.trained_length = o.trained_length;
    const std::int64_t t = length;
    switch (c.encoding) {
      case train_encoding::sinusoidal:
        p.sinusoid.resize(std::size_t(t) * c.dim);
        sinusoidal_table(p.sinusoid.data(), p.sinusoid.size(), c.dim, 10000.0, 0, t);
        break;
      case train_encoding::alibi: p.alibi = alibi_bias(c.heads, t, t, true); break;
      case train_encoding::t5: p.buckets = t5_buckets(t, t, false, c.t5_buckets, c.t5_max_distance); break;
      case train_encoding::rope_half:
      case train_encoding::rope_interleaved: {
        rope_config rc;
        rc.head_dim = c.dim / c.heads;
        rc.base = c.rope_base;
        rc.layout = c.encoding == train_encoding::rope_half ? rope_layout::half : rope_layout::interleaved;
        if (ext != rope_extension::none) {
          rc.scaling.type = ext == rope_extension::pi ? scaling_type::linear : scaling_type::yarn;
          rc.scaling.factor = double(length) / double(o.trained_length);
          rc.scaling.original_max_position_embeddings = o.trained_length;
          rc.scaling.max_position_embeddings = length;
        }
        p.rope.emplace(rc, 0, t);
        break;
      }
      default: break;
    }
  }

  // Rotates (forward) or applies the transpose (backward) to every head row of [T][dim] at
  // `base`, with rotary_cache's cos/sin and attention factor f: (a, b) ← f·R(±p·θ_i)(a, b).
  // The pair convention is rope.hpp's: half (i, i + r/2), interleaved (2i, 2i + 1).
  static void rotate(const rotary_cache& cache, S* rows, std::size_t stride, int length,
                     int heads, bool transpose) {
    const int hd = cache.head_dim(), half = hd / 2;
    const bool interleaved = cache.layout() == rope_layout::interleaved;
    const S f = S(cache.attention_factor());
    const float* cos = cache.cos_table().data();
    const float* sin = cache.sin_table().data();
    for (int t = 0; t < length; ++t)
      for (int h = 0; h < heads; ++h) {
        S* x = rows + std::size_t(t) * stride + std::size_t(h) * hd;
        for (int i = 0; i < half; ++i) {
          const S c = cos[std::size_t(t) * half + i];
          const S s = transpose ? -S(sin[std::size_t(t) * half + i]) : S(sin[std::size_t(t) * half + i]);
          S& a = x[interleaved ? 2 * i : i];
          S& b = x[interleaved ? 2 * i + 1 : i + half];
          const S a0 = a, b0 = b;
          a = f * (a0 * c - b0 * s);
          b = f * (a0 * s + b0 * c);
        }
      }
  }

  static S bias(const model_config& c, const positional& p, const S* params, const offsets& o,
                int h, int i, int j) {
    const std::size_t t = p.length;
    if (c.encoding == train_encoding::alibi) return S(p.alibi[(h * t + i) * t + j]);
    if (c.encoding == train_encoding::t5)
      return params[o.t5 + std::size_t(h) * c.t5_buckets + p.buckets[std::size_t(i) * t + j]];
    return 0;
  }

  // Vaswani et al. scale the token embedding by √dim before adding the sinusoids.
  static S embedding_scale(const model_config& c) {
    return c.encoding == train_encoding::sinusoidal ? std::sqrt(S(c.dim)) : S(1);
  }

  model_config c;
  offsets o;
  positional pos;
  std::vector<layer_trace<S>> layers;
  std::vector<S> x0, x_out, xhat_f, rstd_f, h_f, logits;
  // Backward scratch.
  std::vector<S> dx, dtmp, dqkv, datt, dact, dlogits;

  explicit impl(const model_config& config) : c(config), o(layout(config, nullptr)) {
    layers.resize(c.layers);
  }

  void size_for(int length) {
    const std::size_t t = length, d = c.dim, f = c.mlp;
    for (auto& l : layers) {
      for (auto* v : {&l.x_in, &l.xhat1, &l.a1, &l.att, &l.x_mid, &l.xhat2, &l.a2}) v->resize(t * d);
      l.rstd1.resize(t);
      l.rstd2.resize(t);
      l.qkv.resize(t * 3 * d);
      l.probs.assign(std::size_t(c.heads) * t * t, S(0));
      l.up.resize(t * f);
      l.act.resize(t * f);
    }
    for (auto* v : {&x0, &x_out, &xhat_f, &h_f}) v->resize(t * d);
    rstd_f.resize(t);
    logits.resize(t * c.vocab);
  }

  // Forward of one sequence; fills the trace and the logits.
  void forward(const S* params, const std::int32_t* tokens, int length) {
    size_for(length);
    const std::size_t t = length, d = c.dim, f = c.mlp, hd = d / c.heads;
    const S embed_scale = embedding_scale(c);
    for (std::size_t i = 0; i < t; ++i) {
      const S* e = params + o.embedding + std::size_t(tokens[i]) * d;
      for (std::size_t j = 0; j < d; ++j) x0[i * d + j] = embed_scale * e[j];
      if (c.encoding == train_encoding::sinusoidal)
        for (std::size_t j = 0; j < d; ++j) x0[i * d + j] += S(pos.sinusoid[i * d + j]);
      if (c.encoding == train_encoding::learned)
        for (std::size_t j = 0; j < d; ++j) x0[i * d + j] += params[o.positions + i * d + j];
    }
    const S scale = S(1) / std::sqrt(S(hd));
    const S* x = x0.data();
    for (int l = 0; l < c.layers; ++l) {
      auto& L = layers[l];
      const auto& P = o.layers[l];
      if (x != L.x_in.data()) std::copy(x, x + t * d, L.x_in.begin());
      norm_forward(L.x_in.data(), params + P.norm1_gain, params + P.norm1_bias, L.xhat1.data(),
                   L.rstd1.data(), L.a1.data(), t, d);
      train_matmul(L.a1.data(), params + P.qkv, L.qkv.data(), t, d, 3 * d);
      if (pos.rope) {
        rotate(*pos.rope, L.qkv.data(), 3 * d, length, c.heads, false);
        rotate(*pos.rope, L.qkv.data() + d, 3 * d, length, c.heads, false);
      }
      std::fill(L.att.begin(), L.att.end(), S(0));
      for (int h = 0; h < c.heads; ++h)
        for (std::size_t i = 0; i < t; ++i) {
          S* p = L.probs.data() + (h * t + i) * t;
          const S* q = L.qkv.data() + i * 3 * d + h * hd;
          S top = -std::numeric_limits<S>::infinity();
          for (std::size_t j = 0; j <= i; ++j) {
            p[j] = scale * train_dot(hd, q, L.qkv.data() + j * 3 * d + d + h * hd) +
                   bias(c, pos, params, o, h, int(i), int(j));
            top = std::max(top, p[j]);
          }
          S sum = 0;
          for (std::size_t j = 0; j <= i; ++j) sum += (p[j] = std::exp(p[j] - top));
          S* out = L.att.data() + i * d + h * hd;
          for (std::size_t j = 0; j <= i; ++j) {
            p[j] /= sum;
            train_axpy(hd, p[j], L.qkv.data() + j * 3 * d + 2 * d + h * hd, out);
          }
        }
      train_matmul(L.att.data(), params + P.out, L.x_mid.data(), t, d, d);
      for (std::size_t i = 0; i < t * d; ++i) L.x_mid[i] += L.x_in[i];
      norm_forward(L.x_mid.data(), params + P.norm2_gain, params + P.norm2_bias, L.xhat2.data(),
                   L.rstd2.data(), L.a2.data(), t, d);
      train_matmul(L.a2.data(), params + P.up, L.up.data(), t, d, f);
      for (std::size_t i = 0; i < t; ++i)
        for (std::size_t j = 0; j < f; ++j) {
          L.up[i * f + j] += params[P.up_bias + j];
          L.act[i * f + j] = std::max(L.up[i * f + j], S(0));
        }
      S* next = l + 1 < c.layers ? layers[l + 1].x_in.data() : x_out.data();
      train_matmul(L.act.data(), params + P.down, next, t, f, d);
      for (std::size_t i = 0; i < t; ++i)
        for (std::size_t j = 0; j < d; ++j) next[i * d + j] += params[P.down_bias + j] + L.x_mid[i * d + j];
      x = next;
    }
    norm_forward(x_out.data(), params + o.final_gain, params + o.final_bias, xhat_f.data(),
                 rstd_f.data(), h_f.data(), t, d);
    train_matmul_nt(h_f.data(), params + o.embedding, logits.data(), t, c.vocab, d, false);
  }

  // Scores the logits against targets; with `dlogits`, writes d(loss·weight)/d(logits).
  void score(const std::int32_t* targets, int length, batch_score& s, S weight, bool grad) {
    const std::size_t v = c.vocab;
    if (grad) dlogits.assign(std::size_t(length) * v, S(0));
    for (int i = 0; i < length; ++i) {
      if (targets[i] < 0) continue;
      const S* z = logits.data() + std::size_t(i) * v;
      std::size_t best = 0;
      for (std::size_t k = 1; k < v; ++k) if (z[k] > z[best]) best = k;
      S sum = 0;
      for (std::size_t k = 0; k < v; ++k) sum += std::exp(z[k] - z[best]);
      const S log_sum = std::log(sum) + z[best];
      s.loss_sum += double(log_sum - z[targets[i]]);
      s.correct += best == std::size_t(targets[i]);
      s.scored += 1;
      if (grad) {
        S* g = dlogits.data() + std::size_t(i) * v;
        for (std::size_t k = 0; k < v; ++k) g[k] = weight * std::exp(z[k] - log_sum);
        g[targets[i]] -= weight;
      }
    }
  }

  // Backward of the sequence forward() last ran, adding to grads.
  void backward(const S* params, S* grads, const std::int32_t* tokens, int length) {
    const std::size_t t = length, d = c.dim, f = c.mlp, hd = d / c.heads;
    const S scale = S(1) / std::sqrt(S(hd));
    dtmp.assign(t * d, S(0));
    train_matmul(dlogits.data(), params + o.embedding, dtmp.data(), t, c.vocab, d);
    train_matmul_tn(dlogits.data(), h_f.data(), grads + o.embedding, t, c.vocab, d);
    dx.assign(t * d, S(0));
    norm_backward(dtmp.data(), params + o.final_gain, xhat_f.data(), rstd_f.data(),
                  grads + o.final_gain, grads + o.final_bias, dx.data(), t, d);
    for (int l = c.layers - 1; l >= 0; --l) {
      auto& L = layers[l];
      const auto& P = o.layers[l];
      // MLP: dx is d(loss)/d(layer output) = d/d(x_mid) through the residual, plus the branch.
      for (std::size_t i = 0; i < t; ++i)
        for (std::size_t j = 0; j < d; ++j) grads[P.down_bias + j] += dx[i * d + j];
      train_matmul_tn(L.act.data(), dx.data(), grads + P.down, t, f, d);
      dact.resize(t * f);
      train_matmul_nt(dx.data(), params + P.down, dact.data(), t, f, d, false);
      for (std::size_t i = 0; i < t * f; ++i) dact[i] = L.up[i] > 0 ? dact[i] : S(0);  // ReLU
      for (std::size_t i = 0; i < t; ++i)
        for (std::size_t j = 0; j < f; ++j) grads[P.up_bias + j] += dact[i * f + j];
      train_matmul_tn(L.a2.data(), dact.data(), grads + P.up, t, d, f);
      train_matmul_nt(dact.data(), params + P.up, dtmp.data(), t, d, f, false);
      norm_backward(dtmp.data(), params + P.norm2_gain, L.xhat2.data(), L.rstd2.data(),
                    grads + P.norm2_gain, grads + P.norm2_bias, dx.data(), t, d);
      // Attention: dx is now d/d(x_mid) = d/d(x_in) through the residual, plus the branch.
      train_matmul_tn(L.att.data(), dx.data(), grads + P.out, t, d, d);
      datt.resize(t * d);
      train_matmul_nt(dx.data(), params + P.out, datt.data(), t, d, d, false);
      dqkv.assign(t * 3 * d, S(0));
      for (int h = 0; h < c.heads; ++h)
        for (std::size_t i = 0; i < t; ++i) {
          const S* p = L.probs.data() + (h * t + i) * t;
          const S* g = datt.data() + i * d + h * hd;
          const S* q = L.qkv.data() + i * 3 * d + h * hd;
          S* dq = dqkv.data() + i * 3 * d + h * hd;
          S dot_pg = 0;
          dtmp.resize(std::max(dtmp.size(), t));
          for (std::size_t j = 0; j <= i; ++j) {
            dtmp[j] = train_dot(hd, g, L.qkv.data() + j * 3 * d + 2 * d + h * hd);  // dP
            dot_pg += p[j] * dtmp[j];
          }
          for (std::size_t j = 0; j <= i; ++j) {
            train_axpy(hd, p[j], g, dqkv.data() + j * 3 * d + 2 * d + h * hd);  // dv
            const S ds = p[j] * (dtmp[j] - dot_pg);
            if (c.encoding == train_encoding::t5)
              grads[o.t5 + std::size_t(h) * c.t5_buckets + pos.buckets[i * t + j]] += ds;
            train_axpy(hd, scale * ds, L.qkv.data() + j * 3 * d + d + h * hd, dq);
            train_axpy(hd, scale * ds, q, dqkv.data() + j * 3 * d + d + h * hd);
          }
        }
      if (pos.rope) {  // the backward of a rotation is its transpose, the inverse rotation
        rotate(*pos.rope, dqkv.data(), 3 * d, length, c.heads, true);
        rotate(*pos.rope, dqkv.data() + d, 3 * d, length, c.heads, true);
      }
      train_matmul_tn(L.a1.data(), dqkv.data(), grads + P.qkv, t, d, 3 * d);
      dtmp.resize(t * d);
      train_matmul_nt(dqkv.data(), params + P.qkv, dtmp.data(), t, d, 3 * d, false);
      norm_backward(dtmp.data(), params + P.norm1_gain, L.xhat1.data(), L.rstd1.data(),
                    grads + P.norm1_gain, grads + P.norm1_bias, dx.data(), t, d);
    }
    for (std::size_t i = 0; i < t; ++i) {
      train_axpy(d, embedding_scale(c), dx.data() + i * d, grads + o.embedding + std::size_t(tokens[i]) * d);
      if (c.encoding == train_encoding::learned) train_axpy(d, S(1), dx.data() + i * d, grads + o.positions + i * d);
    }
  }
};

namespace {

void check_batch(const model_config& c, const train_batch& b) {
  check_range("batch.sequences", b.sequences, 1, 1 << 24);
  check_range("batch.length", b.length, 1, c.max_positions);
  const std::size_t n = std::size_t(b.sequences) * std::size_t(b.length);
  if (b.tokens.size() != n || b.targets.size() != n)
    throw length_error("posenc: batch.tokens and batch.targets must hold sequences·length = " +
                       std::to_string(n) + " values, got " + std::to_string(b.tokens.size()) +
                       " and " + std::to_string(b.targets.size()));
  for (std::size_t i = 0; i < n; ++i) {
    if (b.tokens[i] < 0 || b.tokens[i] >= c.vocab)
      bad("batch.tokens[" + std::to_string(i) + "] must be in [0, " + std::to_string(c.vocab - 1) +
          "], got " + std::to_string(b.tokens[i]));
    if (b.targets[i] < -1 || b.targets[i] >= c.vocab)
      bad("batch.targets[" + std::to_string(i) + "] must be in [-1, " + std::to_string(c.vocab - 1) +
          "], got " + std::to_string(b.targets[i]));
  }
}

void check_options(const model_config& c, const eval_options& o) {
  const auto e = static_cast<std::size_t>(o.extension);
  if (e >= extension_names.size()) bad("options.extension is not a rope_extension value");
  if (o.extension != rope_extension::none)
    check_range("options.trained_length", o.trained_length, 1, c.max_positions);
}

}  // namespace

template <class S>
transformer<S>::transformer(const model_config& config, std::uint64_t seed) : config_(config) {
  check_config(config);
  if (workspace_of(config, config.max_positions) > max_train_workspace)
    throw length_error("posenc: config.max_positions " + std::to_string(config.max_positions) +
                       " needs " + std::to_string(workspace_of(config, config.max_positions)) +
                       " workspace scalars per sequence, above max_train_workspace (2^28)");
  const offsets o = layout(config, &blocks_);
  params_.assign(o.total, S(0));
  grads_.assign(o.total, S(0));
  random rng(seed);
  auto fill = [&](std::size_t at, std::size_t n, double bound) {
    for (std::size_t i = 0; i < n; ++i) params_[at + i] = S(rng.uniform(float(-bound), float(bound)));
  };
  const std::size_t d = config.dim, f = config.mlp;
  fill(o.embedding, std::size_t(config.vocab) * d, 0.1);
  if (config.encoding == train_encoding::learned) {
    const learned_table table(config.max_positions, config.dim, seed + 1);
    for (std::size_t i = 0; i < table.data().size(); ++i) params_[o.positions + i] = S(0.1f * table.data()[i]);
  }
  for (const auto& l : o.layers) {
    std::fill_n(params_.begin() + std::ptrdiff_t(l.norm1_gain), d, S(1));
    std::fill_n(params_.begin() + std::ptrdiff_t(l.norm2_gain), d, S(1));
    fill(l.qkv, d * 3 * d, 1 / std::sqrt(double(d)));
    fill(l.out, d * d, 1 / std::sqrt(double(d)));
    fill(l.up, d * f, 1 / std::sqrt(double(d)));
    fill(l.down, f * d, 1 / std::sqrt(double(f)));
  }
  std::fill_n(params_.begin() + std::ptrdiff_t(o.final_gain), d, S(1));
}

template <class S>
std::size_t transformer<S>::workspace(int length) const noexcept {
  return workspace_of(config_, std::size_t(std::max(length, 0)));
}

template <class S>
batch_score transformer<S>::gradient(const train_batch& batch) {
  check_batch(config_, batch);
  impl m(config_);
  impl::prepare(config_, m.pos, batch.length, {});
  std::int64_t scored = 0;
  for (auto y : batch.targets) scored += y >= 0;
  std::fill(grads_.begin(), grads_.end(), S(0));
  batch_score s;
  const S weight = scored ? S(1) / S(scored) : S(0);
  for (int b = 0; b < batch.sequences; ++b) {
    const std::size_t at = std::size_t(b) * batch.length;
    m.forward(params_.data(), batch.tokens.data() + at, batch.length);
    m.score(batch.targets.data() + at, batch.length, s, weight, true);
    m.backward(params_.data(), grads_.data(), batch.tokens.data() + at, batch.length);
  }
  return s;
}

template <class S>
batch_score transformer<S>::evaluate(const train_batch& batch, const eval_options& options) {
  check_batch(config_, batch);
  check_options(config_, options);
  impl m(config_);
  impl::prepare(config_, m.pos, batch.length, options);
  batch_score s;
  for (int b = 0; b < batch.sequences; ++b) {
    const std::size_t at = std::size_t(b) * batch.length;
    m.forward(params_.data(), batch.tokens.data() + at, batch.length);
    m.score(batch.targets.data() + at, batch.length, s, S(0), false);
  }
  return s;
}

template <class S>
std::vector<S> transformer<S>::attention(std::span<const std::int32_t> tokens,
                                         const eval_options& options) {
  train_batch b;
  b.sequences = 1;
  b.length = static_cast<int>(std::min<std::size_t>(tokens.size(), std::size_t(1) << 30));
  b.tokens.assign(tokens.begin(), tokens.end());
  b.targets.assign(tokens.size(), -1);
  check_batch(config_, b);
  check_options(config_, options);
  impl m(config_);
  impl::prepare(config_, m.pos, b.length, options);
  m.forward(params_.data(), b.tokens.data(), b.length);
  std::vector<S> out;
  for (const auto& l : m.layers) out.insert(out.end(), l.probs.begin(), l.probs.end());
  return out;
}

template class transformer<float>;
template class transformer<double>;

double adam_rate(const adam_config& c, int step, int steps) noexcept {
  if (step < c.warmup_steps) return c.learning_rate * double(step + 1) / double(c.warmup_steps);
  const double span = std::max(1, steps - 1 - c.warmup_steps);
  const double progress = std::min(1.0, double(step - c.warmup_steps) / span);
  return c.learning_rate * (0.1 + 0.45 * (1 + std::cos(3.141592653589793 * progress)));
}

template <class S>
adam<S>::adam(std::size_t parameters, const adam_config& c) : config_(c) {
  auto in01 = [](double v) { return v >= 0 && v < 1; };
  if (!(std::isfinite(c.learning_rate) && c.learning_rate > 0)) bad("adam.learning_rate must be finite and > 0");
  if (!in01(c.beta1)) bad("adam.beta1 must be in [0, 1), got " + std::to_string(c.beta1));
  if (!in01(c.beta2)) bad("adam.beta2 must be in [0, 1), got " + std::to_string(c.beta2));
  if (!(std::isfinite(c.epsilon) && c.epsilon > 0)) bad("adam.epsilon must be finite and > 0");
  if (!(std::isfinite(c.clip_norm) && c.clip_norm >= 0)) bad("adam.clip_norm must be finite and >= 0");
  if (c.warmup_steps < 0) bad("adam.warmup_steps must be >= 0, got " + std::to_string(c.warmup_steps));
  m_.assign(parameters, S(0));
  v_.assign(parameters, S(0));
}

template <class S>
double adam<S>::step(std::span<S> params, std::span<const S> grads, double rate) {
  if (params.size() != m_.size()) throw length_error("posenc: params must hold " + std::to_string(m_.size()) + " values");
  if (grads.size() != m_.size()) throw length_error("posenc: grads must hold " + std::to_string(m_.size()) + " values");
  if (!(std::isfinite(rate) && rate >= 0)) bad("rate must be finite and >= 0");
  double norm = 0;
  for (S g : grads) norm += double(g) * double(g);
  norm = std::sqrt(norm);
  const double clip = config_.clip_norm > 0 && norm > config_.clip_norm ? config_.clip_norm / norm : 1.0;
  ++t_;
  const double b1 = config_.beta1, b2 = config_.beta2;
  const double c1 = 1 - std::pow(b1, double(t_)), c2 = 1 - std::pow(b2, double(t_));
  for (std::size_t i = 0; i < m_.size(); ++i) {
    const S g = S(double(grads[i]) * clip);
    m_[i] = S(b1) * m_[i] + S(1 - b1) * g;
    v_[i] = S(b2) * v_[i] + S(1 - b2) * g * g;
    params[i] -= S(rate * (double(m_[i]) / c1) / (std::sqrt(double(v_[i]) / c2) + config_.epsilon));
  }
  return norm;
}

template class adam<float>;
template class adam<double>;

}  // namespace posenc
