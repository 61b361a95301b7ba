#include "LandscapeOptions.h"

#include <charconv>

namespace {
template <class T>
bool parseNumber(const std::string& s, T& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}
}  // namespace

int parseLandscapeOption(const std::string& arg, const std::function<bool(std::string&)>& value,
                         CliArgs& a, std::string* error) {
    std::string v;
    if (arg == "--grid") {
        if (!value(v)) return -1;
        if (!parseNumber(v, a.grid) || a.grid < 3 || a.grid > 64) {
            *error = "invalid value '" + v + "' for --grid: expected an integer in [3, 64]";
            return -1;
        }
    } else {
        return 0;
    }
    return 1;
}
