#!/usr/bin/python3
"""Plug in, unplug and re-plug the two players' inputs of an emulated dual arcade encoder (one USB interface, so one
ID_PATH and serial) while `shakyd watch-buttons` reads them.

Usage: buzzer-identity-hotplug.py SHAKYD FIXTURES
Runs under umockdev-wrapper (re-executes itself there). From buzzers-shared-identity.umockdev: plugs in event42, starts
`shakyd watch-buttons`; once it is attached, plugs in event43 (a device added later must not take the identity of the
one present); once that is attached, unplugs event42 and, once it is gone, plugs it in again as event46 (it must get
its identity back); then presses BTN_TRIGGER on event43 (kernel time 8.1 s) and on event46 (8.2 s). Prints shakyd's
output, then "exit=<status>". Each wait gives up after 20 seconds.
"""
import os
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402
from watch_buttons import WatchButtons  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

shakyd, fixtures = sys.argv[1], sys.argv[2]
testbed = UMockdev.Testbed.new()
with open(os.path.join(fixtures, "buzzers-shared-identity.umockdev")) as file:
    all_records = file.read().split("\n\n")


def records_of(node):
    """The event node's record and its input device's, event node first."""
    return [record.strip("\n") for record in all_records if "/input%d/" % node in record + "/"]


def plug(node, as_node):
    """Plugs the device of `node` in as input<as_node>/event<as_node>; returns its node and event's sysfs path."""
    records = records_of(node)
    # The node's ioctl answers first: watch-buttons may open a node as soon as it is there, and umockdev's preload
    # stops a process that opens an emulated node it has no answers for.
    devnode = "/dev/input/event%d" % as_node
    with open(os.path.join(fixtures, "buzzer-event%d.ioctl" % node)) as file:
        answers = file.read().replace("/dev/input/event%d" % node, devnode)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "identity-hotplug-%d-%d.ioctl" % (os.getpid(), as_node))
    with open(path, "w") as file:
        file.write(answers)
    testbed.load_ioctl(devnode, path)
    os.remove(path)
    for record in reversed(records):  # parents first
        minor = 64 + as_node
        record = record.replace("input%d" % node, "input%d" % as_node).replace("event%d" % node, "event%d" % as_node)
        record = record.replace("13:%d" % (64 + node), "13:%d" % minor).replace(
            "MINOR=%d" % (64 + node), "MINOR=%d" % minor)
        testbed.add_from_string(record + "\n")
    event = "/sys" + records[0].split("\n")[0][3:].replace("input%d" % node, "input%d" % as_node).replace(
        "event%d" % node, "event%d" % as_node)
    testbed.uevent(event, "add")
    return devnode, event


def unplug(event):
    """Removes the event node; its input device is left (re-plugged devices get new numbers)."""
    testbed.uevent(event, "remove")
    testbed.remove_device(event)


def press(devnode, seconds):
    events = os.path.join(os.environ.get("TMPDIR", "/tmp"), "identity-hotplug-%d.events" % os.getpid())
    with open(events, "w") as file:
        file.write("# EVEMU 1.3\nE: %s 0001 0120 1\nE: %s 0000 0000 0\n" % (seconds, seconds))
    testbed.load_evemu_events(devnode, events)
    os.remove(events)


_, first = plug(42, 42)
watch = WatchButtons(shakyd, testbed)
wait_for = watch.wait_for

if wait_for("attached"):
    second, _ = plug(43, 43)
    if wait_for("attached"):
        unplug(first)
        if wait_for("gone"):
            back, _ = plug(42, 46)
            if wait_for("back"):
                press(second, "8.100000")
                if wait_for("pressed"):
                    press(back, "8.200000")
                    wait_for("pressed")
watch.finish()
