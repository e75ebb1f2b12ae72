#!/usr/bin/python3
"""Plays an evemu events file into an emulated input node once a command reads it, whole events at a time, or an
IIO buffer's scans (a umockdev script) into an emulated /dev/iio:deviceN, whole scans at a time.

Usage: events-feeder.py DEVICE.umockdev NODE NODE.ioctl|- NODE.events|NODE.script READY_TEXT [--stall AT FOR]
                        [--stop-after HOLD] -- COMMAND...
Runs under umockdev-wrapper (re-executes itself there) with a umockdev testbed holding DEVICE.umockdev, NODE
answering NODE.ioctl (`-`: no ioctls), starts COMMAND and passes its standard error through; once a line of it
contains READY_TEXT (the reader is about to open NODE), the events start, the first at once and each later one
after its time's distance from the first (a script's `r DELAY DATA` lines: DATA after DELAY milliseconds more).
Exits with COMMAND's status; gives up waiting for READY_TEXT after 120 s (a test that drives COMMAND may be slow
to get there on a busy machine: a round opened 20 s after start-up has been seen).
`--stall AT FOR` stops COMMAND (SIGSTOP) AT seconds after the events start and lets it go on FOR seconds later,
as a busy machine may stall a reader.
`--stop-after HOLD` ends COMMAND with SIGINT once everything was written and read, and HOLD seconds more have
passed: the recording lasts as long as its input, however slow the machine, rather than a guessed duration.

Why not umockdev's own replay (`load_evemu_events`): umockdev's node is a pseudo-terminal, and its line
discipline holds at most 4095 bytes for the reader. A reader that falls further behind than that (a busy machine
easily stalls one for a few hundred milliseconds) finds the buffer ending inside a 24-byte `struct input_event`,
and libevdev refuses the partial event with EINVAL; umockdev's replay writes on regardless of what is unread.
A kernel's evdev node never hands out part of an event: it keeps whole events and, when its own buffer overflows,
reports SYN_DROPPED. So this feeder writes each report (the events up to and including its SYN_REPORT, or a
SYN_DROPPED alone) in one write, only while what the reader has not read yet stays far below that limit; a report
held back is delivered late with its own event time, as a kernel's queued events are. A kernel evdev node also
delivers only events that happen after a reader opens it, which is why the events wait for READY_TEXT.
"""
import ctypes
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

# struct input_event on a 64-bit kernel: struct timeval (two longs), __u16 type, __u16 code, __s32 value.
INPUT_EVENT = struct.Struct("=qqHHi")
# At most this many bytes unread by the reader (the pseudo-terminal holds 4095); a report waits until it fits.
BACKLOG_LIMIT = 2048
TIOCGPTN = 0x80045430  # the number of a pseudo-terminal master's /dev/pts/N
# libc's own ioctl: umockdev's preload answers ioctls on the emulated node's terminal from NODE.ioctl only.
LIBC = ctypes.CDLL("libc.so.6", use_errno=True)


def read_script(path):
    """A umockdev script's reads as (seconds from the first, bytes) in order: `r DELAY DATA`, where DATA escapes
    bytes below 32 as `^` and the byte plus 64, and `^` itself as `^` and a backquote."""
    reports, offset = [], None
    with open(path, "rb") as script:
        for line in script.read().split(b"\n"):
            if not line.startswith(b"r "):
                continue
            _, delay, data = line.split(b" ", 2)
            offset = 0.0 if offset is None else offset + int(delay) / 1000
            raw, index = bytearray(), 0
            while index < len(data):
                if data[index] == 0x5E and index + 1 < len(data):
                    raw.append(0x5E if data[index + 1] == 0x60 else data[index + 1] - 64)
                    index += 2
                else:
                    raw.append(data[index])
                    index += 1
            reports.append((offset, bytes(raw)))
    return reports


