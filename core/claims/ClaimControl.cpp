// A claim's negative control (claims/Claims.h): its JSON, and the claim as the control checks it.
// What the control's keys mean for a plan is the plan's business (plan/Preset.h, controlPlan).
#include <set>

#include "claims/Claims.h"

namespace ade {

std::optional<ClaimControl> parseControl(const nlohmann::json& j, const ClaimSpec& claim,
                                         std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<ClaimControl> {
        if (error) *error = "control: " + m;
        return std::nullopt;
    };
    if (!j.is_object()) return fail("must be an object {\"why\", \"config\", \"runs\", \"swap\"}");
    static const std::set<std::string> known = {"why", "config", "runs", "swap"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key()))
            return fail("unknown field '" + it.key() + "'; allowed: why, config, runs, swap");
    ClaimControl c;
    if (!j.contains("why") || !j.at("why").is_string() || j.at("why").get<std::string>().empty())
        return fail("needs \"why\": what is absent in the control, so that the claim must fail");
    c.why = j.at("why").get<std::string>();
    if (j.contains("config")) {
        if (!j.at("config").is_object()) return fail("\"config\" must be an object of keys");
        c.config = j.at("config");
    }
    if (j.contains("runs")) {
        if (!j.at("runs").is_object())
            return fail("\"runs\" must map run names to objects of keys");
        for (auto it = j.at("runs").begin(); it != j.at("runs").end(); ++it)
            if (!it.value().is_object() || it.value().empty())
                return fail("\"runs\"." + it.key() + " must be a non-empty object of keys");
        c.runs = j.at("runs");
    }
    if (j.contains("swap")) {
        if (!j.at("swap").is_boolean()) return fail("\"swap\" must be true or false");
        c.swap = j.at("swap").get<bool>();
    }
    if (c.swap && (claim.other.empty() || claim.check == ClaimCheck::Trend ||
                   claim.check == ClaimCheck::Slope))
        return fail("\"swap\" exchanges run and other: a " + checkName(claim.check) +
                    " check without \"other\" has nothing to swap");
    if (!c.swap && !c.needsRuns())
        return fail("changes nothing: give \"config\", \"runs\" or \"swap\"");
    return c;
}

nlohmann::json toJson(const ClaimControl& c) {
    nlohmann::json j = {{"why", c.why}};
    if (!c.config.empty()) j["config"] = c.config;
    if (!c.runs.empty()) j["runs"] = c.runs;
    if (c.swap) j["swap"] = true;
    return j;
}

ClaimSpec controlledClaim(const ClaimSpec& c) {
    ClaimSpec out = c;
    out.control.reset();
    if (c.control && c.control->swap) std::swap(out.run, out.other);
    return out;
}

}  // namespace ade
