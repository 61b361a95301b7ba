#pragma once
// Entry points shared by the libFuzzer drivers (fuzz_*.cpp) and the regression test that replays
// the corpus and every crash found (tests/fuzz). Each must never crash, hang or leak on any input.
#include <cstddef>
#include <cstdint>

namespace adefuzz {
int plan(const std::uint8_t* data, std::size_t size);     // preset / config / session JSON
int set(const std::uint8_t* data, std::size_t size);      // --set KEY=VALUE lines
int session(const std::uint8_t* data, std::size_t size);  // session files
int npy(const std::uint8_t* data, std::size_t size);      // .npy reader
}  // namespace adefuzz
