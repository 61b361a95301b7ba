#pragma once
// Writing a run's results: metrics.csv, summary.json, params/<name>.npy, data/<name>.npy. All
// writes are atomic (temporary file + rename): a failure leaves no half-written file.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "Config.h"
#include "Trainer.h"

namespace ade {

// Writes bytes to `path` atomically; false with a message naming the path and the reason.
bool writeFileAtomic(const std::filesystem::path& path, const std::string& bytes,
                     std::string* error);

// Creates `dir` if needed and checks that files can be created in it: called before a long
// computation so that an unusable output folder is reported at once, not after the runs. False
// with a message naming the folder and the reason.
bool prepareOutputFolder(const std::filesystem::path& dir, std::string* error);

// Shortest text that reads back to the same double ("nan", "inf", "-inf" for non-finite).
std::string formatNumber(double v);

// CSV text of a history; `headerComment` lines are prefixed with "# ".
std::string historyCsv(const MetricHistory& h, const std::string& headerComment = "");

// Final, initial, best (min) and floor (mean of the last 10% of records) of each metric.
nlohmann::json summaryMetrics(const MetricHistory& h);

nlohmann::json runSummary(const std::string& runName, const std::string& planName,
                          const Config& config, const RunResult& result,
                          const std::string& commandLine);

struct RunFiles {
    bool ok = true;
    std::string error;
};
RunFiles writeRunFolder(const std::filesystem::path& dir, const std::string& runName,
                        const std::string& planName, const Config& config, const RunResult& result,
                        const std::string& commandLine, const std::vector<NamedArray>& dataArrays);

}  // namespace ade
