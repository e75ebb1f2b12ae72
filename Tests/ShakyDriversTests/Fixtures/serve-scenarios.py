#!/usr/bin/python3
"""Runs `shakyd serve` on an emulated accelerometer and plays one scenario against it.

Usage: serve-scenarios.py SCENARIO SHAKYD WORKDIR [DEVICE.umockdev]
Runs under umockdev-wrapper (re-executes itself there) with a umockdev testbed, starts
`shakyd serve --input auto` on a private socket in WORKDIR, and talks to it over Varlink:

  late-plug  no sensor at the start; a polled IIO accelerometer is added (an "add" uevent) once shakyd
             says it has none; shakyd must take it.
  late-plug-controller
             no sensor at the start; a DualSense (DEVICE: devices/dualsense.umockdev, with its .ioctl and
             .events beside it) is plugged in (its records, then an "add" uevent for its motion node) once shakyd
             says it has none; shakyd must take its motion sensors as the sensor, and their shake during a round
             (the device's events, fed by events-feeder.py) is a hint.
  glitch     a polled IIO accelerometer is read during a round; it is shaken, its x attribute then fails
             to read for 0.4 s (it holds no number: reads fail while the device stays in sysfs), and it
             is shaken again.
  unwired    DEVICE.umockdev (a buffered device whose interrupt is not wired: the buffer never fills) is
             read during a round; once shakyd falls back to polling it is shaken.

Prints `STATUS <json>` for each Sensor.Status it reports on (`HINTS <n>`: the hints the round used), shakyd's log,
then "exit=<status>".
Every wait gives up after 15 seconds.
"""
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

scenario, shakyd, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
testbed = UMockdev.Testbed.new()
root = testbed.get_root_dir()
G_RAW = 16384 if scenario == "unwired" else 512  # counts per g: the MPU-6050's at ±2 g, or at scale 0.019153


def plug_controller(description):
    """Plugs in the controller of `description` (a umockdev file with NAME.ioctl and NAME.events beside it) and
    returns its motion node (the first node that udev tags an accelerometer) and its events."""
    base = description[:-len(".umockdev")]
    records = open(description).read().split("\n\n")
    motion = next(record for record in records if "ID_INPUT_ACCELEROMETER=1" in record and "\nN: " in record)
    sysfs = "/sys" + motion.split("\n")[0][3:].strip()
    node = "/dev/" + next(line[3:].strip() for line in motion.split("\n") if line.startswith("N: "))
    testbed.add_from_file(description)
    testbed.load_ioctl(node, base + ".ioctl")
    testbed.uevent(sysfs, "add")
    return node, feeder.read_reports(base + ".events")


def add_polled_device():
    attributes = ["name", "shaky-glitchy-accel\n", "in_accel_x_raw", "0\n", "in_accel_y_raw", "0\n",
                  "in_accel_z_raw", "%d\n" % G_RAW, "in_accel_scale", "0.019153\n"]
    return testbed.add_device("iio", "iio:device0", None, attributes, ["DEVNAME", "/dev/iio:device0"])


device = None
if scenario == "late-plug-controller":
    # The feeder writes whole reports only while the reader keeps up, as a kernel's evdev node does.
    location = os.path.join(os.path.dirname(os.path.abspath(__file__)), "devices", "events-feeder.py")
    sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
    specification = importlib.util.spec_from_file_location("events_feeder", location)
    feeder = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(feeder)
if scenario == "glitch":
    device = add_polled_device()
elif scenario == "unwired":
    testbed.add_from_file(sys.argv[4])
    device = next(line[3:].strip() for line in open(sys.argv[4]) if line.startswith("P: ") and "iio:device" in line)
    device = "/sys" + device

socket_path = os.path.join(workdir, "shaky.sock")
process = subprocess.Popen(
    [shakyd, "serve", "--socket", socket_path, "--state-dir", os.path.join(workdir, "state"), "--input", "auto",
     "--sound-device", "none", "--log-level", "info"],
    env=dict(os.environ, UMOCKDEV_DIR=root), stderr=subprocess.PIPE, text=True, bufsize=1)
log = []


def collect():
    for line in process.stderr:
        log.append(line.rstrip("\n"))


