#include "io/JsonText.h"

#include <algorithm>
#include <cctype>

namespace ade {

std::optional<nlohmann::json> parseJsonText(const std::string& text, JsonTextError* error) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        if (error) {
            const std::string what = e.what();
            const auto p = what.find("parse error");
            const auto tag = what.find("] ");
            if (p != std::string::npos)
                error->message = "malformed JSON: " + what.substr(p);
            else  // e.g. a number too large for a double ("number overflow parsing '1e999'")
                error->message =
                    "invalid JSON: " + (tag == std::string::npos ? what : what.substr(tag + 2));
            error->empty = std::all_of(text.begin(), text.end(),
                                       [](unsigned char c) { return std::isspace(c) != 0; });
        }
        return std::nullopt;
    }
}

}  // namespace ade
