// posenc/train_tasks.hpp — the trainer's tasks: sequences whose right answers are exact and
// depend on position, drawn from posenc::random so a seed gives the same batches everywhere.
//
// Symbols are tokens 0 … symbols−1, drawn uniformly. At each position the model predicts
// target[t] from tokens[0 … t]; a target of −1 is not scored.
//   copy       x_0 … x_{n−1} SEP x_0 … x_{n−2} with n = length/2 (SEP = token `symbols`):
//              from the SEP on, each target is the next token of the copy, so the answer
//              sits n + 1 positions back — a distance that grows with the length.
//   recall     random symbols; target[t] = tokens[t − distance] for t ≥ distance: the value
//              a fixed distance back, the same distance at every length.
//   induction  random symbols; where tokens[t] occurred before, the target is the token that
//              followed its most recent earlier occurrence (… A B … A → B).
//   text       character (byte) language model on a text: windows of length + 1 bytes at
//              random offsets; target[t] = the next byte. Tokens are the text's distinct
//              bytes in increasing order.
#pragma once

#include "posenc/random.hpp"
#include "posenc/train.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

enum class train_task { copy, recall, induction, text };

// "copy" | "recall" | "induction" | "text"; anything else throws posenc::invalid_argument
// naming `task`.
train_task parse_train_task(std::string_view name);
std::string_view to_string(train_task task) noexcept;

struct task_config {
  train_task kind = train_task::recall;
  int symbols = 16;    // copy, recall, induction: in [2, 4096]
  int distance = 8;    // recall: in [1, max_train_positions − 1]
  std::string text;    // text: 2 … 2³⁰ bytes with at least 2 distinct bytes
};

class task_source {
public:
  // Validates config (invalid_argument naming `task.<field>`).
  explicit task_source(task_config config);

  const task_config& config() const noexcept { return config_; }
  // Tokens the task uses: symbols (+1 for copy's SEP), or the text's distinct bytes.
  int vocab() const noexcept { return static_cast<int>(vocab_); }
  // The text's bytes in token order (text task; empty otherwise).
  const std::string& alphabet() const noexcept { return alphabet_; }
  // Shortest and longest length sample() accepts: copy ≥ 2, recall > distance, induction ≥ 2,
  // text ≤ text size − 1; every task ≤ max_train_positions.
  int min_length() const noexcept;
  int max_length() const noexcept;

  // `sequences` in [1, 2²⁰] sequences of `length` (in [min_length, max_length]) drawn from
  // rng; invalid_argument naming `sequences` / `length` otherwise, rng untouched.
  train_batch sample(random& rng, int sequences, int length) const;

private:
  task_config config_;
  std::int32_t vocab_ = 0;
  std::string alphabet_;
  std::vector<std::int32_t> text_tokens_;
};

}  // namespace posenc
