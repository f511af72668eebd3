// test_train_gradients.cpp — transformer<double>::gradient (posenc/train.hpp) against central
// finite differences of transformer<double>::evaluate, for every parameter block (embedding,
// position table, t5 table, each layer's norms, attention and MLP, final norm) under every
// encoding; and the rotation the trainer uses against posenc's own rope_apply.
#include "posenc/train.hpp"

#include "posenc/random.hpp"
#include "posenc/rotary.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using namespace posenc;

model_config tiny(train_encoding e) {
  model_config c;
  c.vocab = 7;
  c.dim = 8;
  c.heads = 2;
  c.layers = 2;
  c.mlp = 12;
  c.encoding = e;
  c.max_positions = 8;
  c.t5_buckets = 6;
  c.t5_max_distance = 8;
  return c;
}

// Two sequences of 6 with some targets unscored.
train_batch tiny_batch() {
  train_batch b;
  b.sequences = 2;
  b.length = 6;
  b.tokens = {1, 4, 2, 6, 0, 3, 5, 5, 1, 2, 6, 4};
  b.targets = {4, -1, 6, 0, 3, 2, -1, 1, 2, 6, 4, 0};
  return b;
}

// Moves every parameter off its initial value (gains 1, biases 0, t5 table 0), so no
// block's gradient is trivially symmetric.
void jitter(transformer<double>& m, std::uint64_t seed) {
  posenc::random r(seed);
  for (double& p : m.parameters()) p += r.uniform(-0.3f, 0.3f);
}

double mean_loss(transformer<double>& m, const train_batch& b) {
  return m.evaluate(b).loss();
}

const train_encoding all_encodings[] = {
    train_encoding::none, train_encoding::sinusoidal, train_encoding::learned,
    train_encoding::t5,   train_encoding::alibi,      train_encoding::rope_half,
    train_encoding::rope_interleaved};

}  // namespace

TEST_CASE("train: analytic gradients match central differences for every block and encoding",
          "[train]") {
  for (const auto e : all_encodings) {
    transformer<double> m(tiny(e), 11);
    jitter(m, 12);
    const train_batch b = tiny_batch();
    const batch_score s = m.gradient(b);
    CHECK(s.scored == 10);
    const std::vector<double> g(m.gradients().begin(), m.gradients().end());
    auto p = m.parameters();
    const double h = 1e-6;
    for (const auto& block : m.blocks()) {
      double worst = 0, largest = 0;
      for (std::size_t i = block.offset; i < block.offset + block.size; ++i) {
        const double keep = p[i];
        p[i] = keep + h;
        const double up = mean_loss(m, b);
        p[i] = keep - h;
        const double down = mean_loss(m, b);
        p[i] = keep;
        const double fd = (up - down) / (2 * h);
        // Central differences in double at h = 1e−6: truncation ~h², rounding ~1e−16/h ≈ 1e−10
        // absolute, hence the 1e−2 floor (an absolute error 1e−8 for small gradients).
        worst = std::max(worst, std::abs(fd - g[i]) / (1e-2 + std::abs(fd)));
        largest = std::max(largest, std::abs(fd));
      }
      INFO("encoding " << to_string(e) << ", block " << block.name << ": worst relative error "
                       << worst << ", largest |gradient| " << largest);
      CHECK(worst < 1e-6);
      // Every block this batch reaches has a gradient, so the comparison is not of zeros.
      CHECK(largest > 1e-4);
    }
  }
}

