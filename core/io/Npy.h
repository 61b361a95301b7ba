#pragma once
// NumPy .npy (format 1.0, little-endian float64, C order) reading and writing.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ade {

// A named array for .npy output (parameters, data sets, true matrices). Row-major shape.
struct NamedArray {
    std::string name;
    std::vector<std::size_t> shape;
    std::vector<double> values;  // row-major (C order)
};

// Serialises to bytes (the caller writes atomically).
std::string encodeNpy(const NamedArray& a);
// Parses bytes; nullopt with a message on malformed input (never throws, never over-reads).
std::optional<NamedArray> decodeNpy(const std::string& bytes, std::string* error);

}  // namespace ade
