#!/usr/bin/python3
"""Plays a .poll motion into an emulated IIO device's raw attributes while a command reads it.

Usage (inside umockdev-run, so /sys is the testbed's):
    poll-writer.py MOTION.poll SYSFS_DEVICE READY_TEXT [--stop-after HOLD] -- COMMAND...
Starts COMMAND and passes its standard error through; once a line of it contains READY_TEXT (the reader is
polling), waits 0.2 s more, then writes each row's `in_accel_{x,y,z}_raw` at its time (milliseconds after the
start), holds the last row, and exits with COMMAND's status once it ends. Gives up waiting after 20 s.
`--stop-after HOLD` ends COMMAND with SIGINT HOLD seconds after the last row: the recording lasts as long as
the motion, however slow the machine, rather than a guessed duration.
"""
import os
import signal
import subprocess
import sys
import threading
import time

motion_file, device, ready_text = sys.argv[1], sys.argv[2], sys.argv[3]
options = sys.argv[4:sys.argv.index("--")]
stop_after = float(options[options.index("--stop-after") + 1]) if "--stop-after" in options else None
command = sys.argv[sys.argv.index("--") + 1:]
rows = []
with open(motion_file) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        rows.append([int(field) for field in line.split()])

process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, bufsize=1)
ready = threading.Event()


def forward():
    for line in process.stderr:
        sys.stderr.write(line)
        sys.stderr.flush()
        if ready_text in line:
            ready.set()
    ready.set()


threading.Thread(target=forward, daemon=True).start()
ready.wait(20)
time.sleep(0.2)
start = time.monotonic()
for milliseconds, x, y, z in rows:
    delay = start + milliseconds / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    if process.poll() is not None:
        break
    for axis, value in zip("xyz", (x, y, z)):
        # Overwrite in place with one fixed-width write: a reader must never see the file empty (the
        # kernel's attributes never are), umockdev does not redirect rename(), and shakyd keeps the file
        # open and reads it again with pread. Digits first, as the kernel writes them.
        with open(os.path.join(device, "in_accel_%s_raw" % axis), "r+") as attribute:
            attribute.write("%-7d\n" % value)
            attribute.truncate()
if stop_after is not None and process.poll() is None:
    time.sleep(stop_after)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
sys.exit(process.wait())
