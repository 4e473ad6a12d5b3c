#pragma once

#include <array>
#include <chrono>
#include <string>

#include "util/expected.hpp"

namespace ibkit {

// The wire protocol's name and version (docs/protocol.md): the TLS 1.3 PSK identity a client
// offers, and the PSK's derivation label. ibkit/1 was the plaintext HMAC handshake.
inline constexpr const char* kProtocolName = "ibkit/2";

// The secret both agents hold. It only ever comes from a file, never a command line.
struct SharedKey {
  std::string bytes;
};

// Reads a key file: its bytes without trailing whitespace. Fails, naming the file and the fix,
// when it cannot be read, is not a regular file, is group- or world-accessible (chmod 600),
// is empty, or is larger than 4 KiB.
Expected<SharedKey> load_key_file(const std::string& path);

// Reads a key from the first line of `fd` (a launcher's pipe: ssh or srun forward it), one
// byte at a time so that nothing after the newline is consumed, waiting at most `wait` for it.
// The same rules as a key file's bytes; fails naming `source` and what was wrong: nothing
// came in time, the stream ended first, the line is longer than 4 KiB, empty or too short.
Expected<SharedKey> read_key_line(int fd, std::chrono::milliseconds wait,
                                  const std::string& source);

// `bytes` random bytes from the system's CSPRNG, as lower-case hex.
std::string random_hex(std::size_t bytes);

// The TLS 1.3 external PSK that a key stands for (docs/protocol.md, "Keys"): HKDF-SHA256
// (RFC 5869) with no salt, the key's bytes as input keying material and the info
// "ibkit/2 tls13 external psk", 32 bytes long. Fails only when libcrypto has no HKDF.
using Psk = std::array<unsigned char, 32>;
Expected<Psk> derive_psk(const SharedKey& key);

}  // namespace ibkit
