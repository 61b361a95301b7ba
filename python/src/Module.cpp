// attention_explorer._core: the bindings the package attention_explorer (../attention_explorer)
// is built on. Errors a user can cause come back as Python exceptions (ValueError with the CLI's
// message, OSError for files), never as a crash.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "Catalogue.h"
#include "LoadBinding.h"
#include "RunBinding.h"
#include "SweepBinding.h"
#include "Version.h"
#include "util/CpuLevel.h"

namespace py = pybind11;
using namespace ade::python;

PYBIND11_MODULE(_core, m) {
    m.doc() =
        "The Attention Dynamics Explorer's core (C++), as the package attention_explorer uses it.";
    py::register_exception<FileError>(m, "FileError", PyExc_OSError);
    // std::invalid_argument becomes ValueError (pybind11's own translation).

    m.attr("__version__") = ADE_VERSION;
    m.def(
        "cpu_level", [] { return ade::cpu::levelName(); },
        "The instruction-set level the kernels run at (summary.json's cpu_level).");
    m.def("experiments", &experimentNames);
    m.def(
        "presets_json",
        [](const std::vector<std::string>& dirs) { return presetList(dirs).dump(); },
        py::arg("dirs"));
    m.def(
        "keys_json", [](const std::string& e) { return keyList(e).dump(); }, py::arg("experiment"));
    m.def(
        "describe_json", [](const std::string& e) { return experimentDescription(e).dump(); },
        py::arg("experiment"));

    m.def(
        "run",
        [](std::vector<std::string> dirs, std::string preset, std::string configJson,
           std::string configFile, std::vector<std::string> sets, int seeds, int jobs,
           std::string out, bool saveData, std::string commandLine, py::object onRecord,
           long every) {
            RunRequest r;
            r.source = {std::move(dirs), std::move(preset), std::move(configJson),
                        std::move(configFile), std::move(sets)};
            r.seeds = seeds;
            r.jobs = jobs;
            r.out = std::move(out);
            r.saveData = saveData;
            r.commandLine = std::move(commandLine);
            return runPlan(r, std::move(onRecord), every);
        },
        py::arg("dirs"), py::arg("preset"), py::arg("config_json"), py::arg("config_file"),
        py::arg("sets"), py::arg("seeds"), py::arg("jobs"), py::arg("out"), py::arg("save_data"),
        py::arg("command_line"), py::arg("on_record"), py::arg("every"));

    py::class_<ade::SweepAsk>(m, "SweepAsk")
        .def(py::init<>())
        .def_readwrite("vary", &ade::SweepAsk::varies)
        .def_readwrite("seeds", &ade::SweepAsk::seeds)
        .def_readwrite("samples", &ade::SweepAsk::samples)
        .def_readwrite("sample_seed", &ade::SweepAsk::sampleSeed)
        .def_readwrite("metric", &ade::SweepAsk::metric)
        .def_readwrite("stat", &ade::SweepAsk::stat)
        .def_readwrite("higher_is_better", &ade::SweepAsk::higherBetter)
        .def_readwrite("halving", &ade::SweepAsk::halving)
        .def_readwrite("eta", &ade::SweepAsk::eta)
        .def_readwrite("min_iterations", &ade::SweepAsk::minIterations);
    m.def(
        "sweep",
        [](std::vector<std::string> dirs, std::string preset, std::string configJson,
           std::string configFile, std::vector<std::string> sets, ade::SweepAsk ask, int jobs,
           std::string out, std::string commandLine) {
            SweepRequest r;
            r.source = {std::move(dirs), std::move(preset), std::move(configJson),
                        std::move(configFile), std::move(sets)};
            r.ask = std::move(ask);
            r.jobs = jobs;
            r.out = std::move(out);
            r.commandLine = std::move(commandLine);
            return runSweep(r);
        },
        py::arg("dirs"), py::arg("preset"), py::arg("config_json"), py::arg("config_file"),
        py::arg("sets"), py::arg("ask"), py::arg("jobs"), py::arg("out"), py::arg("command_line"));

    m.def("load_run", &loadRunFolder, py::arg("dir"));
    m.def("load_session", &loadSessionFile, py::arg("file"));
    m.def("load_sweep", &loadSweepFolder, py::arg("dir"));
}
