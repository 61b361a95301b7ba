#include "FuzzTargets.h"

#include <string>

#include "config/Config.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Npy.h"
#include "output/Session.h"
#include "plan/Preset.h"

namespace adefuzz {

int plan(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ade::PlanError err;
    std::vector<std::string> unknown;
    for (bool lenient : {false, true}) {
        const auto p = ade::parsePlan(text, "fuzz", {}, &err, lenient ? &unknown : nullptr);
        if (!p) continue;
        for (const auto& r : p->runs) {
            (void)validateConfig(r.config);
            (void)r.config.toJson().dump();
            (void)experimentBrief(r.config);
        }
    }
    return 0;
}

int set(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ade::Config c;
    std::vector<std::string> sets;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        sets.push_back(
            text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    (void)ade::applyOverrides(c, sets);
    for (const auto& s : sets) {
        std::string k, v;
        if (ade::splitAssignment(s, k, v)) (void)c.setText(k, v);
    }
    (void)validateConfig(c);
    return 0;
}

int session(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto r = ade::sessionFromText(text);
    if (r.session) {
        // Whatever loads must save and load back to the same runs.
        const auto again = ade::sessionFromText(ade::sessionToText(*r.session));
        if (!again.session || again.session->runs.size() != r.session->runs.size())
            __builtin_trap();
    }
    return 0;
}

int npy(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::string err;
    if (const auto a = ade::decodeNpy(bytes, &err)) {
        // A decoded array must re-encode and decode to the same values.
        const auto b = ade::decodeNpy(ade::encodeNpy(*a), &err);
        if (!b || b->values.size() != a->values.size()) __builtin_trap();
    }
    return 0;
}

}  // namespace adefuzz
