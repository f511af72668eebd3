// test_train_tasks.cpp — task_source (posenc/train_tasks.hpp): each task's targets follow its
// rule, samples are a function of the generator's seed, and bad arguments are refused by name.
#include "posenc/train_tasks.hpp"

#include "posenc/errors.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace posenc;
using posenc::test::require_throws;

TEST_CASE("train tasks: copy repeats the first half after the separator", "[train]") {
  task_source task({train_task::copy, 5, 8, {}});
  CHECK(task.vocab() == 6);
  posenc::random r(3);
  const train_batch b = task.sample(r, 2, 10);
  for (int s = 0; s < 2; ++s) {
    const std::int32_t* x = b.tokens.data() + s * 10;
    const std::int32_t* y = b.targets.data() + s * 10;
    CHECK(x[5] == 5);  // SEP after n = 5 symbols
    for (int t = 0; t < 5; ++t) CHECK(y[t] == -1);
    for (int t = 5; t < 10; ++t) CHECK(y[t] == x[t - 5]);       // next copied symbol
    for (int t = 6; t < 10; ++t) CHECK(x[t] == x[t - 6]);       // the copy itself
  }
}

TEST_CASE("train tasks: recall targets the token a fixed distance back", "[train]") {
  task_source task({train_task::recall, 16, 3, {}});
  CHECK(task.vocab() == 16);
  CHECK(task.min_length() == 4);
  posenc::random r(4);
  const train_batch b = task.sample(r, 3, 12);
  for (int i = 0; i < 36; ++i) {
    const int t = i % 12;
    CHECK(b.targets[i] == (t >= 3 ? b.tokens[i - 3] : -1));
  }
}

TEST_CASE("train tasks: induction targets what followed the most recent earlier occurrence",
          "[train]") {
  task_source task({train_task::induction, 4, 8, {}});
  posenc::random r(5);
  const train_batch b = task.sample(r, 1, 40);
  int scored = 0;
  for (int t = 0; t < 40; ++t) {
    int j = t - 1;
    while (j >= 0 && b.tokens[j] != b.tokens[t]) --j;
    CHECK(b.targets[t] == (j >= 0 ? b.tokens[j + 1] : -1));
    scored += j >= 0;
  }
  CHECK(scored >= 30);
}

TEST_CASE("train tasks: text windows predict the next byte", "[train]") {
  const std::string text = "abracadabra, a cab";
  task_source task({train_task::text, 16, 8, text});
  CHECK(task.alphabet() == " ,abcdr");
  CHECK(task.vocab() == 7);
  CHECK(task.max_length() == int(text.size()) - 1);
  posenc::random r(6);
  const train_batch b = task.sample(r, 4, 6);
  for (int s = 0; s < 4; ++s) {
    std::string window;
    for (int t = 0; t < 6; ++t) window += task.alphabet()[b.tokens[s * 6 + t]];
    window += task.alphabet()[b.targets[s * 6 + 5]];
    CHECK(text.find(window) != std::string::npos);
    for (int t = 0; t < 5; ++t) CHECK(b.targets[s * 6 + t] == b.tokens[s * 6 + t + 1]);
  }
}

TEST_CASE("train tasks: a sample is a function of the seed", "[train]") {
  task_source task({train_task::recall, 16, 2, {}});
  posenc::random a(9), b(9), c(10);
  const train_batch x = task.sample(a, 2, 16), y = task.sample(b, 2, 16), z = task.sample(c, 2, 16);
  CHECK(x.tokens == y.tokens);
  CHECK(x.targets == y.targets);
  CHECK(x.tokens != z.tokens);
}

TEST_CASE("train tasks: bad arguments are refused by name", "[train]") {
  require_throws<invalid_argument>([] { task_source({train_task::copy, 1, 8, {}}); }, "task.symbols");
  require_throws<invalid_argument>([] { task_source({train_task::recall, 4, 0, {}}); }, "task.distance");
  require_throws<invalid_argument>([] { task_source({train_task::text, 4, 1, "aaaa"}); }, "task.text");
  require_throws<invalid_argument>([] { parse_train_task("sort"); }, "task");
  task_source task({train_task::recall, 4, 5, {}});
  posenc::random r(1);
  require_throws<invalid_argument>([&] { task.sample(r, 1, 5); }, "length");
  require_throws<invalid_argument>([&] { task.sample(r, 0, 8); }, "sequences");
}
