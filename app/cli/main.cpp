// attention-explorer-cli: the headless entry point. Argument parsing and wiring only: the
// sub-commands, the options each takes and what runs them are the table of Commands.cpp.
#include <iostream>

#include "CliArgs.h"
#include "Commands.h"
#include "plan/Preset.h"
#include "util/Allocator.h"
#include "util/CpuLevel.h"

using namespace ade;

namespace {
int invalid(const std::string& message) {
    std::cerr << "attention-explorer-cli: " << message << "\n";
    return ExitInvalid;
}
}  // namespace

int main(int argc, char** argv) {
    ade::keepFreedMemoryForReuse();  // steady solver rates (see util/Allocator.h)
    std::string error;
    const auto args = parseCliArgs(argc, argv, &error);
    if (!args) return invalid(error);
    const CliArgs& a = *args;
    const PresetLibrary lib(PresetLibrary::defaultDirectories(argc > 0 ? argv[0] : ""));

    // An ADE_CPU_LEVEL that this build or CPU cannot follow is said once, not silently ignored.
    if (const std::string& note = ade::cpu::levelNote(); !note.empty())
        std::cerr << "attention-explorer-cli: warning: " << note << "\n";
    const CommandSpec* command = findCommand(a);
    if (!command) return invalid("unknown command '" + a.command + "'; commands: " + commandList());
    if (const std::string refusal = refusedOption(*command, a); !refusal.empty())
        return invalid(refusal);
    return command->handler(CommandContext{a, lib, argc, argv});
}
