#pragma once
// A JSON document read from text, with the reason it cannot be read in words a user can act on:
// the one parse of every file the project reads (presets, lessons, sessions).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ade {

struct JsonTextError {
    // "malformed JSON: parse error at line 3, column 5: ..." (nlohmann's message names the
    // line and column) or "invalid JSON: number overflow parsing '1e999'" (well-formed text
    // that no double holds), without the library's "[json.exception...]" tag.
    std::string message;
    bool empty = false;  // the text was empty (or only white space)
};

std::optional<nlohmann::json> parseJsonText(const std::string& text, JsonTextError* error);

}  // namespace ade
