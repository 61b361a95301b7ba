#pragma once
// Writing a run's results: metrics.csv, summary.json, params/<name>.npy, data/<name>.npy. All
// writes are atomic (writeFileAtomic, io/Files.h): a failure leaves no half-written file.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "config/Config.h"
#include "io/Files.h"  // writeFileAtomic, prepareOutputFolder, safeName: how run output is written
#include "training/Trainer.h"

namespace ade {

// Shortest text that reads back to the same double ("nan", "inf", "-inf" for non-finite).
std::string formatNumber(double v);

// CSV text of a history; `headerComment` lines are prefixed with "# ".
std::string historyCsv(const MetricHistory& h, const std::string& headerComment = "");
// One line per column for a CSV header comment: "<column>: <label> [<units>]. <meaning>",
// from the experiment's metric descriptions.
std::string columnsComment(const std::string& experiment, const std::vector<std::string>& columns);

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
