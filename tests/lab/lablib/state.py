"""The running lab's record (run/lab.json) and the lock that serialises labctl calls."""

import fcntl
import json
import os
import time

from . import config
from .proc import Deadline, LabError

LAB_JSON = "lab.json"


class Lock:
    """Exclusive lock on cache/NAME; waits up to `wait` seconds for the labctl holding it.
    lab.lock serialises up and down; image.lock the image's build (labctl image, up)."""

    def __init__(self, wait, name="lab.lock", holder="another labctl up/down"):
        self.wait = wait
        self.name = name
        self.holder = holder
        self.fd = None

    def __enter__(self):
        config.CACHE_DIR.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(config.CACHE_DIR / self.name, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = Deadline(self.wait)
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if deadline.expired():
                    os.close(self.fd)
                    raise LabError(f"{self.holder} is running; try again when it ends")
                time.sleep(0.5)

    def __exit__(self, *exc):
        os.close(self.fd)


# An image build takes 2-5 minutes on two cores: one that another labctl started (labctl image)
# is waited for, not raced.
IMAGE_BUILD_WAIT = 1200


def image_lock():
    return Lock(IMAGE_BUILD_WAIT, "image.lock", "a lab image build")


def save(count, image_path, fabric):
    config.STATE_DIR.mkdir(parents=True, exist_ok=True)
    record = {"count": count, "image": str(image_path), "fabric": fabric,
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    (config.STATE_DIR / LAB_JSON).write_text(json.dumps(record, indent=2) + "\n")


def load():
    """The record of the lab that is up, or None."""
    try:
        return json.loads((config.STATE_DIR / LAB_JSON).read_text())
    except FileNotFoundError:
        return None


def running_nodes():
    """Nodes of the lab that is up; raises LabError when there is none."""
    record = load()
    if record is None:
        raise LabError("no lab is up (run: tests/lab/labctl up)")
    return config.nodes(record["count"])


def node_of_lab(name):
    """The node called name in the lab that is up; raises LabError if it has none such."""
    try:
        node = config.node_by_name(name)
    except ValueError as e:
        raise LabError(str(e)) from e
    if node not in running_nodes():
        raise LabError(f"{node.name} is not part of the lab that is up")
    return node
