#include "io/Npy.h"

#include <bit>
#include <cstring>
#include <limits>

namespace ade {

static_assert(std::endian::native == std::endian::little, "npy writer assumes little-endian");

std::string encodeNpy(const NamedArray& a) {
    std::string shape = "(";
    for (std::size_t i = 0; i < a.shape.size(); ++i)
        shape +=
            std::to_string(a.shape[i]) + (a.shape.size() == 1 || i + 1 < a.shape.size() ? "," : "");
    shape += ")";
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
    // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple
    // of 64 and ending in '\n'.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::string out("\x93NUMPY\x01\x00", 8);
    const auto len = static_cast<std::uint16_t>(header.size());
    out.push_back(static_cast<char>(len & 0xff));
    out.push_back(static_cast<char>(len >> 8));
    out += header;
    out.append(reinterpret_cast<const char*>(a.values.data()), a.values.size() * sizeof(double));
    return out;
}

std::optional<NamedArray> decodeNpy(const std::string& bytes, std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<NamedArray> {
        if (error) *error = m;
        return std::nullopt;
    };
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
        return fail("not a .npy file (missing magic)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    std::size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen = static_cast<unsigned char>(bytes[8]) |
                    (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) return fail("truncated .npy header");
        headerLen = 0;
        for (int i = 0; i < 4; ++i)
            headerLen |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + i]))
                         << (8 * i);
        offset = 12;
    } else {
        return fail("unsupported .npy version " + std::to_string(major));
    }
    if (headerLen > bytes.size() - offset) return fail("truncated .npy header");
    const std::string header = bytes.substr(offset, headerLen);
    offset += headerLen;
    if (header.find("'descr': '<f8'") == std::string::npos &&
        header.find("\"descr\": \"<f8\"") == std::string::npos)
        return fail("only little-endian float64 ('<f8') arrays are supported");
    if (header.find("'fortran_order': True") != std::string::npos)
        return fail("Fortran-ordered arrays are not supported");
    const auto sp = header.find("'shape':");
    if (sp == std::string::npos) return fail("no shape in .npy header");
    const auto open = header.find('(', sp);
    const auto close = header.find(')', sp);
    if (open == std::string::npos || close == std::string::npos || close < open)
        return fail("malformed shape in .npy header");
    NamedArray a;
    std::size_t count = 1;
    std::size_t pos = open + 1;
    while (pos < close) {
        while (pos < close && (header[pos] == ' ' || header[pos] == ','))
            ++pos;
        if (pos >= close) break;
        std::size_t dim = 0;
        bool any = false;
        while (pos < close && header[pos] >= '0' && header[pos] <= '9') {
            if (dim > (std::numeric_limits<std::size_t>::max() - 9) / 10)
                return fail("shape too large in .npy header");
            dim = dim * 10 + static_cast<std::size_t>(header[pos] - '0');
            ++pos;
            any = true;
        }
        if (!any) return fail("malformed shape in .npy header");
        if (dim != 0 && count > std::numeric_limits<std::size_t>::max() / dim)
            return fail("shape too large in .npy header");
        count *= dim;
        a.shape.push_back(dim);
    }
    if (count > (bytes.size() - offset) / sizeof(double))
        return fail("truncated .npy data: header promises " + std::to_string(count) + " values");
    a.values.resize(count);
    if (count) std::memcpy(a.values.data(), bytes.data() + offset, count * sizeof(double));
    return a;
}

}  // namespace ade
