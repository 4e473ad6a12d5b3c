"""Build the lab's Debian 12 image once and keep it in the cache.

The image is a raw ext4 file made with `mkfs.ext4 -d` from a debootstrap tree (no loop
mounts), plus the host's Debian kernel, its modules inside the tree, and a small initrd.
The cache key is a hash of the package list, the kernel version and the recipe (this file
and guest/), so a change to any of them builds a new image and nothing else does.
"""

import hashlib
import os
import re
import shutil
import time
from pathlib import Path

from . import config, mirror
from .proc import LabError, log, run

SUITE = "bookworm"
IMAGE_SIZE = "3G"
# Module folders no lab VM needs; dropping them saves ~150 MB in the image.
DROP_MODULES = [
    "kernel/sound", "kernel/drivers/gpu", "kernel/drivers/media", "kernel/drivers/net/wireless",
    "kernel/drivers/staging", "kernel/drivers/iio", "kernel/drivers/usb", "kernel/drivers/bluetooth",
    "kernel/drivers/hid", "kernel/drivers/input", "kernel/drivers/hwmon", "kernel/net/wireless",
    "kernel/net/mac80211", "kernel/net/bluetooth",
]
# Units that only slow boot or wake up in the middle of a test.
MASK_UNITS = [
    "apt-daily.timer", "apt-daily-upgrade.timer", "dpkg-db-backup.timer", "e2scrub_all.timer",
    "e2scrub_reap.service", "fstrim.timer", "systemd-firstboot.service",
]
ENABLE_UNITS = ["systemd-networkd.service", "lab-identity.service"]
INITRD_MODULES = ["virtio_pci", "virtio_blk", "ext4"]


class Image:
    """A built image in the cache: base.raw, vmlinuz, initrd.img."""

    def __init__(self, path):
        self.path = path
        self.base = path / "base.raw"
        self.kernel = path / "vmlinuz"
        self.initrd = path / "initrd.img"

    def complete(self):
        return (self.path / "complete").exists()


def packages():
    """The package list of packages.txt, without comments."""
    lines = (config.LAB_DIR / "packages.txt").read_text().splitlines()
    return [w for line in lines for w in line.split("#", 1)[0].split()]


def _version_key(kver):
    return [int(n) for n in re.findall(r"\d+", kver)]


def kernel_version():
    """The newest Debian kernel installed on the host that has rdma_rxe; raises if none."""
    found = []
    for mod_dir in Path("/lib/modules").glob("*"):
        kver = mod_dir.name
        rxe = mod_dir / "kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko"
        if Path(f"/boot/vmlinuz-{kver}").exists() and rxe.exists():
            found.append(kver)
    if not found:
        raise LabError("no kernel with rdma_rxe in /boot + /lib/modules: run tests/lab/install-deps.sh")
    return max(found, key=_version_key)


def cache_key(kver):
    """Hash of package list, kernel version and the recipe files."""
    h = hashlib.sha256()
    h.update("\n".join(packages()).encode())
    h.update(kver.encode())
    for path in sorted([Path(__file__)] + list((config.LAB_DIR / "guest").iterdir())):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _write(root, rel, text, mode=0o644):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def _install_guest_files(root):
    guest = config.LAB_DIR / "guest"
    copies = {
        "lab-identity": ("usr/local/sbin/lab-identity", 0o755),
        "lab-identity.service": ("etc/systemd/system/lab-identity.service", 0o644),
        "10-mgmt.network": ("etc/systemd/network/10-mgmt.network", 0o644),
        "sshd-lab.conf": ("etc/ssh/sshd_config.d/lab.conf", 0o644),
        "journald-lab.conf": ("etc/systemd/journald.conf.d/lab.conf", 0o644),
        "modprobe-lab.conf": ("etc/modprobe.d/lab.conf", 0o644),
        "lab_module_bytecode.py": ("usr/lib/python3/dist-packages/lab_module_bytecode.py", 0o644),
        "lab-module-bytecode.pth": ("usr/lib/python3/dist-packages/lab-module-bytecode.pth", 0o644),
    }
    for src, (dst, mode) in copies.items():
        _write(root, dst, (guest / src).read_text(), mode)
    hosts = ["127.0.0.1 localhost"] + [
        f"{n.fabric_address} {n.name}" for n in config.nodes(config.MAX_NODES)
    ]
    _write(root, "etc/hosts", "\n".join(hosts) + "\n")
    _write(root, "etc/fstab", "/dev/vda / ext4 rw,noatime 0 0\n")
    _write(root, "etc/hostname", "lab\n")
    # Empty: each VM takes its machine-id from the kernel command line (qemu.py).
    _write(root, "etc/machine-id", "")


