#include "control/tls_channel.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>

#include "control/tcp_channel.hpp"

namespace ibkit {

namespace {

using Clock = Deadline::Clock;

// TLS_AES_128_GCM_SHA256, the one cipher suite both ends allow; the PSK's hash is SHA-256.
constexpr std::array<unsigned char, 2> kCipherSuiteId{0x13, 0x01};
constexpr const char* kCipherSuite = "TLS_AES_128_GCM_SHA256";
// A TLS record is at most 16 KiB of payload plus its header and tag.
constexpr std::size_t kChunkBytes = 16 * 1024 + 512;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The context's PSK, which TlsContext::create left in the context's app data.
const Psk& psk_of(SSL* ssl) {
  return *static_cast<const Psk*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
}

// The PSK as the session OpenSSL resumes: the key, the cipher suite, TLS 1.3. OpenSSL takes
// ownership of what the callbacks return. nullptr when OpenSSL cannot build one.
SSL_SESSION* psk_session(SSL* ssl) {
  const SSL_CIPHER* cipher = SSL_CIPHER_find(ssl, kCipherSuiteId.data());
  SSL_SESSION* session = cipher != nullptr ? SSL_SESSION_new() : nullptr;
  if (session == nullptr) return nullptr;
  const Psk& psk = psk_of(ssl);
  if (SSL_SESSION_set1_master_key(session, psk.data(), psk.size()) != 1 ||
      SSL_SESSION_set_cipher(session, cipher) != 1 ||
      SSL_SESSION_set_protocol_version(session, TLS1_3_VERSION) != 1) {
    SSL_SESSION_free(session);
    return nullptr;
  }
  return session;
}

// The client offers the PSK under the identity kProtocolName.
int use_psk(SSL* ssl, const EVP_MD* md, const unsigned char** id, std::size_t* id_length,
            SSL_SESSION** session) {
  *session = nullptr;
  *id = nullptr;
  *id_length = 0;
  // After a HelloRetryRequest, md is the hash of the suite the server picked: the PSK only
  // works with SHA-256. Offering none makes the handshake fail, as it must.
  if (md != nullptr && EVP_MD_get_type(md) != NID_sha256) return 1;
  *session = psk_session(ssl);
  if (*session == nullptr) return 0;
  *id = reinterpret_cast<const unsigned char*>(kProtocolName);
  *id_length = std::strlen(kProtocolName);
  return 1;
}

// The server knows one identity, kProtocolName; any other gets no PSK, and then the handshake
// fails, for this server has no certificate to fall back on.
int find_psk(SSL* ssl, const unsigned char* identity, std::size_t length, SSL_SESSION** session) {
  *session = nullptr;
  const std::size_t expected = std::strlen(kProtocolName);
  if (length != expected || std::memcmp(identity, kProtocolName, expected) != 0) return 1;
  *session = psk_session(ssl);
  return *session != nullptr ? 1 : 0;
}

// The first error OpenSSL queued on this thread (its reason code and text); clears the queue.
struct TlsReason {
  int code = 0;
  std::string text;
};
TlsReason take_tls_reason() {
  TlsReason reason;
  const unsigned long error = ERR_peek_error();
  if (error != 0) {
    reason.code = ERR_GET_REASON(error);
    const char* text = ERR_reason_error_string(error);
    reason.text = text != nullptr ? text : "error " + std::to_string(reason.code);
  }
  ERR_clear_error();
  return reason;
}

// Why a handshake failed, in words: the key (on either end) first, as that is the usual cause.
std::string handshake_problem(const TlsReason& reason) {
  switch (reason.code) {
    case SSL_R_BINDER_DOES_NOT_VERIFY:         // the server's view of a client with another key
    case SSL_R_SSLV3_ALERT_ILLEGAL_PARAMETER:  // the client's view: OpenSSL's alert for that
    case SSL_R_TLSV1_ALERT_DECRYPT_ERROR:      // a Finished message that does not verify
    case SSL_R_DIGEST_CHECK_FAILED:
      return "the peer does not hold this key (TLS handshake failed)";
    // The server's view of a client that offers no PSK (or another identity): with no
    // certificate to fall back on it finds nothing to sign with.
    case SSL_R_NO_SUITABLE_SIGNATURE_ALGORITHM:
    case SSL_R_NO_SHARED_CIPHER:
    case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:  // the client's view of such a server
      return "the peer offers no key for " + std::string(kProtocolName) +
             " (TLS handshake failed: another ibkit version, or not an ibkit agent)";
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_UNSUPPORTED_PROTOCOL:
    case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
      return "the peer does not speak TLS 1.3 (TLS handshake failed: " + reason.text + "; not an " +
             kProtocolName + " agent?)";
    default:
      return "TLS handshake failed: " + (reason.text.empty() ? "no reason given" : reason.text);
  }
}

}  // namespace

struct TlsContext::Secret {
  Psk psk{};
  ~Secret() { OPENSSL_cleanse(psk.data(), psk.size()); }
};

Expected<TlsContext> TlsContext::create(Role role, const SharedKey& key) {
  auto psk = derive_psk(key);
  if (!psk) return psk.error();
  auto secret = std::make_unique<Secret>();
  secret->psk = *psk;
  OPENSSL_cleanse(psk->data(), psk->size());

  SSL_CTX* context = SSL_CTX_new(role == Role::kClient ? TLS_client_method() : TLS_server_method());
  if (context == nullptr) return Error{"TLS: " + take_tls_reason().text};
  TlsContext result(role, context, std::move(secret));
  const bool configured =
      SSL_CTX_set_min_proto_version(context, TLS1_3_VERSION) == 1 &&
      SSL_CTX_set_max_proto_version(context, TLS1_3_VERSION) == 1 &&
      SSL_CTX_set_ciphersuites(context, kCipherSuite) == 1 &&
      // No resumption and no 0-RTT: every connection runs a full PSK + (EC)DHE handshake, so
      // nothing can be replayed and a later leak of the key reveals no recorded session.
      SSL_CTX_set_num_tickets(context, 0) == 1 && SSL_CTX_set_max_early_data(context, 0) == 1;
  if (!configured)
    return Error{"TLS 1.3 with " + std::string(kCipherSuite) + ": " + take_tls_reason().text};
  SSL_CTX_set_options(context, SSL_OP_NO_TICKET);
  SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_app_data(context, &result.secret_->psk);
  if (role == Role::kClient) {
    // A peer that answers with a certificate instead of the PSK fails verification: the trust
    // store is empty. (connect() also checks that the PSK was used.)
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_psk_use_session_callback(context, use_psk);
  } else {
    SSL_CTX_set_psk_find_session_callback(context, find_psk);
  }
  return result;
}

TlsContext::TlsContext(Role role, ssl_ctx_st* context, std::unique_ptr<Secret> secret)
    : role_(role), context_(context), secret_(std::move(secret)) {}

TlsContext::TlsContext(TlsContext&& other) noexcept
    : role_(other.role_),
      context_(std::exchange(other.context_, nullptr)),
      secret_(std::move(other.secret_)) {}

TlsContext& TlsContext::operator=(TlsContext&& other) noexcept {
  if (this != &other) {
    if (context_ != nullptr) SSL_CTX_free(context_);
    role_ = other.role_;
    context_ = std::exchange(other.context_, nullptr);
    secret_ = std::move(other.secret_);
  }
  return *this;
}

TlsContext::~TlsContext() {
  if (context_ != nullptr) SSL_CTX_free(context_);
}

TlsChannel::TlsChannel(Socket socket, ssl_st* ssl, bio_st* input, bio_st* output)
    : socket_(std::move(socket)), ssl_(ssl), input_(input), output_(output) {
  tune_control_socket(socket_);
}

TlsChannel::~TlsChannel() {
  if (!broken_ && established_) {
    // close_notify tells the peer the end was meant; one try, no wait.
    SSL_shutdown(ssl_);
    flush(Deadline::after(std::chrono::milliseconds(0)));
  }
  SSL_free(ssl_);  // and the two buffers
  ERR_clear_error();
}

Expected<std::unique_ptr<TlsChannel>> TlsChannel::start(Socket socket, const TlsContext& context) {
  SSL* ssl = SSL_new(context.get());
  BIO* input = BIO_new(BIO_s_mem());
  BIO* output = BIO_new(BIO_s_mem());
  if (ssl == nullptr || input == nullptr || output == nullptr) {
    SSL_free(ssl);
    BIO_free(input);
    BIO_free(output);
    return Error{socket.peer_name() + ": TLS: " + take_tls_reason().text};
  }
  // An empty input buffer means "wait for more", not end of stream.
  BIO_set_mem_eof_return(input, -1);
  BIO_set_mem_eof_return(output, -1);
  SSL_set_bio(ssl, input, output);
  if (context.role() == TlsContext::Role::kClient) {
    SSL_set_connect_state(ssl);
  } else {
    SSL_set_accept_state(ssl);
  }
  return std::unique_ptr<TlsChannel>(new TlsChannel(std::move(socket), ssl, input, output));
}

Expected<std::unique_ptr<TlsChannel>> TlsChannel::connect(Socket socket, const TlsContext& context,
                                                          const Deadline& deadline) {
  auto started = start(std::move(socket), context);
  if (!started) return started.error();
  std::unique_ptr<TlsChannel> channel = std::move(*started);
  Error error;
  switch (channel->handshake(deadline, error)) {
    case Step::kDone:
      return channel;
    case Step::kFailed:
      return error;
    case Step::kPlaintextPeer:
      break;
  }
  // The server answered with a plain frame: a server without a key says why it refuses, and
  // an agent of ibkit/1 says hello. Either way this connection ends here.
  channel->broken_ = true;
  TcpChannel plain(std::move(channel->socket_));
  auto hello = receive_type(plain, "hello", deadline);
  if (!hello) return hello.error();
  const auto protocol = hello->value("protocol", nlohmann::json());
  return Error{plain.peer_name() + " speaks " + protocol.dump() + ", not " + kProtocolName +
               " (TLS 1.3): run the same ibkit version on every node"};
}

Expected<std::unique_ptr<TlsChannel>> TlsChannel::accept(Socket socket, const TlsContext& context,
                                                         const Deadline& deadline) {
  auto started = start(std::move(socket), context);
  if (!started) return started.error();
  std::unique_ptr<TlsChannel> channel = std::move(*started);
  Error error;
  if (channel->handshake(deadline, error) != Step::kDone) return error;
  return channel;
}

TlsChannel::Step TlsChannel::handshake(const Deadline& deadline, Error& error) {
  const auto start = Clock::now();
  const bool client = SSL_is_server(ssl_) == 0;
  bool answered = false;  // a byte of the peer's came
  while (true) {
    ERR_clear_error();
    const int result = SSL_do_handshake(ssl_);
    const int code = result == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl_, result);
    // Whatever OpenSSL wrote goes out first: the next flight, or the alert that says why not.
    auto flushed = flush(deadline);
    if (code != SSL_ERROR_NONE && code != SSL_ERROR_WANT_READ) {
      error = failure(result, "the handshake");
      return Step::kFailed;
    }
    if (!flushed) {
      broken_ = true;
      error = flushed.error();
      return Step::kFailed;
    }
    if (code == SSL_ERROR_NONE) break;
    if (client && !answered) {
      // A TLS record starts with its type (20-23); a plain frame with 0 (its length is at most
      // 64 KiB): a server without a key, or an older agent, answers in frames.
      auto first = socket_.peek_byte(deadline, "the TLS handshake");
      if (!first) {
        broken_ = true;
        error = first.error();
        return Step::kFailed;
      }
      if (*first == 0) return Step::kPlaintextPeer;
    }
    auto filled = fill(deadline);
    if (!filled || *filled != Fill::kData) {
      broken_ = true;
      if (!filled) {
        error = filled.error();
      } else if (*filled == Fill::kClosed) {
        error = Error{peer_name() + " closed the connection during the TLS handshake"};
      } else if (!answered) {
        error = receive_timed_out(peer_name(), "the TLS handshake", 0, 1, seconds_since(start));
      } else {
        error = Error{peer_name() + " stalled in the middle of the TLS handshake (" +
                      seconds_text(seconds_since(start)) + ", deadline passed)"};
      }
      return Step::kFailed;
    }
    answered = true;
  }
  // Both callbacks insist on the PSK; this makes sure no other kind of handshake got through.
  if (SSL_session_reused(ssl_) != 1) {
    broken_ = true;
    error = Error{peer_name() + ": the TLS handshake did not use the key; refusing the peer"};
    return Step::kFailed;
  }
  established_ = true;
  return Step::kDone;
}

