#pragma once
// Configurations for tests: keys set from (key, value) pairs or "key=value" strings (the CLI's
// --set form), and the smallest Experiment A run the GUI tests drive. A value the registry
// refuses is a bug of the test: it stops the test program with the key, value and reason.
#include <QtGlobal>

#include <string>
#include <utility>
#include <vector>

#include "config/Config.h"

namespace adetest {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// `c` with every pair set, in order (a later pair overrides an earlier one).
inline ade::Config configFrom(const KeyValues& kv, ade::Config c = {}) {
    for (const auto& [k, v] : kv)
        if (auto e = c.setText(k, v))
            qFatal("%s = %s: %s", k.c_str(), v.c_str(), e->message.c_str());
    return c;
}

// The same from "key=value" strings.
inline ade::Config configFromSets(const std::vector<std::string>& sets, ade::Config c = {}) {
    KeyValues kv;
    for (const auto& s : sets) {
        std::string k, v;
        if (!ade::splitAssignment(s, k, v)) qFatal("not key=value: %s", s.c_str());
        kv.emplace_back(std::move(k), std::move(v));
    }
    return configFrom(kv, std::move(c));
}

// Experiment A at its smallest: milliseconds per hundred iterations, every iteration recorded;
// `extra` is set last.
inline ade::Config tinyA(long iterations, const KeyValues& extra = {}) {
    KeyValues kv = {{"experiment", "a"},
                    {"iterations", std::to_string(iterations)},
                    {"data.n", "8"},
                    {"data.prompts", "4"},
                    {"data.test_prompts", "2"},
                    {"optimizer", "gd"},
                    {"lr", "0.05"},
                    {"log_every", "1"}};
    kv.insert(kv.end(), extra.begin(), extra.end());
    return configFrom(kv);
}

}  // namespace adetest
