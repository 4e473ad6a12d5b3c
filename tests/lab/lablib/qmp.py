"""A minimal client for a VM's QMP socket (qemu's JSON monitor)."""

import json
import socket

from .proc import LabError


def execute(sock_path, command, arguments=None, timeout=10):
    """Run one QMP command; returns its 'return' value, raises LabError on an error reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        try:
            s.connect(str(sock_path))
        except OSError as e:
            raise LabError(f"cannot reach qemu monitor {sock_path}: {e}") from e
        reader = s.makefile("r")

        def reply():
            for line in reader:
                msg = json.loads(line)
                if "return" in msg or "error" in msg:
                    return msg
            raise LabError(f"qemu monitor {sock_path} closed the connection")

        reader.readline()  # greeting
        s.sendall(b'{"execute": "qmp_capabilities"}\n')
        reply()
        request = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        s.sendall(json.dumps(request).encode() + b"\n")
        msg = reply()
    if "error" in msg:
        raise LabError(f"qemu {command}: {msg['error'].get('desc', msg['error'])}")
    return msg["return"]
