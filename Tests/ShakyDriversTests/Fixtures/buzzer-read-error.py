#!/usr/bin/python3
"""Make a read of an emulated arcade encoder fail while `shakyd watch-buttons` reads it, then press a button.

Usage: buzzer-read-error.py SHAKYD FIXTURES
Runs under umockdev-wrapper (re-executes itself there). Adds the arcade encoder of buzzers.umockdev (event31) to a
umockdev testbed and starts `shakyd watch-buttons`. Once the device is attached, 10 bytes are written into its node:
part of a `struct input_event` (24 bytes), which makes libevdev's read fail with EINVAL, as the black-box tester
did with `ctl raw`. Once shakyd says on standard error that it opens the device again, a press of BTN_TRIGGER
(kernel time 7.1 s) is written; once shakyd printed it, it is interrupted with SIGINT. Prints shakyd's output,
then "reopened" when standard error said so, then "exit=<status>". Each wait gives up after 20 seconds.
"""
import os
import select
import signal
import struct
import subprocess
import sys
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

shakyd, fixtures = sys.argv[1], sys.argv[2]
NODE = "/dev/input/event31"
testbed = UMockdev.Testbed.new()

# Only the encoder's records (the event node and its input parent) from buzzers.umockdev, parents first.
with open(os.path.join(fixtures, "buzzers.umockdev")) as file:
    records = [record for record in file.read().split("\n\n") if "0003:0079:0006.0002" in record]
for record in reversed(records):
    testbed.add_from_string(record + "\n")
testbed.load_ioctl(NODE, os.path.join(fixtures, "buzzer-event31.ioctl"))

environment = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir())
process = subprocess.Popen(
    [shakyd, "watch-buttons", "--duration", "60", "--window", "0"],
    env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
log = []
errors = []


def wait_for(stream, text):
    """Reads lines of shakyd's `stream` (stdout or stderr) until one holds `text`."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout, process.stderr], [], [], 0.1)
        found = False
        for source in ready:
            line = source.readline()
            if not line:
                return False
            (log if source is process.stdout else errors).append(line.rstrip("\n"))
            found = found or (source is stream and text in line)
        if found:
            return True
    log.append("(gave up waiting for %r)" % text)
    return False


def event(seconds, microseconds, kind, code, value):
    return struct.pack("<qqHHi", seconds, microseconds, kind, code, value)


reopened = False
if wait_for(process.stdout, "attached"):
    master = testbed.get_dev_fd(NODE)
    os.write(master, bytes.fromhex("00112233445566778899"))
    reopened = wait_for(process.stderr, "opening it again")
    if reopened:
        os.write(master, event(7, 100000, 1, 0x120, 1) + event(7, 100000, 0, 0, 0))
        wait_for(process.stdout, "pressed")
process.send_signal(signal.SIGINT)
try:
    rest, rest_errors = process.communicate(timeout=20)
except subprocess.TimeoutExpired:
    process.kill()
    rest, rest_errors = process.communicate()
log.extend(rest.splitlines())
errors.extend(rest_errors.splitlines())
print("\n".join(log))
if reopened:
    print("reopened")
print("exit=%d" % process.returncode)
sys.stderr.write("\n".join(errors) + "\n")
