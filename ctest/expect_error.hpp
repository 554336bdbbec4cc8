#pragma once
// Expects that `f` throws wavefd::Error whose message contains `part` (the one-line contract of
// bad input: the message names the parameter and the accepted range).
#include <gtest/gtest.h>

#include <string>

#include "wavefd/types.hpp"

template <class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no Error thrown; expected one containing: " << part;
  } catch (const wavefd::Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << part;
  }
}
