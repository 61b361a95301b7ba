#pragma once
// The floating-point precision of a run's training step (config key `precision`). float64 is the
// default and the reference; float32 computes the loss and its gradients in single precision
// (docs/performance.md states the accuracy), while the parameters, the optimiser and every
// closed-form metric stay in float64.
#include <optional>
#include <string_view>

namespace ade {

enum class Precision { Float64, Float32 };

inline const char* precisionName(Precision p) {
    return p == Precision::Float32 ? "float32" : "float64";
}

inline std::optional<Precision> parsePrecision(std::string_view s) {
    if (s == "float64") return Precision::Float64;
    if (s == "float32") return Precision::Float32;
    return std::nullopt;
}

}  // namespace ade
