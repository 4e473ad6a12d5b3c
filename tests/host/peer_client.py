#!/usr/bin/env python3
"""A second implementation of ibkit's control protocol (docs/protocol.md): Python's standard
library, and the openssl command line tool for TLS 1.3.

The host tier uses it to prove the protocol is documented well enough to speak without ibkit's
code (the PSK derivation included), and to play the peers ibkit must survive: garbage, oversize
frames, a silent server, silent clients.

Python 3.11's ssl module cannot offer a TLS 1.3 external PSK, so with a key the frames go
through `openssl s_client -psk` (which does: it offers the PSK as a TLS 1.3 resumption of a
TLS_AES_128_GCM_SHA256 session, as ibkit does). A test client only: the PSK is on s_client's
command line, where other local users can see it, and s_client does not insist that the server
used the PSK rather than a certificate.

  peer_client.py tcp HOST PORT [--key-file F] [--qps N] [--duration S | --iters N]
                               [--size BYTES] [--bidir] [--deadline S]
      runs the tcp test as a client; prints the result as one JSON line. Exit 0 ok, 1 failed.
  peer_client.py request HOST PORT [--key-file F] --json '{"test": ...}' [--json ...]
      one session per request: sends it; prints "accepted" or "refused: <the server's
      message>" per request, in order. Exit 0 when all were accepted, else 1.
  peer_client.py frames HOST PORT [--key-file F]
      two connections: after the TLS handshake, one sends a frame of non-JSON bytes, the other a
      4 GiB length; exit 0 when the server ends both (with or without an error frame) in time.
  peer_client.py silent-server PORT [--deadline S]
      accepts connections and never says a word (a peer that never answers).
  peer_client.py silent-clients HOST PORT [--count N] [--every S] [--deadline S]
      keeps N connections to the server that never say a word, each opened anew every S seconds
      or as soon as the server drops it, until the deadline; prints how many it opened.
"""

import argparse
import hashlib
import hmac
import json
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time

MAX_FRAME = 64 * 1024
PROTOCOL = "ibkit/2"
CIPHER_SUITE = "TLS_AES_128_GCM_SHA256"


class ProtocolError(Exception):
    pass


def psk_of(key):
    """docs/protocol.md, "Keys": HKDF-SHA256 (RFC 5869), no salt, info "ibkit/2 tls13 external
    psk", 32 bytes. With a 32-byte output HKDF-Expand is a single HMAC block."""
    prk = hmac.new(b"\0" * 32, key, hashlib.sha256).digest()
    return hmac.new(prk, b"ibkit/2 tls13 external psk\x01", hashlib.sha256).digest()


class PlainTransport:
    """Frames straight over TCP: what a server without a key (on loopback) speaks."""

    def __init__(self, host, port, deadline):
        self.sock = socket.create_connection((host, port),
                                             timeout=max(0.1, deadline - time.monotonic()))

    def write(self, data, timeout):
        self.sock.settimeout(timeout)
        self.sock.sendall(data)

    def read(self, n, timeout):
        self.sock.settimeout(timeout)
        return self.sock.recv(n)

    def close(self):
        self.sock.close()


