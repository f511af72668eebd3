// The trainer's tasks (posenc/train_tasks.hpp).
#include "posenc/train_tasks.hpp"

#include "posenc/errors.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace posenc {
namespace {

constexpr std::array<std::string_view, 4> task_names = {"copy", "recall", "induction", "text"};
constexpr int max_symbols = 4096;
constexpr int max_sequences = 1 << 20;
constexpr std::size_t max_text = std::size_t{1} << 30;  // window offsets fit below()'s uint32

[[noreturn]] void bad(const std::string& what) { throw invalid_argument("posenc: " + what); }

void fill_copy(random& rng, int symbols, int length, std::int32_t* x, std::int32_t* y) {
  const int n = length / 2;
  std::vector<std::int32_t> s(std::size_t(length) + 1);
  for (int i = 0; i < n; ++i) s[i] = std::int32_t(rng.below(std::uint32_t(symbols)));
  s[n] = symbols;  // SEP
  for (int i = n + 1; i <= length; ++i) s[i] = s[i - n - 1];
  for (int t = 0; t < length; ++t) {
    x[t] = s[t];
    y[t] = t >= n ? s[t + 1] : -1;
  }
}

void fill_recall(random& rng, int symbols, int distance, int length, std::int32_t* x,
                 std::int32_t* y) {
  for (int t = 0; t < length; ++t) x[t] = std::int32_t(rng.below(std::uint32_t(symbols)));
  for (int t = 0; t < length; ++t) y[t] = t >= distance ? x[t - distance] : -1;
}

void fill_induction(random& rng, int symbols, int length, std::int32_t* x, std::int32_t* y) {
  std::vector<int> last(std::size_t(symbols), -1);  // most recent position of each symbol
  for (int t = 0; t < length; ++t) x[t] = std::int32_t(rng.below(std::uint32_t(symbols)));
  for (int t = 0; t < length; ++t) {
    const int j = last[x[t]];
    y[t] = j >= 0 ? x[j + 1] : -1;
    last[x[t]] = t;
  }
}

}  // namespace

train_task parse_train_task(std::string_view name) {
  for (std::size_t i = 0; i < task_names.size(); ++i)
    if (name == task_names[i]) return static_cast<train_task>(i);
  bad("task must be one of copy, recall, induction, text, got \"" + std::string(name) + "\"");
}

std::string_view to_string(train_task task) noexcept {
  const auto i = static_cast<std::size_t>(task);
  return i < task_names.size() ? task_names[i] : "?";
}

task_source::task_source(task_config config) : config_(std::move(config)) {
  const auto kind = static_cast<std::size_t>(config_.kind);
  if (kind >= task_names.size()) bad("task.kind is not a train_task value");
  if (config_.kind == train_task::text) {
    std::array<bool, 256> seen{};
    for (unsigned char c : config_.text) seen[c] = true;
    for (int c = 0; c < 256; ++c) if (seen[c]) alphabet_.push_back(static_cast<char>(c));
    if (config_.text.size() < 2 || config_.text.size() > max_text || alphabet_.size() < 2)
      bad("task.text must hold 2 to 2^30 bytes with at least 2 distinct bytes, got " +
          std::to_string(config_.text.size()) + " bytes, " + std::to_string(alphabet_.size()) +
          " distinct");
    std::array<std::int32_t, 256> index{};
    for (std::size_t i = 0; i < alphabet_.size(); ++i) index[static_cast<unsigned char>(alphabet_[i])] = std::int32_t(i);
    text_tokens_.reserve(config_.text.size());
    for (unsigned char c : config_.text) text_tokens_.push_back(index[c]);
    vocab_ = std::int32_t(alphabet_.size());
    return;
  }
  if (config_.symbols < 2 || config_.symbols > max_symbols)
    bad("task.symbols must be in [2, " + std::to_string(max_symbols) + "], got " + std::to_string(config_.symbols));
  if (config_.kind == train_task::recall && (config_.distance < 1 || config_.distance >= max_train_positions))
    bad("task.distance must be in [1, " + std::to_string(max_train_positions - 1) + "], got " +
        std::to_string(config_.distance));
  vocab_ = config_.symbols + (config_.kind == train_task::copy ? 1 : 0);
}

int task_source::min_length() const noexcept {
  return config_.kind == train_task::recall ? config_.distance + 1 : 2;
}

int task_source::max_length() const noexcept {
  if (config_.kind == train_task::text)
    return static_cast<int>(std::min<std::size_t>(text_tokens_.size() - 1, max_train_positions));
  return max_train_positions;
}

train_batch task_source::sample(random& rng, int sequences, int length) const {
  if (sequences < 1 || sequences > max_sequences)
    bad("sequences must be in [1, " + std::to_string(max_sequences) + "], got " + std::to_string(sequences));
  if (length < min_length() || length > max_length())
    bad("length must be in [" + std::to_string(min_length()) + ", " + std::to_string(max_length()) +
        "] for task " + std::string(to_string(config_.kind)) + ", got " + std::to_string(length));
  train_batch b;
  b.sequences = sequences;
  b.length = length;
  b.tokens.resize(std::size_t(sequences) * length);
  b.targets.resize(b.tokens.size());
  for (int s = 0; s < sequences; ++s) {
    std::int32_t* x = b.tokens.data() + std::size_t(s) * length;
    std::int32_t* y = b.targets.data() + std::size_t(s) * length;
    switch (config_.kind) {
      case train_task::copy: fill_copy(rng, config_.symbols, length, x, y); break;
      case train_task::recall: fill_recall(rng, config_.symbols, config_.distance, length, x, y); break;
      case train_task::induction: fill_induction(rng, config_.symbols, length, x, y); break;
      case train_task::text: {
        const auto windows = std::uint32_t(text_tokens_.size() - std::size_t(length));
        const std::size_t at = rng.below(windows);
        for (int t = 0; t < length; ++t) {
          x[t] = text_tokens_[at + t];
          y[t] = text_tokens_[at + t + 1];
        }
        break;
      }
    }
  }
  return b;
}

}  // namespace posenc
