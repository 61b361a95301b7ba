#pragma once
// The CLI's sub-commands in one table (Commands.cpp; docs/architecture.md, "Adding a CLI
// sub-command"): what each is called, its lines of `help`, the options it takes and what runs
// it. Dispatch (main.cpp), the help text, the refusal of an option a sub-command does not take,
// and the words of the bash completion (`complete-words`) are all made from it; the man page
// check (tests/install/check_manpages.sh) reads the program's output. No Qt here.
#include <string>
#include <vector>

#include "CliArgs.h"

namespace ade {
class PresetLibrary;
}

// What a handler is given.
struct CommandContext {
    const CliArgs& args;
    const ade::PresetLibrary& lib;
    int argc;
    char** argv;
};

// Options a sub-command refuses with its own explanation (where they belong) rather than the
// general "does not take" message.
struct OptionRefusal {
    std::vector<std::string> options;
    std::string message;
};

struct CommandSpec {
    // As typed: "run"; "sweep task" is the sub-command task of sweep (sweep task DIR).
    std::string name;
    std::vector<std::string> aliases = {};  // other words that name it (help: --help, -h)
    // Its part of `help`, after "  attention-explorer-cli ": the synopsis, then the indented
    // description.
    std::string usage;
    std::vector<std::string> options = {};  // the long options it takes (cliOptions())
    std::vector<OptionRefusal> refusals = {};
    int (*handler)(const CommandContext&) = nullptr;
    bool operands = false;   // takes words that are not options (sweep task DIR)
    bool anyOption = false;  // ignores its options instead of refusing them (help)
    bool hidden = false;     // not in help nor in the completion's list (complete-words)
};

// An option: its long name and the name of its value ("" for a switch); `repeatable` options
// may be given more than once (--set).
struct OptionSpec {
    std::string name, value;
    bool repeatable = false;
};

const std::vector<CommandSpec>& commands();
const std::vector<OptionSpec>& cliOptions();

// The entry for `a` (a.command and, for a command with sub-commands, its first operand);
// nullptr for an unknown command.
const CommandSpec* findCommand(const CliArgs& a);
// Whether `command` (argv[1]) takes operands: the parser keeps them in CliArgs::positional.
bool commandTakesOperands(const std::string& command);
// The message refusing the first option of `a` that `c` does not take; "" when it takes them all.
std::string refusedOption(const CommandSpec& c, const CliArgs& a);
// The commands, as the message for an unknown one names them: "presets, keys, ..., --version".
std::string commandList();
// `help`: a header, every command's usage in the order of the table, exit statuses.
std::string usageText();
// The hidden `complete-words [COMMAND...]`: without operands the commands (one a line; then the
// long options that are commands, --help and --version), with a command's name its options
// (one a line: the name, then the name of its value if it takes one, "..." after a repeatable
// one's).
int printCompletionWords(const CliArgs& a);
