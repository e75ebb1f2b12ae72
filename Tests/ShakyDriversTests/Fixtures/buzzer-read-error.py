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
import struct
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402
from watch_buttons import WatchButtons  # noqa: E402

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

watch = WatchButtons(shakyd, testbed)


def event(seconds, microseconds, kind, code, value):
    return struct.pack("<qqHHi", seconds, microseconds, kind, code, value)


reopened = False
if watch.wait_for("attached"):
    master = testbed.get_dev_fd(NODE)
    os.write(master, bytes.fromhex("00112233445566778899"))
    reopened = watch.wait_for("opening it again", stream="stderr")
    if reopened:
        os.write(master, event(7, 100000, 1, 0x120, 1) + event(7, 100000, 0, 0, 0))
        watch.wait_for("pressed")
watch.finish(["reopened"] if reopened else [])
