#include "io/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

namespace ade {

bool writeFileAtomic(const std::filesystem::path& path, const std::string& bytes,
                     std::string* error) {
    auto fail = [&](const std::string& reason) {
        if (error) *error = "cannot write " + path.string() + ": " + reason;
        return false;
    };
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        return fail("cannot create folder " + path.parent_path().string() + ": " + ec.message());
    // An existing file without write permission is not replaced: the rename below would swap it
    // silently (whoever may write the folder), even for root, whom permissions do not stop. A
    // replaced file keeps its permission bits.
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode);
    if (exists && ((old.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0))
        return fail("the existing file is read-only");
    // "<name>.tmp-<pid>-<n>" next to the target (same file system, so the rename is atomic),
    // unique per write even across threads; the name part is shortened when the whole would
    // exceed NAME_MAX, so any name that is valid for the target works.
    static std::atomic<unsigned> counter{0};
    const std::string suffix =
        ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    std::string name = path.filename().string();
    if (name.size() + suffix.size() > NAME_MAX) name.resize(NAME_MAX - suffix.size());
    const auto tmp = (path.parent_path() / (name + suffix)).string();
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return fail(std::strerror(errno));
    // The first error wins; a full disk shows as a short write, a failed flush or close.
    int err = 0;
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) err = errno ? errno : EIO;
    if (std::fflush(f) != 0 && !err) err = errno ? errno : EIO;
    if (!err && exists) ::fchmod(::fileno(f), old.st_mode & 0777);
    if (!err && ::fsync(::fileno(f)) != 0) err = errno;
    if (std::fclose(f) != 0 && !err) err = errno ? errno : EIO;
    if (err) {
        std::remove(tmp.c_str());
        return fail(std::strerror(err));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return fail(ec.message());
    }
    return true;
}

bool prepareOutputFolder(const std::filesystem::path& dir, std::string* error) {
    auto fail = [&](const std::string& reason) {
        if (error) *error = "cannot write to " + dir.string() + ": " + reason;
        return false;
    };
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
        return fail("it is a file, not a folder");
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(ec.message());
    const auto probe = dir / (".write-test.tmp-" + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return fail(std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

std::string safeName(const std::string& name) {
    std::string out;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '=';
        out.push_back(ok ? c : '_');
    }
    if (out.empty() || out == "." || out == "..") out = "run";
    return out;
}

}  // namespace ade
