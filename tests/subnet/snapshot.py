#!/usr/bin/python3
"""Run under umad2sim's preload (SIM_HOST=<node>): copies this process's simulated sysfs out.

umad2sim writes ./sys-<pid>/sys when the process first looks at /sys/class/infiniband and
removes it at exit, and only plain open/opendir see it. Listing /sys/class/infiniband makes it,
and the copy (of a real directory, under the current directory) keeps it.
Usage: snapshot.py DEST   writes DEST/sys/class/{infiniband,infiniband_mad}/...
"""
import os
import shutil
import sys

devices = os.listdir("/sys/class/infiniband")
if not devices:
    sys.exit("snapshot.py: umad2sim shows no device (is LD_PRELOAD set and ibsim running?)")
shutil.copytree("sys-%d/sys" % os.getpid(), os.path.join(sys.argv[1], "sys"), symlinks=True)
