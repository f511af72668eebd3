// tests/core/support.hpp — small helpers shared by the Catch2 test files.
#pragma once

#include <catch2/catch.hpp>

#include <string>

namespace posenc::test {

// f() must throw exactly E (a posenc exception type) whose message names `needle`.
template <class E, class F>
void require_throws(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const E& e) {
    CHECK_THAT(e.what(), Catch::Contains(needle));
    return;
  }
  FAIL("expected an exception naming " << needle);
}

} // namespace posenc::test
