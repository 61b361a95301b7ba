#pragma once
// The catalogue of every configuration key ("knob"): its type, range, default, and the
// explanation shown as a tooltip and in `--help`. The CLI, the config files, the presets and the
// GUI form all read this one table, so a knob is declared once.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ade {

enum class ParamType { Int, Real, Bool, Choice, Text };

// A knob that matters only for some values of another key (batch: only when optimizer is sgd or
// adam). Declared next to the knob's registration; the GUI disables a knob that is not used.
struct Relevance {
    std::string key;                  // the deciding key, e.g. "optimizer"
    std::vector<std::string> values;  // its values (as text) under which the knob is used
};

struct ParamSpec {
    std::string key;  // dotted name, e.g. "data.n"
    ParamType type = ParamType::Real;
    std::string group;  // form section: run, data, model, init, optimizer, regularizer
    std::string label;  // short label for forms
    std::string help;   // one or two sentences in the papers' language
    nlohmann::json defaultValue;
    double min = 0.0;  // inclusive bounds for Int and Real
    double max = 0.0;
    std::vector<std::string> choices;      // for Choice
    std::vector<std::string> experiments;  // where the key applies; empty = every experiment
    bool logScale = false;                 // GUI hint: spin box steps multiplicatively
    bool minExclusive = false;             // value must be > min
    std::vector<Relevance> relevantWhen;   // used when any one holds; empty = always
    // Changing it does not change the cost of an iteration (seed, step size, λ, κ): a rate
    // measured at another value holds for this one (the GUI's time estimate).
    bool costNeutral = false;

    bool appliesTo(const std::string& experiment) const;
    std::string allowedText() const;  // "an integer in [1, 4096]", "one of gd, sgd, adam"
    std::string relevanceText() const;  // "used when optimizer is sgd or adam" ("" = always)
};

class ParamRegistry {
  public:
    static const ParamRegistry& instance();

    const ParamSpec* find(const std::string& key) const;
    const std::vector<ParamSpec>& all() const { return specs_; }
    std::vector<std::string> experiments() const { return experiments_; }
    // Key aliases accepted on input (e.g. "step" for "lr", "preconditioner=true").
    std::string canonicalKey(const std::string& key) const;

    void add(ParamSpec spec);
    // Lets an existing key apply to one more experiment (a key shared by several experiments,
    // such as data.n); `extraHelp` is appended to its help text.
    void extend(const std::string& key, const std::string& experiment,
                const std::string& extraHelp = "");
    void addExperiment(const std::string& name) { experiments_.push_back(name); }
    void addAlias(const std::string& alias, const std::string& key);
    // Declares when a registered key is used (see Relevance); replaces earlier rules.
    void relevantWhen(const std::string& key, std::vector<Relevance> rules);
    // Marks registered keys as costNeutral (an unknown key is a programming error: abort).
    void costNeutral(const std::vector<std::string>& keys);

  private:
    ParamRegistry();
    std::vector<ParamSpec> specs_;
    std::vector<std::string> experiments_;
    std::vector<std::pair<std::string, std::string>> aliases_;
};

// Builders used by the experiments' registration functions (experiments/CommonParams.cpp).
ParamSpec makeInt(std::string key, std::string group, std::string label, std::int64_t def,
                  double lo, double hi, std::string help);
ParamSpec makeReal(std::string key, std::string group, std::string label, double def, double lo,
                   double hi, std::string help, bool logScale = false, bool minExclusive = false);
ParamSpec makeChoice(std::string key, std::string group, std::string label, std::string def,
                     std::vector<std::string> choices, std::string help);
ParamSpec makeBool(std::string key, std::string group, std::string label, bool def,
                   std::string help);

// Defined in experiments/ExperimentRegistry.cpp: calls each experiment's registration once
// (explicit registration: static-initialiser tricks are dropped by the linker from static
// libraries). The one call from a lower layer into a higher one: a declaration here, no include.
void registerAllParams(ParamRegistry& r);

}  // namespace ade