Expected<Done> TlsChannel::flush(const Deadline& deadline) {
  std::array<char, kChunkBytes> chunk{};
  while (BIO_ctrl_pending(output_) > 0) {
    const int n = BIO_read(output_, chunk.data(), static_cast<int>(chunk.size()));
    if (n <= 0) break;
    auto sent = socket_.send_all(chunk.data(), static_cast<std::size_t>(n), deadline);
    if (!sent) return sent.error();
  }
  return Done{};
}

Expected<TlsChannel::Fill> TlsChannel::fill(const Deadline& deadline) {
  std::array<char, kChunkBytes> chunk{};
  while (true) {
    const ssize_t n = ::recv(socket_.fd(), chunk.data(), chunk.size(), 0);
    if (n > 0) {
      BIO_write(input_, chunk.data(), static_cast<int>(n));
      return Fill::kData;
    }
    if (n == 0) return Fill::kClosed;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return transfer_error(peer_name(), "receiving", errno);
    }
    if (wait_for_events(socket_.fd(), POLLIN, deadline) == 0) return Fill::kTimedOut;
  }
}

Error TlsChannel::failure(int result, const char* doing) {
  broken_ = true;
  const int code = SSL_get_error(ssl_, result);
  const TlsReason reason = take_tls_reason();
  if (!established_) return Error{peer_name() + ": " + handshake_problem(reason)};
  if (reason.code == SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC) {
    return Error{peer_name() + " sent a TLS record that failed its integrity check while " + doing +
                 " (bad record mac): the connection was altered on its way; it ends here"};
  }
  if (code == SSL_ERROR_SSL && !reason.text.empty()) {
    return Error{peer_name() + ": TLS error while " + doing + ": " + reason.text};
  }
  return Error{peer_name() + ": TLS error while " + doing + " (OpenSSL error " +
               std::to_string(code) + ")"};
}