def read_reports(path):
    """The events file as (seconds from the first event, bytes of one report) in order."""
    if path.endswith(".script"):
        return read_script(path)
    reports, current, first, report_time = [], b"", None, None
    with open(path) as events:
        for line in events:
            if not line.startswith("E: "):
                continue
            stamp, kind, code, value = line[3:].split()[:4]
            seconds, microseconds = (int(part, 10) for part in stamp.split("."))
            event_time = seconds + microseconds / 1e6
            if first is None:
                first = event_time
            if report_time is None:
                report_time = event_time - first
            current += INPUT_EVENT.pack(seconds, microseconds, int(kind, 16), int(code, 16), int(value, 10))
            if int(kind, 16) == 0:  # SYN_REPORT ends a report; SYN_DROPPED stands alone, as a kernel sends it
                reports.append((report_time, current))
                current, report_time = b"", None
    if current:
        reports.append((report_time, current))
    return reports


class Backlog:
    """What the reader of a pseudo-terminal has not read yet, known from a second descriptor of its terminal side.

    FIONREAD counts only bytes that reached the line discipline; written bytes pass through the terminal's flip
    buffer first, moved on by a kernel worker. poll() on a terminal side with nothing to read waits for that
    worker, so once FIONREAD reads 0 after a poll, nothing written is unread anywhere. Until then, everything
    written since the backlog was last seen empty may still be unread.
    """

    def __init__(self, master):
        number = struct.unpack("I", fcntl.ioctl(master, TIOCGPTN, b"\0" * 4))[0]
        self.terminal = os.open(f"/dev/pts/{number}", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        self.poller = select.poll()
        self.poller.register(self.terminal, select.POLLIN)
        self.since_empty = 0

    def unread(self):
        """An upper bound on the bytes written and not yet read."""
        self.poller.poll(0)  # moves what is in flight to the line discipline when it holds nothing
        queued = ctypes.c_int()
        if LIBC.ioctl(self.terminal, termios.FIONREAD, ctypes.byref(queued)) < 0:
            raise OSError(ctypes.get_errno(), "FIONREAD on the emulated node's terminal failed")
        queued = queued.value
        if queued == 0:
            self.since_empty = 0
        return max(queued, self.since_empty)

    def wrote(self, count):
        self.since_empty += count


def play(master, reports, done):
    backlog = Backlog(master)
    start = time.monotonic()
    for offset, report in reports:
        delay = start + offset - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        while backlog.unread() + len(report) > BACKLOG_LIMIT:
            time.sleep(0.001)
        written = 0
        while written < len(report):
            try:
                written += os.write(master, report[written:])
            except BlockingIOError:
                time.sleep(0.001)
        backlog.wrote(len(report))
    while backlog.unread() > 0:  # the reader has everything
        time.sleep(0.01)
    done.set()


def option(name, count):
    """The values following `name` among the options, or None."""
    if name not in options:
        return None
    index = options.index(name)
    return [float(value) for value in options[index + 1:index + 1 + count]]


if __name__ == "__main__":  # serve-scenarios.py imports its reading and writing
    device_file, node, ioctl_file, events_file, ready_text = sys.argv[1:6]
    options = sys.argv[6:sys.argv.index("--")]
    stall = option("--stall", 2)
    stop_after = option("--stop-after", 1)
    command = sys.argv[sys.argv.index("--") + 1:]
    reports = read_reports(events_file)
    testbed = UMockdev.Testbed.new()
    testbed.add_from_file(device_file)
    if ioctl_file != "-":
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
    done = threading.Event()
    if ready.wait(120) and process.poll() is None:
        threading.Thread(target=play, args=(testbed.get_dev_fd(node), reports, done), daemon=True).start()
        if stall:
            time.sleep(stall[0])
            process.send_signal(signal.SIGSTOP)
            time.sleep(stall[1])
            process.send_signal(signal.SIGCONT)
        if stop_after:
            while not done.wait(0.1):
                if process.poll() is not None:
                    break
            time.sleep(stop_after[0])
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
    sys.exit(process.wait())