def _configure_units(root, logfile):
    run(["systemctl", f"--root={root}", "enable"] + ENABLE_UNITS, logfile)
    run(["systemctl", f"--root={root}", "mask"] + MASK_UNITS, logfile)
    run(["systemctl", f"--root={root}", "set-default", "multi-user.target"], logfile)


def _install_modules(root, kver, logfile):
    src = Path("/lib/modules") / kver
    dst = root / "lib/modules" / kver
    drop = {src / d for d in DROP_MODULES}
    shutil.copytree(src, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if Path(d) / n in drop])
    run(["depmod", "-b", str(root), kver], logfile)


def _make_initrd(work, kver, logfile):
    conf = work / "initramfs"
    _write(conf, "initramfs.conf", "MODULES=list\nBUSYBOX=n\nCOMPRESS=zstd\nRESUME=none\n")
    _write(conf, "modules", "\n".join(INITRD_MODULES) + "\n")
    for sub in ("conf.d", "scripts", "hooks"):
        (conf / sub).mkdir(exist_ok=True)
    run(["mkinitramfs", "-d", str(conf), "-o", str(work / "initrd.img"), kver], logfile)


def _clean_rootfs(root):
    for deb in (root / "var/cache/apt/archives").glob("*.deb"):
        deb.unlink()
    shutil.rmtree(root / "var/lib/apt/lists", ignore_errors=True)
    (root / "var/lib/apt/lists/partial").mkdir(parents=True)


def _build(work, kver, logfile):
    root = work / "rootfs"
    source = mirror.host_mirror()
    t0 = time.monotonic()
    log(f"debootstrap {SUITE} from the host's apt mirror (log: {logfile})")
    run(["debootstrap", "--variant=minbase", "--include=" + ",".join(packages()),
         SUITE, str(root), source], logfile)
    log(f"debootstrap done in {time.monotonic() - t0:.0f}s; configuring")
    _install_guest_files(root)
    _configure_units(root, logfile)
    _install_modules(root, kver, logfile)
    _clean_rootfs(root)
    _make_initrd(work, kver, logfile)
    shutil.copyfile(f"/boot/vmlinuz-{kver}", work / "vmlinuz")
    log("mkfs.ext4 -d")
    run(["mkfs.ext4", "-q", "-F", "-L", "labroot", "-d", str(root), str(work / "base.raw"),
         IMAGE_SIZE], logfile)
    shutil.rmtree(root)
    shutil.rmtree(work / "initramfs")
    (work / "kernel-version").write_text(kver + "\n")
    (work / "complete").write_text(time.strftime("%Y-%m-%dT%H:%M:%SZ\n", time.gmtime()))


def _prune(keep):
    for other in config.IMAGES_DIR.iterdir():
        if other != keep:
            shutil.rmtree(other, ignore_errors=True)


def ensure_image():
    """The cached image for today's package list and kernel, built first if missing."""
    kver = kernel_version()
    image = Image(config.IMAGES_DIR / cache_key(kver))
    if image.complete():
        return image
    if os.geteuid() != 0:
        raise LabError("building the lab image needs root (debootstrap)")
    config.IMAGES_DIR.mkdir(parents=True, exist_ok=True)
    work = config.IMAGES_DIR / f"{image.path.name}.building"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    t0 = time.monotonic()
    try:
        _build(work, kver, config.CACHE_DIR / "image-build.log")
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    work.rename(image.path)
    _prune(keep=image.path)
    log(f"image built in {time.monotonic() - t0:.0f}s: {image.path}")
    return image
