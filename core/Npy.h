#pragma once
// NumPy .npy (format 1.0, little-endian float64, C order) reading and writing.
#include <optional>
#include <string>

#include "Problem.h"

namespace ade {

// Serialises to bytes (the caller writes atomically).
std::string encodeNpy(const NamedArray& a);
// Parses bytes; nullopt with a message on malformed input (never throws, never over-reads).
std::optional<NamedArray> decodeNpy(const std::string& bytes, std::string* error);

}  // namespace ade
