#!/usr/bin/python3
"""Unplug and re-plug an emulated Buzz! dongle while `shakyd watch-buttons` reads it.

Usage: buzzer-hotplug.py SHAKYD FIXTURES
Runs under umockdev-wrapper (re-executes itself there). Adds the Buzz! dongle of buzzers.umockdev (event30)
to a umockdev testbed, starts `shakyd watch-buttons`, and reacts to what it prints: once the device is
attached, it is removed (a "remove" uevent, then its files go); once shakyd says it is gone, it is added
again (with an "add" uevent) and a press of handset 2's buzz button is replayed on it; once shakyd printed
the press, it is interrupted with SIGINT. The dongle comes back as event35 (umockdev keeps a removed
node's number taken, and a real re-plug often gets a new number too). Prints shakyd's output, then "exit=<status>". Each wait gives up
after 20 seconds.
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
NODE = "/dev/input/event30"
EVENT = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:054C:0002.0001/input/input30/event30"
testbed = UMockdev.Testbed.new()

# Only the Buzz! dongle's records (the event node, its input parent and its LEDs) from buzzers.umockdev.
with open(os.path.join(fixtures, "buzzers.umockdev")) as file:
    records = [record for record in file.read().split("\n\n") if "0003:054C:0002.0001" in record]


def plug(number):
    """Plugs the dongle in as input<number>/event<number> (a re-plugged device gets the next free number)."""
    node, event = NODE.replace("30", number), EVENT.replace("30", number)
    # The node's ioctl answers first: watch-buttons may open a node as soon as it is there, and umockdev's preload
    # stops a process that opens an emulated node it has no answers for.
    with open(os.path.join(fixtures, "buzzer-event30.ioctl")) as file:
        answers = file.read().replace(NODE, node)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "buzzer-hotplug-%d-%s.ioctl" % (os.getpid(), number))
    with open(path, "w") as file:
        file.write(answers)
    testbed.load_ioctl(node, path)
    os.remove(path)
    for record in reversed(records):  # parents first
        minor = str(64 + int(number))
        record = record.replace("input30", "input" + number).replace("event30", "event" + number)
        record = record.replace("13:94", "13:" + minor).replace("MINOR=94", "MINOR=" + minor)
        testbed.add_from_string(record + "\n")
    testbed.uevent(event, "add")
    return node


plug("30")
watch = WatchButtons(shakyd, testbed)
wait_for = watch.wait_for

if wait_for("attached"):
    testbed.uevent(EVENT, "remove")
    for record in records:  # children first: the event node, then its parent and the LEDs
        testbed.remove_device("/sys" + record.split("\n")[0][3:])
    if wait_for("gone"):
        node = plug("35")
        if wait_for("back"):
            events = os.path.join(os.environ.get("TMPDIR", "/tmp"), "buzzer-hotplug-%d.events" % os.getpid())
            with open(events, "w") as file:
                file.write("# EVEMU 1.3\nE: 7.100000 0001 02c5 1\nE: 7.100000 0000 0000 0\n")
            testbed.load_evemu_events(node, events)
            wait_for("pressed")
            os.remove(events)
watch.finish()
