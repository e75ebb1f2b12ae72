#!/usr/bin/python3
"""Plays an evemu events file into an emulated input node once a command reads it.

Usage: events-feeder.py DEVICE.umockdev NODE NODE.ioctl NODE.events READY_TEXT -- COMMAND...
Runs under umockdev-wrapper (re-executes itself there) with a umockdev testbed holding DEVICE.umockdev, NODE
answering NODE.ioctl, starts COMMAND and passes its standard error through; once a line of it contains
READY_TEXT (the reader is about to open NODE), the events start (their times count from then, so the first
event's time is the reader's head start). A kernel delivers only the events that happen after a reader
opens the node, so no event waits for a late reader (umockdev's node, a pseudo-terminal, would queue them,
and past its 4 KiB buffer it hands out a partial event). Exits with COMMAND's status; gives up waiting for
READY_TEXT after 20 s.
"""
import os
import subprocess
import sys
import threading

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

device_file, node, ioctl_file, events_file, ready_text = sys.argv[1:6]
command = sys.argv[sys.argv.index("--") + 1:]
testbed = UMockdev.Testbed.new()
testbed.add_from_file(device_file)
testbed.load_ioctl(node, ioctl_file)

process = subprocess.Popen(
    command, env=dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir()), stderr=subprocess.PIPE, text=True,
    bufsize=1)
ready = threading.Event()


def forward():
    for line in process.stderr:
        sys.stderr.write(line)
        sys.stderr.flush()
        if ready_text in line:
            ready.set()
    ready.set()


threading.Thread(target=forward, daemon=True).start()
if ready.wait(20) and process.poll() is None:
    testbed.load_evemu_events(node, events_file)
sys.exit(process.wait())