TEST_CASE("train: the trainer's RoPE rotation is posenc's rope_apply (both layouts, PI, YaRN)",
          "[train]") {
  // One-layer rope model: rebuild layer 0's attention from its parameters with rope_apply
  // and compare with transformer::attention.
  for (const auto e : {train_encoding::rope_half, train_encoding::rope_interleaved})
    for (const auto ext : {rope_extension::none, rope_extension::pi, rope_extension::yarn}) {
      model_config c = tiny(e);
      c.layers = 1;
      c.dim = 16;
      c.heads = 2;
      c.max_positions = 12;
      transformer<double> m(c, 5);
      jitter(m, 6);
      const std::vector<std::int32_t> tokens = {3, 1, 4, 1, 5, 2, 6, 5, 3, 5, 0, 2};
      const int t = 12, d = c.dim, hd = d / c.heads, trained = 4;
      const auto probs = m.attention(tokens, {ext, trained});
      // Layer 0's input: embedding rows, layer norm with its gain and bias, then q and k.
      const auto blocks = m.blocks();
      auto at = [&](const char* name) {
        for (const auto& b : blocks) if (b.name == name) return b.offset;
        FAIL("no block " << name);
        return std::size_t(0);
      };
      const auto p = m.parameters();
      std::vector<float> q(std::size_t(t) * d), k(std::size_t(t) * d);
      for (int i = 0; i < t; ++i) {
        std::vector<double> x(d), a(d);
        double mean = 0, var = 0;
        for (int j = 0; j < d; ++j) mean += x[j] = p[at("embedding") + std::size_t(tokens[i]) * d + j];
        mean /= d;
        for (int j = 0; j < d; ++j) var += (x[j] - mean) * (x[j] - mean);
        const double rs = 1 / std::sqrt(var / d + 1e-5);
        for (int j = 0; j < d; ++j)
          a[j] = p[at("layer0.norm1.gain") + j] * (x[j] - mean) * rs + p[at("layer0.norm1.bias") + j];
        for (int o = 0; o < d; ++o) {
          double sq = 0, sk = 0;
          for (int j = 0; j < d; ++j) {
            sq += a[j] * p[at("layer0.attn.qkv") + std::size_t(j) * 3 * d + o];
            sk += a[j] * p[at("layer0.attn.qkv") + std::size_t(j) * 3 * d + d + o];
          }
          q[std::size_t(i) * d + o] = float(sq);
          k[std::size_t(i) * d + o] = float(sk);
        }
      }
      rope_config rc;
      rc.head_dim = hd;
      rc.layout = e == train_encoding::rope_half ? rope_layout::half : rope_layout::interleaved;
      if (ext != rope_extension::none) {
        rc.scaling.type = ext == rope_extension::pi ? scaling_type::linear : scaling_type::yarn;
        rc.scaling.factor = double(t) / trained;
        rc.scaling.original_max_position_embeddings = trained;
      }
      const rotary_cache cache(rc);
      rope_apply(cache, tensor_view::dense(q.data(), q.size(), t, c.heads, hd), 0);
      rope_apply(cache, tensor_view::dense(k.data(), k.size(), t, c.heads, hd), 0);
      double worst = 0;
      for (int h = 0; h < c.heads; ++h)
        for (int i = 0; i < t; ++i) {
          std::vector<double> s(i + 1);
          double top = -1e300, sum = 0;
          for (int j = 0; j <= i; ++j) {
            double dot = 0;
            for (int r = 0; r < hd; ++r)
              dot += double(q[std::size_t(i) * d + h * hd + r]) * k[std::size_t(j) * d + h * hd + r];
            top = std::max(top, s[j] = dot / std::sqrt(double(hd)));
          }
          for (int j = 0; j <= i; ++j) sum += s[j] = std::exp(s[j] - top);
          for (int j = 0; j <= i; ++j)
            worst = std::max(worst, std::abs(s[j] / sum - probs[(std::size_t(h) * t + i) * t + j]));
        }
      INFO(to_string(e) << " " << to_string(ext) << ": worst probability difference " << worst);
      CHECK(worst < 2e-5);  // q, k rounded to float for rope_apply
    }
}

TEST_CASE("train: attention maps are causal distributions, one per layer and head", "[train]") {
  for (const auto e : all_encodings) {
    transformer<float> m(tiny(e), 3);
    const std::vector<std::int32_t> tokens = {1, 2, 3, 4, 5, 6, 0};
    const auto probs = m.attention(tokens);
    REQUIRE(probs.size() == 2u * 2u * 7u * 7u);
    for (std::size_t row = 0; row < 2 * 2 * 7; ++row) {
      const std::size_t i = row % 7;
      double sum = 0;
      for (std::size_t j = 0; j < 7; ++j) {
        const float p = probs[row * 7 + j];
        if (j > i) CHECK(p == 0.0f);
        else CHECK(p >= 0.0f);
        sum += p;
      }
      CHECK(sum == Approx(1.0).epsilon(1e-5));
    }
    CHECK(m.workspace(7) == 2u * (2u * 49u + 7u * (11u * 8u + 2u * 12u + 2u)) + 7u * (4u * 8u + 7u + 1u));
  }
}
