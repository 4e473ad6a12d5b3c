#!/usr/bin/env python3
"""A second implementation of ibkit's control protocol (docs/protocol.md), stdlib only.

The host tier uses it to prove the protocol is documented well enough to speak without ibkit's
code, and to play the peers ibkit must survive: garbage, oversize frames, a silent server.

  peer_client.py tcp HOST PORT [--key-file F] [--qps N] [--duration S | --iters N]
                               [--size BYTES] [--bidir] [--deadline S]
      runs the tcp test as a client; prints the result as one JSON line. Exit 0 ok, 1 failed.
  peer_client.py request HOST PORT [--key-file F] --json '{"test": ...}' [--json ...]
      one session per request: authenticates and sends it; prints "accepted" or "refused:
      <the server's message>" per request, in order. Exit 0 when all were accepted, else 1.
  peer_client.py frames HOST PORT
      two connections: after the hello, one sends a frame of non-JSON bytes, the other a 4 GiB
      length; exit 0 when the server ends both (with or without an error frame) in time.
  peer_client.py silent-server PORT [--deadline S]
      accepts connections and never says a word (a peer that never answers).
"""

import argparse
import hashlib
import hmac
import json
import secrets
import socket
import struct
import sys
import threading
import time

MAX_FRAME = 64 * 1024
PROTOCOL = "ibkit/1"


class ProtocolError(Exception):
    pass


class Channel:
    def __init__(self, sock, deadline):
        self.sock = sock
        self.deadline = deadline

    def _timeout(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ProtocolError("deadline passed")
        return left

    def send(self, message):
        body = json.dumps(message, separators=(",", ":")).encode()
        self.sock.settimeout(self._timeout())
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def _exact(self, n):
        data = b""
        while len(data) < n:
            self.sock.settimeout(self._timeout())
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ProtocolError("the server closed the connection")
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


def proof(key, tag, server_nonce, client_nonce):
    data = tag + b"\0" + server_nonce.encode() + b"\0" + client_nonce.encode()
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def connect(host, port, key, deadline):
    sock = socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
    channel = Channel(sock, deadline)
    hello = channel.expect("hello")
    if hello.get("protocol") != PROTOCOL:
        raise ProtocolError(f"server speaks {hello.get('protocol')}")
    if (hello.get("auth") == "hmac-sha256") != (key is not None):
        channel.send({"type": "error", "message": "key mismatch: one side has no key"})
        raise ProtocolError("one side has a key, the other has none")
    server_nonce = hello["nonce"]
    client_nonce = secrets.token_hex(32)
    answer = {"type": "auth", "nonce": client_nonce}
    if key is not None:
        answer["mac"] = proof(key, b"ibkit/1 client proof", server_nonce, client_nonce)
    channel.send(answer)
    accepted = channel.expect("auth_ok")
    if key is not None:
        expected = proof(key, b"ibkit/1 server proof", server_nonce, client_nonce)
        if not hmac.compare_digest(accepted.get("mac", ""), expected):
            raise ProtocolError("the server did not prove the key")
    return channel


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
        channel.sock.close()
    if refused:
        raise ProtocolError(f"{refused} of {len(args.json)} requests refused")


def frames(args):
    """Sends one broken frame after the hello, twice; succeeds when the server hangs up."""
    broken = {"garbage": struct.pack(">I", 11) + b"not json!!!",
              "oversize": struct.pack(">I", 0xFFFFFFFF) + b"x" * 1000}
    for kind, frame in broken.items():
        deadline = time.monotonic() + args.deadline
        sock = socket.create_connection((args.host, args.port), timeout=args.deadline)
        channel = Channel(sock, deadline)
        channel.expect("hello")
        sock.sendall(frame)
        try:
            reply = channel.receive()
            print(f"{kind}: server answered {reply} and hung up")
        except ProtocolError as error:
            if "deadline" in str(error):
                raise
            print(f"{kind}: server hung up ({error})")
        except (ConnectionResetError, BrokenPipeError):
            print(f"{kind}: server reset the connection")
        sock.close()


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
    args = parser.parse_args()
    actions = {"tcp": tcp, "request": request, "frames": frames,
               "silent-server": silent_server}
    try:
        actions[args.mode](args)
    except (ProtocolError, OSError, ValueError, KeyError) as error:
        print(f"peer_client {args.mode}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
