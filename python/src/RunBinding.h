#pragma once
// attention_explorer.run(): a preset's or config's runs through core's PlanRunner, as the CLI's
// `run` command does, with the training on a thread of its own and the GIL released; the
// calling thread hands the records to Python's on_record and polls for Ctrl-C.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ade::python {

namespace py = pybind11;

// A file or folder could not be written or read (OSError in Python).
class FileError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct PlanSource {
    std::vector<std::string> presetDirs;  // where presets are looked up (PresetLibrary)
    std::string preset;                   // a preset's name, or
    std::string configJson;               // a config document (JSON text), or
    std::string configFile;               // a config file's path
    std::vector<std::string> sets;        // "key=value", applied to every run
};

struct RunRequest {
    PlanSource source;
    int seeds = 0;  // 0: the plan's
    int jobs = 1;
    std::string out;  // "" = write nothing
    bool saveData = false;
    std::string commandLine;  // recorded in each summary.json ("command")
};

// {plan, description, seeds, runs: [run dicts (Convert.h)], claims, interrupted,
//  stopped_by_callback, callback_error}. Raises ValueError with the CLI's message for a bad
// preset, key or value, OSError when the output cannot be written.
py::dict runPlan(const RunRequest& request, py::object onRecord, long every);

}  // namespace ade::python
