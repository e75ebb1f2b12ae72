#!/usr/bin/python3
"""Plays a .poll motion into an emulated IIO device's raw attributes while a command reads it.

Usage (inside umockdev-run, so /sys is the testbed's):
    poll-writer.py MOTION.poll SYSFS_DEVICE HEAD_START_SECONDS -- COMMAND...
Starts COMMAND, gives it HEAD_START_SECONDS to set the device up, then writes each row's `in_accel_{x,y,z}_raw`
at its time (milliseconds after the start), holds the last row, and exits with COMMAND's status once it ends.
"""
import os
import subprocess
import sys
import time

motion_file, device, head_start = sys.argv[1], sys.argv[2], float(sys.argv[3])
command = sys.argv[sys.argv.index("--") + 1:]
rows = []
with open(motion_file) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        rows.append([int(field) for field in line.split()])

process = subprocess.Popen(command)
time.sleep(head_start)
start = time.monotonic()
for milliseconds, x, y, z in rows:
    delay = start + milliseconds / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    if process.poll() is not None:
        break
    for axis, value in zip("xyz", (x, y, z)):
        # Overwrite in place with one fixed-width write: a reader must never see the file empty (the
        # kernel's attributes never are), and umockdev does not redirect rename().
        with open(os.path.join(device, "in_accel_%s_raw" % axis), "r+") as attribute:
            attribute.write("%7d\n" % value)
sys.exit(process.wait())
