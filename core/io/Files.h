#pragma once
// Files on disk, whatever they hold: atomic writes (temporary file + rename: a failure leaves no
// half-written file), an output folder checked before a long computation, and names that are
// safe on every file system.
#include <filesystem>
#include <string>

namespace ade {

// Writes bytes to `path` atomically; false with a message naming the path and the reason.
bool writeFileAtomic(const std::filesystem::path& path, const std::string& bytes,
                     std::string* error);

// Creates `dir` if needed and checks that files can be created in it: called before a long
// computation so that an unusable output folder is reported at once, not after the runs. False
// with a message naming the folder and the reason.
bool prepareOutputFolder(const std::filesystem::path& dir, std::string* error);

// A run or folder name safe on every file system: [A-Za-z0-9._-], others replaced by '_'.
std::string safeName(const std::string& name);

}  // namespace ade
