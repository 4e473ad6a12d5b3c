#include "control/auth.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/socket.hpp"
#include "util/files/bounded_file.hpp"
#include "util/posix_error.hpp"

namespace ibkit {
namespace {

constexpr FileLimit kKeyFile{"key file", 4096,
                             "a key is one line, e.g. from: openssl rand -hex 32"};
constexpr const char* kPskInfo = "ibkit/2 tls13 external psk";
// 128 bits written in hex: `openssl rand -hex 16` is the least that passes (docs/protocol.md).
constexpr std::size_t kMinKeyBytes = 32;

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

// The key in `bytes` (from `source`, "key file F" or "the key on standard input"), its trailing
// whitespace dropped; `make_one` says how to make a good one. Wipes a key it refuses.
Expected<SharedKey> checked_key(std::string bytes, const std::string& source,
                                const std::string& make_one) {
  while (!bytes.empty() && std::isspace(static_cast<unsigned char>(bytes.back()))) bytes.pop_back();
  if (bytes.empty()) return Error{source + " is empty; " + make_one};
  if (bytes.size() < kMinKeyBytes) {
    OPENSSL_cleanse(bytes.data(), bytes.size());
    return Error{source + " holds " + std::to_string(bytes.size()) +
                 " bytes; a key needs at least " + std::to_string(kMinKeyBytes) +
                 " (a short key can be guessed); " + make_one};
  }
  return SharedKey{std::move(bytes)};
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
  // Whoever owns it can change it: a key another user owns is theirs, whatever its mode.
  if (file->owner != geteuid()) {
    return Error{"key file " + path + " belongs to uid " + std::to_string(file->owner) +
                 ", not to the user running ibkit (uid " + std::to_string(geteuid()) +
                 "); make it yours: chown " + std::to_string(geteuid()) + " " + path};
  }
  return checked_key(std::move(file->bytes), "key file " + path,
                     "create one with: (umask 077; openssl rand -hex 32 > " + path + ")");
}

Expected<SharedKey> read_key_line(int fd, std::chrono::milliseconds wait,
                                  const std::string& source) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  const std::string send_one = "send one line, e.g. from: openssl rand -hex 32";
  std::string bytes;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd ready{fd, POLLIN, 0};
    const int polled = left.count() > 0 ? poll(&ready, 1, static_cast<int>(left.count())) : 0;
    if (polled < 0 && errno == EINTR) continue;
    if (polled < 0) return posix_error("poll on " + source, errno);
    if (polled == 0) {
      OPENSSL_cleanse(bytes.data(), bytes.size());
      return Error{"no key on " + source + " within " +
                   seconds_text(std::chrono::duration<double>(wait).count()) + "; " + send_one};
    }
    char c = 0;
    const ssize_t got = read(fd, &c, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return posix_error("read " + source, errno);
    if (got == 0 && bytes.empty()) return Error{source + " ended before a key; " + send_one};
    if (got == 0 || c == '\n') break;
    if (bytes.size() >= kKeyFile.max_bytes) {
      OPENSSL_cleanse(bytes.data(), bytes.size());
      return Error{"the key on " + source + " is longer than " +
                   std::to_string(kKeyFile.max_bytes) + " bytes; " + send_one};
    }
    bytes.push_back(c);
  }
  return checked_key(std::move(bytes), "the key on " + source, send_one);
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

Expected<Psk> derive_psk(const SharedKey& key) {
  std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr),
                                                        &EVP_KDF_free);
  if (!kdf) return Error{"libcrypto has no HKDF (OpenSSL 3 is required)"};
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> context(EVP_KDF_CTX_new(kdf.get()),
                                                                    &EVP_KDF_CTX_free);
  std::string digest = "SHA256";
  std::string info = kPskInfo;
  std::string secret = key.bytes;
  const std::array<OSSL_PARAM, 4> params{
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest.data(), 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, secret.data(), secret.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info.data(), info.size()),
      OSSL_PARAM_construct_end()};
  Psk psk{};
  const bool derived =
      context && EVP_KDF_derive(context.get(), psk.data(), psk.size(), params.data()) == 1;
  OPENSSL_cleanse(secret.data(), secret.size());
  if (!derived) return Error{"deriving the TLS key from the key file failed (HKDF-SHA256)"};
  return psk;
}

}  // namespace ibkit
