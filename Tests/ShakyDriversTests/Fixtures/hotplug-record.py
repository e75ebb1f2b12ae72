#!/usr/bin/python3
"""Unplug and re-plug an emulated IIO accelerometer while `shakyd record` reads it.

Usage: hotplug-record.py SHAKYD OUTPUT
Runs under umockdev-wrapper (re-executes itself there). Adds a polled IIO accelerometer to a umockdev
testbed, starts `shakyd record --input iio:shaky-hotplug-accel` on it, and reacts to what shakyd logs:
once it records, the device is removed (a "remove" uevent, then its sysfs files go); once shakyd says it is
waiting, the device is added again with x tilted; once shakyd is back, it is interrupted with SIGINT.
Prints shakyd's log, then "exit=<status>". Each wait gives up after 20 seconds.
"""
import os
import select
import signal
import subprocess
import sys
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

shakyd, output = sys.argv[1], sys.argv[2]
testbed = UMockdev.Testbed.new()


def add_device(x_raw):
    attributes = ["name", "shaky-hotplug-accel\n", "in_accel_x_raw", x_raw + "\n", "in_accel_y_raw", "0\n",
                  "in_accel_z_raw", "512\n", "in_accel_scale", "0.019153\n"]
    return testbed.add_device("iio", "iio:device0", None, attributes, ["DEVNAME", "/dev/iio:device0"])


device = add_device("0")
environment = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir())
process = subprocess.Popen(
    [shakyd, "record", "--input", "iio:shaky-hotplug-accel", "--rate", "50", "--output", output, "--duration", "60"],
    env=environment, stderr=subprocess.PIPE, text=True, bufsize=1)
log = []


def wait_for(text):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.1)
        if ready:
            line = process.stderr.readline()
            if not line:
                return False
            log.append(line.rstrip("\n"))
            if text in line:
                return True
    log.append("(gave up waiting for %r)" % text)
    return False


if wait_for("recording from"):
    time.sleep(0.3)  # let a few samples through before unplugging
    testbed.uevent(device, "remove")
    testbed.remove_device(device)
    if wait_for("waiting for it to come back"):
        device = add_device("256")
        if wait_for("is back"):
            time.sleep(0.3)  # a few samples from the re-attached device
process.send_signal(signal.SIGINT)
try:
    rest = process.communicate(timeout=20)[1]
except subprocess.TimeoutExpired:
    process.kill()
    rest = process.communicate()[1]
log.extend(rest.splitlines())
print("\n".join(log))
print("exit=%d" % process.returncode)
