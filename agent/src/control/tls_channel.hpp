#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "control/auth.hpp"
#include "control/framed_channel.hpp"
#include "control/socket.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

// OpenSSL's types, so that only tls_channel.cpp includes its headers.
struct ssl_ctx_st;
struct ssl_st;
struct bio_st;

namespace ibkit {

// The TLS 1.3 settings of one end, keyed by a shared key as an external PSK (identity
// kProtocolName, TLS_AES_128_GCM_SHA256, (EC)DHE key exchange for forward secrecy), with no
// certificates, no session tickets and no early data. One context serves many connections,
// from any thread.
class TlsContext {
 public:
  enum class Role { kClient, kServer };

  // Fails (rarely: libssl out of memory, or without TLS 1.3) with a message saying so.
  static Expected<TlsContext> create(Role role, const SharedKey& key);

  TlsContext(TlsContext&&) noexcept;
  TlsContext& operator=(TlsContext&&) noexcept;
  ~TlsContext();

  Role role() const { return role_; }
  ssl_ctx_st* get() const { return context_; }

 private:
  struct Secret;
  TlsContext(Role role, ssl_ctx_st* context, std::unique_ptr<Secret> secret);

  Role role_;
  ssl_ctx_st* context_ = nullptr;
  std::unique_ptr<Secret> secret_;  // the PSK; the callbacks find it through the context
};

// Frames over TLS 1.3 on a connected non-blocking socket. Every frame has integrity and
// confidentiality; a record that fails its check ends the connection with an error. OpenSSL
// only ever sees memory buffers: this class moves the bytes, so every wait honours its
// deadline and a vanished peer never raises SIGPIPE.
class TlsChannel final : public FramedChannel {
 public:
  // Runs the client's handshake. Fails with a message naming the peer: the peer does not hold
  // this key, it has none (a plaintext server: its error is passed on), it speaks another
  // protocol, it is silent past the deadline, or it closed the connection.
  static Expected<std::unique_ptr<TlsChannel>> connect(Socket socket, const TlsContext& context,
                                                       const Deadline& deadline);
  // Runs the server's handshake; fails likewise. The client's first byte must already be
  // known to start a TLS record (see Socket::peek_byte).
  static Expected<std::unique_ptr<TlsChannel>> accept(Socket socket, const TlsContext& context,
                                                      const Deadline& deadline);

  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;
  // Sends close_notify if the connection still works (without waiting), then closes.
  ~TlsChannel() override;

  std::string peer_address() const override { return socket_.peer().address; }
  std::string local_address() const override { return socket_.local().address; }
  int hangup_fd() const override { return socket_.fd(); }
  void shut_down() override { socket_.shutdown_both(); }
  std::string peer_name() const override { return socket_.peer_name(); }

 protected:
  Expected<Done> send_bytes(const void* data, std::size_t size, const Deadline& deadline) override;
  Expected<Done> receive_bytes(void* data, std::size_t size, const Deadline& deadline,
                               const char* what) override;

 private:
  TlsChannel(Socket socket, ssl_st* ssl, bio_st* input, bio_st* output);
  // A channel whose OpenSSL state reads from and writes to memory buffers, before its handshake.
  static Expected<std::unique_ptr<TlsChannel>> start(Socket socket, const TlsContext& context);

  // What a step of the handshake came to.
  enum class Step { kDone, kFailed, kPlaintextPeer };
  Step handshake(const Deadline& deadline, Error& error);
  // Sends what OpenSSL wrote (records, alerts) to the socket.
  Expected<Done> flush(const Deadline& deadline);
  // Feeds OpenSSL the bytes that came from the socket, waiting for some until the deadline.
  enum class Fill { kData, kClosed, kTimedOut };
  Expected<Fill> fill(const Deadline& deadline);
  // Why an OpenSSL call failed while `doing` ("sending"), with the peer's name (during the
  // handshake: what that failure means, the key first); marks the connection broken.
  Error failure(int result, const char* doing);

  Socket socket_;
  ssl_st* ssl_ = nullptr;
  bio_st* input_ = nullptr;   // bytes from the peer, read by OpenSSL
  bio_st* output_ = nullptr;  // bytes for the peer, written by OpenSSL
  bool established_ = false;  // the handshake succeeded
  bool broken_ = false;       // a fatal error: no close_notify
};

}  // namespace ibkit