class TlsTransport:
    """Frames over TLS 1.3 with the key's PSK, through `openssl s_client`."""

    def __init__(self, host, port, key):
        command = ["openssl", "s_client", "-connect", f"{host}:{port}", "-tls1_3",
                   "-ciphersuites", CIPHER_SUITE, "-psk", psk_of(key).hex(),
                   "-psk_identity", PROTOCOL, "-quiet", "-nocommands"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)

    def write(self, data, timeout):
        del timeout  # a pipe to s_client: frames are small, it reads them at once
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except BrokenPipeError as error:
            raise ProtocolError("the TLS connection ended: " + self.why()) from error

    def read(self, n, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise socket.timeout()
        return os.read(self.process.stdout.fileno(), n)

    def why(self):
        """What s_client said on its way out (the handshake's failure, say)."""
        try:
            self.process.wait(timeout=2)
            lines = self.process.stderr.read().decode(errors="replace").strip().splitlines()
        except subprocess.TimeoutExpired:
            return "s_client is still running"
        return lines[-1] if lines else f"s_client exited {self.process.returncode}"

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class Channel:
    def __init__(self, transport, deadline):
        self.transport = transport
        self.deadline = deadline

    def _timeout(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ProtocolError("deadline passed")
        return left

    def send_raw(self, data):
        self.transport.write(data, self._timeout())

    def send(self, message):
        body = json.dumps(message, separators=(",", ":")).encode()
        self.send_raw(struct.pack(">I", len(body)) + body)

    def _exact(self, n):
        data = b""
        while len(data) < n:
            try:
                chunk = self.transport.read(n - len(data), self._timeout())
            except socket.timeout as error:
                raise ProtocolError("deadline passed") from error
            if not chunk:
                why = self.transport.why() if hasattr(self.transport, "why") else ""
                raise ProtocolError("the server closed the connection" +
                                    (f" ({why})" if why else ""))
            data += chunk
        return data

    def receive(self):
        (length,) = struct.unpack(">I", self._exact(4))
        if length == 0 or length > MAX_FRAME:
            raise ProtocolError(f"frame of {length} bytes")
        message = json.loads(self._exact(length))
        if not isinstance(message, dict):
            raise ProtocolError("frame is not a JSON object")
        return message

    def expect(self, kind):
        message = self.receive()
        if message.get("type") == "error":
            raise ProtocolError("refused: " + str(message.get("message")))
        if message.get("type") != kind:
            raise ProtocolError(f"expected {kind}, got {message.get('type')}")
        return message

    def close(self):
        self.transport.close()


def connect(host, port, key, deadline):
    """A session's connection: TLS 1.3 with the key's PSK, or plain frames without a key. The
    handshake completes when the first frame is exchanged (s_client runs it at once)."""
    if key is None:
        return Channel(PlainTransport(host, port, deadline), deadline)
    return Channel(TlsTransport(host, port, key), deadline)


def read_key(path):
    if path is None:
        return None
    with open(path, "rb") as f:
        return f.read().rstrip()


def run_stream(index, sock, token, send_bytes, send_seconds, size, counts, errors):
    """Sends (for a time or a byte count), then ends its direction; reads until end of stream."""
    try:
        sock.sendall(token.encode())
        received = [0]

        def reader():
            while True:
                chunk = sock.recv(256 * 1024)
                if not chunk:
                    return
                received[0] += len(chunk)

        reading = threading.Thread(target=reader)
        reading.start()
        payload = b"\x5a" * size
        sent = 0
        until = time.monotonic() + send_seconds if send_seconds else None
        while (until and time.monotonic() < until) or (not until and sent < send_bytes):
            chunk = payload if until else payload[: min(size, send_bytes - sent)]
            sock.sendall(chunk)
            sent += len(chunk)
        sock.shutdown(socket.SHUT_WR)
        reading.join()
        counts[index] = (sent, received[0])
    except OSError as error:
        errors.append(f"stream {index + 1}: {error}")


def tcp(args):
    deadline = time.monotonic() + args.deadline + (args.duration or 0)
    channel = connect(args.host, args.port, read_key(args.key_file), deadline)
    request = {"type": "request", "test": "tcp", "op": "send", "sizes": [args.size],
               "qps": args.qps, "iters": 0 if args.duration else args.iters,
               "duration_s": args.duration or 0, "bidir": args.bidir, "use_cm": False,
               "tx_depth": 128}
    channel.send(request)
    channel.expect("accept")
    offer = channel.expect("tcp_ports")
    streams = []
    for port in offer["ports"]:
        sock = socket.create_connection((args.host, port), timeout=10)
        sock.settimeout(max(1.0, deadline - time.monotonic()))
        streams.append(sock)
    counts = [None] * len(streams)
    errors = []
    send_bytes = 0 if args.duration else args.iters * args.size
    threads = [threading.Thread(target=run_stream,
                                args=(i, s, offer["token"], send_bytes, args.duration,
                                      args.size, counts, errors))
               for i, s in enumerate(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise ProtocolError("; ".join(errors))
    channel.send({"type": "tcp_done", "sent": [c[0] for c in counts],
                  "received": [c[1] for c in counts]})
    result = channel.expect("result")
    for i, stream in enumerate(result["streams"]):
        if stream["received"] != counts[i][0]:
            raise ProtocolError(f"stream {i + 1}: sent {counts[i][0]}, server got "
                                f"{stream['received']}")
    total = sum(s["received"] for s in result["streams"]) + sum(c[1] for c in counts)
    seconds = result["receive_seconds"]
    gbps = total * 8 / seconds / 1e9 if seconds > 0 else 0
    channel.close()
    print(json.dumps({"bytes": total, "seconds": seconds, "gbps": gbps,
                      "streams": len(streams)}))


def request(args):
    refused = 0
    for text in args.json:
        deadline = time.monotonic() + args.deadline
        channel = connect(args.host, args.port, read_key(args.key_file), deadline)
        message = json.loads(text)
        message["type"] = "request"
        channel.send(message)
        try:
            channel.expect("accept")
            print("accepted")
        except ProtocolError as error:
            print(error)
            refused += 1
        channel.close()
    if refused:
        raise ProtocolError(f"{refused} of {len(args.json)} requests refused")


def frames(args):
    """Sends one broken frame after the handshake, twice; succeeds when the server hangs up."""
    broken = {"garbage": struct.pack(">I", 11) + b"not json!!!",
              "oversize": struct.pack(">I", 0xFFFFFFFF) + b"x" * 1000}
    for kind, frame in broken.items():
        deadline = time.monotonic() + args.deadline
        channel = connect(args.host, args.port, read_key(args.key_file), deadline)
        channel.send_raw(frame)
        try:
            reply = channel.receive()
            print(f"{kind}: server answered {reply} and hung up")
        except ProtocolError as error:
            if "deadline" in str(error):
                raise
            print(f"{kind}: server hung up ({error})")
        except (ConnectionResetError, BrokenPipeError):
            print(f"{kind}: server reset the connection")
        channel.close()


def silent_server(args):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("0.0.0.0", args.port))
    listener.listen(8)
    print("listening", flush=True)
    held = []
    end = time.monotonic() + args.deadline
    while time.monotonic() < end:
        listener.settimeout(max(0.1, end - time.monotonic()))
        try:
            held.append(listener.accept()[0])  # keep it open, say nothing
        except socket.timeout:
            pass


def silent_clients(args):
    """Connections that never speak, each renewed every --every seconds or when dropped."""
    opened = 0
    held = {}
    end = time.monotonic() + args.deadline
    while time.monotonic() < end:
        for slot in range(args.count):
            sock, since = held.get(slot, (None, 0.0))
            if sock is not None and time.monotonic() - since < args.every:
                ready, _, _ = select.select([sock], [], [], 0)
                if not ready or sock.recv(1, socket.MSG_PEEK):
                    continue  # still open (and silent)
            if sock is not None:
                sock.close()
            try:
                held[slot] = (socket.create_connection((args.host, args.port), timeout=2),
                              time.monotonic())
                opened += 1
            except OSError:
                held.pop(slot, None)
        time.sleep(0.05)
    for sock, _ in held.values():
        sock.close()
    print(json.dumps({"opened": opened}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for mode in ("tcp", "request", "frames"):
        p = sub.add_parser(mode)
        p.add_argument("host")
        p.add_argument("port", type=int)
        p.add_argument("--key-file")
        p.add_argument("--deadline", type=float, default=10)
        if mode == "tcp":
            p.add_argument("--qps", type=int, default=1)
            p.add_argument("--duration", type=float)
            p.add_argument("--iters", type=int, default=100)
            p.add_argument("--size", type=int, default=128 * 1024)
            p.add_argument("--bidir", action="store_true")
        if mode == "request":
            p.add_argument("--json", required=True, action="append")
    p = sub.add_parser("silent-server")
    p.add_argument("port", type=int)
    p.add_argument("--deadline", type=float, default=30)
    p = sub.add_parser("silent-clients")
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.add_argument("--count", type=int, default=2)
    p.add_argument("--every", type=float, default=2)
    p.add_argument("--deadline", type=float, default=30)
    args = parser.parse_args()
    actions = {"tcp": tcp, "request": request, "frames": frames,
               "silent-server": silent_server, "silent-clients": silent_clients}
    try:
        actions[args.mode](args)
    except (ProtocolError, OSError, ValueError, KeyError) as error:
        print(f"peer_client {args.mode}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
