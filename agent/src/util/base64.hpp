#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace ibkit {

// `bytes` in standard base64 (RFC 4648, with padding), as a browser's atob() reads it.
std::string base64(std::span<const std::uint8_t> bytes);

}  // namespace ibkit
