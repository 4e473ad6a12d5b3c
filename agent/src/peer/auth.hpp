#pragma once

#include <optional>
#include <string>

#include "peer/channel.hpp"
#include "util/deadline.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The wire protocol's name and version, sent in the server's hello (docs/protocol.md).
inline constexpr const char* kProtocolName = "ibkit/1";

// The secret both agents hold. It only ever comes from a file, never a command line.
struct SharedKey {
  std::string bytes;
};

// Reads a key file: its bytes without trailing whitespace. Fails, naming the file and the fix,
// when it cannot be read, is not a regular file, is group- or world-accessible (chmod 600),
// is empty, or is larger than 4 KiB.
Expected<SharedKey> load_key_file(const std::string& path);

// `bytes` random bytes from the system's CSPRNG, as lower-case hex.
std::string random_hex(std::size_t bytes);

// The server's half of the handshake: sends the hello with a fresh nonce, checks the client's
// HMAC-SHA256 proof of `key`, proves the key back. Without a key it accepts any client that
// also has none. On a refusal it sends {"type": "error"} saying why, and fails with that reason.
Expected<Done> authenticate_client(Channel& channel, const std::optional<SharedKey>& key,
                                   const Deadline& deadline);

// The client's half: answers the hello with its nonce and proof, and checks the server's proof.
// Fails (telling the server why when it can) when the keys differ, when only one side has a key,
// or when the peer speaks another protocol.
Expected<Done> authenticate_server(Channel& channel, const std::optional<SharedKey>& key,
                                   const Deadline& deadline);

}  // namespace ibkit