Expected<Done> TlsChannel::send_bytes(const void* data, std::size_t size,
                                      const Deadline& deadline) {
  if (broken_) return Error{peer_name() + ": the TLS connection already failed"};
  ERR_clear_error();
  const int n = SSL_write(ssl_, data, static_cast<int>(std::min<std::size_t>(size, INT_MAX)));
  if (n <= 0 || static_cast<std::size_t>(n) != size) {
    Error error = failure(n, "sending");
    flush(Deadline::after(std::chrono::milliseconds(0)));
    return error;
  }
  return flush(deadline);
}

Expected<Done> TlsChannel::receive_bytes(void* data, std::size_t size, const Deadline& deadline,
                                         const char* what) {
  if (broken_) return Error{peer_name() + ": the TLS connection already failed"};
  auto* bytes = static_cast<char*>(data);
  const auto start = Clock::now();
  std::size_t got = 0;
  while (got < size) {
    ERR_clear_error();
    const int n =
        SSL_read(ssl_, bytes + got, static_cast<int>(std::min<std::size_t>(size - got, INT_MAX)));
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    const int code = SSL_get_error(ssl_, n);
    if (code == SSL_ERROR_ZERO_RETURN) {  // the peer's close_notify
      broken_ = true;
      return receive_ended(peer_name(), what, got, size);
    }
    if (code != SSL_ERROR_WANT_READ) {
      Error error = failure(n, "receiving");
      flush(Deadline::after(std::chrono::milliseconds(0)));  // the alert, if the peer listens
      return error;
    }
    auto filled = fill(deadline);
    if (!filled) return filled.error();
    if (*filled == Fill::kClosed) return receive_ended(peer_name(), what, got, size);
    if (*filled == Fill::kTimedOut) {
      return receive_timed_out(peer_name(), what, got, size, seconds_since(start));
    }
  }
  return Done{};
}

}  // namespace ibkit
