#!/usr/bin/env python3
"""An on-path relay without the key: what an attacker between two agents can do to the control
channel. It forwards one TCP connection at a time between a client and a server, records what
the client sends, and may flip a bit in what the client sends after the handshake.

  relay.py LISTEN_ADDRESS LISTEN_PORT SERVER_ADDRESS SERVER_PORT --record FILE [--tamper]
           [--deadline S]

Prints "listening" once it accepts connections. With --tamper it flips the lowest bit of one
byte in the client's second message: in TLS, the second application-data record (the first is
the client's Finished, the second carries the request); in plain ibkit/1 frames, the second
frame (after "auth"), where it turns a "qps" digit into the next one (2 -> 3): a valid request
the client never made. Prints "tampered" when it did. Ends after --deadline seconds.
"""

import argparse
import select
import socket
import struct
import sys
import time


class ClientStream:
    """Splits what the client sends into messages (TLS records, or ibkit frames) and forwards
    them, tampering with one."""

    def __init__(self, tamper, record):
        self.tamper = tamper
        self.record = record
        self.pending = b""
        self.tls = None
        self.messages = 0  # TLS application-data records, or frames

    def feed(self, data):
        self.record.write(data)
        self.record.flush()
        self.pending += data
        if self.tls is None and self.pending:
            self.tls = self.pending[0] == 0x16
        out = b""
        while True:
            size = self._message_size()
            if size is None or len(self.pending) < size:
                return out
            message, self.pending = self.pending[:size], self.pending[size:]
            out += self._maybe_tamper(message)

    def _message_size(self):
        if self.tls:
            if len(self.pending) < 5:
                return None
            return 5 + struct.unpack(">H", self.pending[3:5])[0]
        if len(self.pending) < 4:
            return None
        return 4 + struct.unpack(">I", self.pending[:4])[0]

    def _maybe_tamper(self, message):
        if self.tls and message[0] != 23:
            return message  # handshake records, ChangeCipherSpec
        index = self.messages
        self.messages += 1
        if not self.tamper or index != 1:
            return message
        data = bytearray(message)
        if self.tls:
            at = 5 + (len(data) - 5) // 2
        else:
            found = data.find(b'"qps":')
            at = found + 6 if found >= 0 else 4 + (len(data) - 4) // 2
        data[at] ^= 0x01
        print("tampered", flush=True)
        return bytes(data)


def relay_one(client, server_address, tamper, record, end):
    server = socket.create_connection(server_address, timeout=5)
    stream = ClientStream(tamper, record)
    while time.monotonic() < end:
        ready, _, _ = select.select([client, server], [], [], 0.2)
        if client in ready:
            data = client.recv(65536)
            if not data:
                break
            server.sendall(stream.feed(data))
        if server in ready:
            data = server.recv(65536)
            if not data:
                break
            client.sendall(data)
    server.close()
    client.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listen_address")
    parser.add_argument("listen_port", type=int)
    parser.add_argument("server_address")
    parser.add_argument("server_port", type=int)
    parser.add_argument("--record", required=True)
    parser.add_argument("--tamper", action="store_true")
    parser.add_argument("--deadline", type=float, default=60)
    args = parser.parse_args()
    end = time.monotonic() + args.deadline
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((args.listen_address, args.listen_port))
    listener.listen(4)
    print("listening", flush=True)
    with open(args.record, "ab") as record:
        while time.monotonic() < end:
            listener.settimeout(max(0.1, end - time.monotonic()))
            try:
                client, _ = listener.accept()
            except socket.timeout:
                continue
            try:
                relay_one(client, (args.server_address, args.server_port), args.tamper, record,
                          end)
            except OSError as error:
                print(f"relay: {error}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
