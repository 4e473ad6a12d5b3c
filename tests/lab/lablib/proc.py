"""Running commands, waiting with deadlines, and ending processes by their PID."""

import os
import signal
import subprocess
import sys
import time


class LabError(Exception):
    """A failure labctl reports as one clear message and exit status 1."""


def log(msg):
    """Progress line on stderr, so stdout stays clean for command output."""
    print(f"labctl: {msg}", file=sys.stderr, flush=True)


def run(cmd, logfile=None, **kw):
    """Run cmd; output goes to logfile (appended) if given. Raises LabError on failure."""
    if logfile is None:
        result = subprocess.run(cmd, **kw)
    else:
        with open(logfile, "a") as out:
            out.write(f"\n$ {' '.join(map(str, cmd))}\n")
            out.flush()
            result = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, **kw)
    if result.returncode != 0:
        where = f" (see {logfile})" if logfile else ""
        raise LabError(f"'{' '.join(map(str, cmd[:3]))} ...' exited {result.returncode}{where}")
    return result


class Deadline:
    """A point in time; `left()` is what remains, `expired()` says when it passed."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self):
        return max(0.0, self.end - time.monotonic())

    def expired(self):
        return time.monotonic() >= self.end


def read_pid(pidfile):
    """The PID in pidfile, or None when the file is missing or empty."""
    try:
        text = pidfile.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def alive(pid, marker):
    """True when pid runs and its command line contains marker (guards against PID reuse)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return False
    return marker in cmdline


def stop(pid, marker, grace=10.0):
    """End one process by PID: SIGTERM, then SIGKILL after `grace` seconds.

    Does nothing when the PID is gone or belongs to something else (marker not in its
    command line). Returns True when the process is gone afterwards.
    """
    if not alive(pid, marker):
        return True
    os.kill(pid, signal.SIGTERM)
    deadline = Deadline(grace)
    while not deadline.expired():
        if not alive(pid, marker):
            return True
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    deadline = Deadline(5)
    while not deadline.expired():
        if not alive(pid, marker):
            return True
        time.sleep(0.1)
    return False
