// What is made from the table of sub-commands (Commands.cpp): the lookup, the refusal of an
// option a sub-command does not take, the help text and the words of the bash completion.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "Commands.h"

namespace {

bool contains(const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

bool names(const CommandSpec& c, const std::string& word) {
    return c.name == word || contains(c.aliases, word);
}

// "sweep task" -> {"sweep", "task"}; "run" -> {"run", ""}.
std::pair<std::string, std::string> split(const std::string& name) {
    const auto space = name.find(' ');
    if (space == std::string::npos) return {name, ""};
    return {name.substr(0, space), name.substr(space + 1)};
}

const char* const kHeader =
    "attention-explorer-cli: run the Attention Dynamics Explorer's experiments headless.\n"
    "\n"
    "Usage:\n";

const char* const kFooter = R"(
Presets are read from $ADE_RESOURCES/presets (if set) and from the folder installed beside the
program (<prefix>/share/attention-explorer/presets); a name found in the first wins.

Exit status: 0 done, 2 invalid input, 3 a run diverged (its metrics are kept),
4 a file could not be written, 5 a claim of the report does not hold, 6 sweep collect: tasks
are missing or failed, 130 interrupted (what was computed is written).
)";

}  // namespace

const CommandSpec* findCommand(const CliArgs& a) {
    // A sub-command (sweep task DIR) first, then the command itself.
    if (!a.positional.empty())
        for (const CommandSpec& c : commands())
            if (split(c.name) == std::make_pair(a.command, a.positional.front())) return &c;
    for (const CommandSpec& c : commands())
        if (names(c, a.command)) return &c;
    return nullptr;
}

bool commandTakesOperands(const std::string& command) {
    return std::any_of(commands().begin(), commands().end(), [&](const CommandSpec& c) {
        return c.operands && (split(c.name).first == command || contains(c.aliases, command));
    });
}

std::string refusedOption(const CommandSpec& c, const CliArgs& a) {
    if (c.anyOption) return "";
    for (const std::string& option : a.given) {
        if (contains(c.options, option)) continue;
        for (const OptionRefusal& r : c.refusals)
            if (contains(r.options, option)) return r.message;
        return "the " + c.name + " command does not take " + option +
               " (see attention-explorer-cli help)";
    }
    return "";
}

std::string commandList() {
    std::string out;
    for (const CommandSpec& c : commands())
        if (!c.hidden && split(c.name).second.empty()) out += (out.empty() ? "" : ", ") + c.name;
    return out;
}

std::string usageText() {
    std::string out = kHeader;
    bool first = true;
    for (const CommandSpec& c : commands()) {
        if (c.hidden) continue;
        out += (first ? "  attention-explorer-cli " : "\n  attention-explorer-cli ") + c.usage;
        first = false;
    }
    return out + kFooter;
}

int printCompletionWords(const CliArgs& a) {
    if (a.positional.empty()) {
        for (const CommandSpec& c : commands())
            if (!c.hidden) std::printf("%s\n", c.name.c_str());
        for (const CommandSpec& c : commands())
            for (const std::string& alias : c.aliases)
                if (!c.hidden && alias.rfind("--", 0) == 0) std::printf("%s\n", alias.c_str());
        return ExitOk;
    }
    std::string name;
    for (const std::string& word : a.positional)
        name += (name.empty() ? "" : " ") + word;
    const auto c = std::find_if(commands().begin(), commands().end(),
                                [&](const CommandSpec& s) { return names(s, name); });
    if (c == commands().end()) {
        std::cerr << "attention-explorer-cli: complete-words: unknown command '" << name << "'\n";
        return ExitInvalid;
    }
    for (const std::string& option : c->options) {
        const auto o = std::find_if(cliOptions().begin(), cliOptions().end(),
                                    [&](const OptionSpec& s) { return s.name == option; });
        std::string line = option;
        if (o != cliOptions().end() && !o->value.empty())
            line += " " + o->value + (o->repeatable ? "..." : "");
        std::printf("%s\n", line.c_str());
    }
    return ExitOk;
}