threading.Thread(target=collect, daemon=True).start()


def wait_for(condition, what):
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.05)
    log.append("(gave up waiting until %s)" % what)
    return None


def logged(text):
    return wait_for(lambda: any(text in line for line in log), "the log says %r" % text)


def call(method, parameters=None):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for attempt in range(100):  # the socket file exists a moment before shakyd listens on it
        try:
            connection.connect(socket_path)
            break
        except (ConnectionRefusedError, FileNotFoundError):
            time.sleep(0.05)
    connection.sendall(json.dumps({"method": method, "parameters": parameters or {}}).encode() + b"\0")
    reply = b""
    while not reply.endswith(b"\0"):
        chunk = connection.recv(65536)
        if not chunk:
            break
        reply += chunk
    connection.close()
    return json.loads(reply.rstrip(b"\0"))


def sensor():
    return call("io.shakywords.Sensor.Status")["parameters"]["sensor"]


def write_attribute(name, text):
    """Overwrites one of the device's attributes in place with one fixed-width write.

    shakyd opens each raw attribute once and reads it again with pread, as the kernel allows; a file
    replaced by a new one (testbed.set_attribute) would go unseen, and an emptied one is never seen
    in the kernel's sysfs."""
    with open(root + device + "/" + name, "r+") as attribute:
        attribute.write("%-7s\n" % text)
        attribute.truncate()


def report(status):
    print("STATUS " + json.dumps(status, sort_keys=True), flush=True)


def shake(seconds=1.2):
    """±2 g at 4 Hz along x, written at 100 Hz."""
    import math
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        t = time.monotonic() - start
        write_attribute("in_accel_x_raw", "%d" % round(2 * G_RAW * math.sin(2 * math.pi * 4 * t)))
        time.sleep(0.01)
    write_attribute("in_accel_x_raw", "0")


def open_round():
    call("io.shakywords.Game.New", {"teams": ["Owls", "Foxes"], "questions": 1, "seed": 1, "replace": True})
    call("io.shakywords.Game.Next")
    return wait_for(lambda: sensor()["state"] == "reading", "the sensor is read")


def hints_used():
    return call("io.shakywords.Game.Status")["parameters"]["status"]["hintsUsed"]


def shaken_more_than(count):
    return wait_for(lambda: sensor()["shakes"] > count, "a shake is counted")


if wait_for(lambda: os.path.exists(socket_path), "the socket exists"):
    if scenario == "late-plug":
        if logged("no accelerometer found"):
            report(sensor())
            device = add_polled_device()
            if logged("an accelerometer was plugged in"):
                report(sensor())
    elif scenario == "late-plug-controller":
        if logged("no accelerometer found"):
            report(sensor())
            node, reports = plug_controller(sys.argv[4])
            if logged("an accelerometer was plugged in"):
                report(sensor())
                if open_round():
                    report(sensor())
                    played = threading.Event()
                    threading.Thread(target=feeder.play, args=(testbed.get_dev_fd(node), reports, played),
                                     daemon=True).start()
                    shaken_more_than(0)
                    played.wait(15)
                    report(sensor())
                    print("HINTS %d" % hints_used(), flush=True)
    elif scenario == "glitch":
        if logged("accelerometer found") and open_round():
            shake()
            shaken_more_than(0)
            report(sensor())
            write_attribute("in_accel_x_raw", "glitch")  # reads now fail, while the device stays in sysfs
            time.sleep(0.4)
            write_attribute("in_accel_x_raw", "0")
            time.sleep(0.3)
            before = sensor()
            report(before)
            shake()  # a shake may count twice (it goes on past the cooldown): wait for more than before it
            shaken_more_than(before["shakes"])
            report(sensor())
    elif scenario == "unwired":
        if logged("accelerometer found") and open_round():
            report(sensor())
            if wait_for(lambda: sensor()["driver"] == "iio-poll", "shakyd polls instead"):
                report(sensor())
                shake(2)
                shaken_more_than(0)
                report(sensor())

process.send_signal(signal.SIGTERM)
try:
    process.wait(timeout=15)
except subprocess.TimeoutExpired:
    process.kill()
    process.wait()
time.sleep(0.1)
print("\n".join(log))
print("exit=%d" % process.returncode)
