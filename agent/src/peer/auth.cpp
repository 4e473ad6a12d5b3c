#include "peer/auth.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include "peer/socket.hpp"
#include "util/bounded_file.hpp"
#include "util/posix_error.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

constexpr std::size_t kNonceBytes = 32;
constexpr FileLimit kKeyFile{"key file", 4096,
                             "a key is one line, e.g. from: openssl rand -hex 32"};
constexpr const char* kClientTag = "ibkit/1 client proof";
constexpr const char* kServerTag = "ibkit/1 server proof";

std::string to_hex(const unsigned char* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[data[i] >> 4]);
    hex.push_back(kDigits[data[i] & 0xf]);
  }
  return hex;
}

// A nonce as sent on the wire: exactly 64 lower-case hex digits.
bool is_nonce(const json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  if (text.size() != kNonceBytes * 2) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// HMAC-SHA256(key, tag || 0x00 || server nonce || 0x00 || client nonce), nonces as their hex
// text; the tag makes the client's and the server's proofs differ.
std::string proof(const SharedKey& key, const char* tag, const std::string& server_nonce,
                  const std::string& client_nonce) {
  std::string input = std::string(tag) + '\0' + server_nonce + '\0' + client_nonce;
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.bytes.data(), static_cast<int>(key.bytes.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac.data(), &length);
  return to_hex(mac.data(), length);
}

// Compares a received proof with the expected one in time that does not depend on where they
// differ.
bool proof_matches(const json& received, const std::string& expected) {
  if (!received.is_string()) return false;
  const auto& text = received.get_ref<const std::string&>();
  return text.size() == expected.size() &&
         CRYPTO_memcmp(text.data(), expected.data(), expected.size()) == 0;
}

}  // namespace

Expected<SharedKey> load_key_file(const std::string& path) {
  auto file = read_bounded_file(path, kKeyFile);
  if (!file) return file.error();
  if ((file->mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", file->mode & 07777u);
    return Error{"key file " + path + " is open to group or others (mode " + mode +
                 "); run: chmod 600 " + path};
  }
  std::string bytes = std::move(file->bytes);
  while (!bytes.empty() && std::isspace(static_cast<unsigned char>(bytes.back()))) bytes.pop_back();
  if (bytes.empty()) {
    return Error{"key file " + path +
                 " is empty; create one with: (umask 077; openssl rand -hex 32 > " + path + ")"};
  }
  return SharedKey{std::move(bytes)};
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1) {
    // RAND_bytes only fails when the system has no entropy source at all; getentropy is the
    // same source, asked directly.
    getentropy(raw.data(), bytes);
  }
  return to_hex(reinterpret_cast<const unsigned char*>(raw.data()), bytes);
}

Expected<Done> authenticate_client(Channel& channel, const std::optional<SharedKey>& key,
                                   const Deadline& deadline) {
  const std::string server_nonce = random_hex(kNonceBytes);
  auto hello = channel.send({{"type", "hello"},
                             {"protocol", kProtocolName},
                             {"auth", key ? "hmac-sha256" : "none"},
                             {"nonce", server_nonce}},
                            deadline);
  if (!hello) return hello.error();
  auto answer = receive_type(channel, "auth", deadline);
  if (!answer) return answer.error();
  if (!is_nonce(answer->value("nonce", json()))) {
    return send_error(channel, "authentication failed: the auth message has no 64-hex-digit nonce",
                      deadline);
  }
  const std::string client_nonce = answer->at("nonce").get<std::string>();
  if (client_nonce == server_nonce) {
    return send_error(channel, "authentication failed: the client echoed the server's nonce",
                      deadline);
  }
  if (!key) return channel.send({{"type", "auth_ok"}}, deadline);

  if (!answer->contains("mac")) {
    return send_error(channel,
                      "authentication failed: the client sent no key proof; give it this server's "
                      "key file (--key-file)",
                      deadline);
  }
  if (!proof_matches(answer->at("mac"), proof(*key, kClientTag, server_nonce, client_nonce))) {
    return send_error(channel,
                      "authentication failed: the client's key differs from this server's "
                      "(--key-file)",
                      deadline);
  }
  return channel.send(
      {{"type", "auth_ok"}, {"mac", proof(*key, kServerTag, server_nonce, client_nonce)}},
      deadline);
}

Expected<Done> authenticate_server(Channel& channel, const std::optional<SharedKey>& key,
                                   const Deadline& deadline) {
  auto hello = receive_type(channel, "hello", deadline);
  if (!hello) return hello.error();
  const std::string peer = "peer " + channel.peer_address();
  if (hello->value("protocol", json()) != kProtocolName) {
    return send_error(channel,
                      peer + " speaks " + hello->value("protocol", json()).dump() +
                          ", not the protocol of this agent (" + kProtocolName + ")",
                      deadline);
  }
  const json auth = hello->value("auth", json());
  if (!is_nonce(hello->value("nonce", json())) || (auth != "none" && auth != "hmac-sha256")) {
    return send_error(channel, peer + " sent a malformed hello (nonce or auth)", deadline);
  }
  if (auth == "none" && key) {
    return send_error(channel,
                      peer +
                          " runs without a key, so it cannot prove it holds ours; refusing (start "
                          "the server with --key-file)",
                      deadline);
  }
  if (auth == "hmac-sha256" && !key) {
    return send_error(channel, peer + " requires a shared key; pass its key file with --key-file",
                      deadline);
  }
  const std::string server_nonce = hello->at("nonce").get<std::string>();
  const std::string client_nonce = random_hex(kNonceBytes);
  json answer = {{"type", "auth"}, {"nonce", client_nonce}};
  if (key) answer["mac"] = proof(*key, kClientTag, server_nonce, client_nonce);
  auto sent = channel.send(answer, deadline);
  if (!sent) return sent.error();

  auto accepted = receive_type(channel, "auth_ok", deadline);
  if (!accepted) return accepted.error();
  if (key && !proof_matches(accepted->value("mac", json()),
                            proof(*key, kServerTag, server_nonce, client_nonce))) {
    return send_error(channel,
                      peer + " did not prove it holds the key (an impostor, or a broken agent)",
                      deadline);
  }
  return Done{};
}

}  // namespace ibkit
