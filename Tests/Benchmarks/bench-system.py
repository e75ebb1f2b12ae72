#!/usr/bin/python3
"""shakyd against iio-sensor-proxy, side by side in one umockdev testbed.

Each scenario emulates two identical accelerometers fed the same stream (one per reader: a real IIO buffer
is single-open), starts iio-sensor-proxy on a private system bus with a client claiming the accelerometer
(monitor-sensor), starts shakyd with a round open (so it reads every sample), lets both settle, then
measures a window: CPU (/proc/PID/task/*/schedstat), wake-ups (voluntary_ctxt_switches), read syscalls
(/proc/PID/io syscr) and peak RSS (VmHWM). Prints the median of --runs runs with min and max, and the ratios.

While a round is open, --watchers (10) Game.Watch calls are held on shakyd's socket, as a room's board and phones
would: like `shaky board` and `shaky play`, they count the countdown down on their own clock (ticks: false), so
shakyd sleeps through its seconds; --ticking-watchers asks for a tick each second instead (as `shaky watch` does). Polled devices are written in place (the same inode, as the kernel's sysfs attribute stays the same file):
shakyd keeps the attributes open and reads them with pread, which a replaced file would hide from it.
The evdev scenario feeds whole reports into each emulated node (a pseudo-terminal under umockdev); umockdev's own
part is measured by a third node read by `cat` (the least any reader of such a node does per report: a wake-up and
a read through umockdev's preloaded read): its CPU over its reads is umockdev's cost per read, and shakyd's net
figure is its CPU less that cost for each of its own reads.
The watchers-200 scenario opens 200 watchers during a round, closes them, and shows the RSS kept afterwards, split
into anonymous memory and pages of files (code that first ran in the burst), then opens and closes 200 more and
shows what that second burst added.
The party scenario plays what a party asks of shakyd (PARTY: the scripted demo game, the history and leaderboard,
a pack exported and imported again, a pack made and searched, the settings, a second game with a buzz, ended) with
10 watchers held throughout, and shows both daemons' peak RSS after it.
With watchers, each run also says how long after the sample that completed a shake was written the first watcher
heard its hint (the stream fed so far replayed through `shakyd detect` finds that sample). --strace counts each
daemon's system calls in the window with strace -c (tracing slows them: compare the counts, not that run's CPU).

As on an installed system, the group `shaky` (members may control the game) is in /etc/group: when it is missing, the
bench creates the user and groups that an install's sysusers.d file does (systemd-sysusers with systemd/shaky.sysusers).
Without it, shakyd's lookup of the group at start-up goes on to systemd's NSS module, and glibc loads that library
(about 0.3 MiB of RSS) into a process that an install would not have it in.

Both daemons start as after a boot: their own executables are dropped from the page cache before each run (synced,
then posix_fadvise(POSIX_FADV_DONTNEED)), so each run reads them back from the disk alike, and a binary the linker has
just written (whose whole file sits in the page cache, in large folios that a fault maps whole) is measured as an
installed one is (--warm keeps them cached). A fault in a file maps the pages around it that the page cache holds, so
peak RSS also depends on how much the disk reads ahead (read_ahead_kb, printed in the header): an SD card reads ahead
128 KiB by default, a virtual machine's disk often far more.

Run by `make bench-system`; needs root for apt-get when packages are missing. Uses Debian's python3 (GI).
"""
import argparse
import atexit
import grp
import json
import os
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

from daemon_probe import listening, resident, resident_parts

PACKAGES = ["iio-sensor-proxy", "dbus", "umockdev", "python3-gi", "gir1.2-umockdev-1.0", "python3-dbusmock", "strace",
            "systemd", "gcc"]
SCENARIOS = ["iio-buffer-50", "iio-buffer-100", "iio-poll-100", "evdev-100", "idle", "watchers-200", "party"]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ShakyDriversTests", "Fixtures")


def ensure_packages(packages=PACKAGES):
    """Installs the Debian packages of `packages` that are missing (the other benchmark scripts call it too)."""
    missing = [p for p in packages
               if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                 text=True).stdout != "install ok installed"]
    if missing:
        print("installing: " + " ".join(missing), flush=True)
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + missing, check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def ensure_install_users():
    """Creates the system user and groups of systemd/shaky.sysusers, as an install does, when the group is missing."""
    try:
        grp.getgrnam("shaky")
        return
    except KeyError:
        pass
    sysusers = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "systemd", "shaky.sysusers")
    print("creating the user and groups an install creates: systemd-sysusers " + os.path.normpath(sysusers), flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["systemd-sysusers", os.path.abspath(sysusers)], check=True)


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shakyd", required=True, help="the shakyd binary to measure")
    parser.add_argument("--shaky", help="the shaky client (default: beside shakyd)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20, help="the measured window")
    parser.add_argument("--settle", type=float, default=3, help="seconds after start-up before measuring")
    parser.add_argument("--watchers", type=int, default=10, help="Game.Watch calls held while a round is open")
    parser.add_argument("--ticking-watchers", action="store_true",
                        help="the watchers ask for a tick each second of the countdown (Watch without ticks: false)")
    parser.add_argument("--threads", action="store_true", help="also print shakyd's threads: CPU and wake-ups")
    parser.add_argument("--strace", action="store_true",
                        help="count each daemon's system calls in the window with strace -c (its tracing slows them, "
                             "so the CPU figures of such a run are not to be compared)")
    parser.add_argument("--warm", action="store_true",
                        help="leave the daemons' executables in the page cache (by default each run reads them from "
                             "the disk, as after a boot)")
    parser.add_argument("--only", action="append", choices=SCENARIOS, help="run only these scenarios")
    parser.add_argument("--floor-period", type=int, default=165,
                        help="how often (ms) the wake-up floor (wake-floor.c) wakes; default: shakyd's reader at rest "
                             "with the default preset")
    return parser.parse_args()


PROXY = "/usr/sbin/iio-sensor-proxy"


def drop_from_page_cache(paths):
    """Drops each file's pages from the page cache (written back first: a dirty page is not dropped)."""
    os.sync()
    for path in paths:
        descriptor = os.open(os.path.realpath(path), os.O_RDONLY)
        try:
            os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(descriptor)


def read_ahead_kib(path):
    """The read-ahead (KiB) of the block device holding `path`, or None when sysfs does not say."""
    device = os.stat(os.path.realpath(path)).st_dev
    for candidate in ("/sys/dev/block/%d:%d/queue/read_ahead_kb" % (os.major(device), os.minor(device)),
                      "/sys/dev/block/%d:%d/../queue/read_ahead_kb" % (os.major(device), os.minor(device))):
        try:
            with open(candidate) as file:
                return int(file.read())
        except (OSError, ValueError):
            continue
    return None


# --- the emulated devices -------------------------------------------------------------------------------------

def iio_attributes(name, buffered, rate):
    attributes = [
        "name", name + "\n", "in_accel_scale", "0.019153\n", "in_accel_x_raw", raw_text(0),
        "in_accel_y_raw", raw_text(0), "in_accel_z_raw", raw_text(512), "sampling_frequency", "%d\n" % rate,
        "sampling_frequency_available", "%d\n" % rate, "in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1\n",
    ]
    if buffered:
        attributes += ["dev", "241:%d\n" % (0 if name.startswith("shakyd") else 1), "buffer/enable", "0\n",
                       "buffer/length", "2\n", "buffer/watermark", "1\n", "trigger/current_trigger", "\n"]
        for index, axis in enumerate("xyz"):
            attributes += ["scan_elements/in_accel_%s_en" % axis, "0\n",
                           "scan_elements/in_accel_%s_index" % axis, "%d\n" % index,
                           "scan_elements/in_accel_%s_type" % axis, "le:s16/16>>0\n"]
        attributes += ["scan_elements/in_timestamp_en", "0\n", "scan_elements/in_timestamp_index", "3\n",
                       "scan_elements/in_timestamp_type", "le:s64/64>>0\n"]
    return attributes


def raw_text(value):
    """A raw attribute's text, padded to one width so that a value is written over the last one in place (no
    truncation, so no reader sees a file shorter or longer than a value)."""
    return ("%d" % value).ljust(7) + "\n"


def add_iio_device(testbed, name, index, buffered, rate, properties):
    """Adds an IIO accelerometer (with a /dev node and a data-ready trigger when buffered); returns its path."""
    attributes = iio_attributes(name, buffered, rate)
    lines = ["P: /devices/platform/%s/iio:device%d" % (name, index), "E: SUBSYSTEM=iio"]
    if buffered:
        lines += ["N: iio:device%d" % index, "E: DEVNAME=/dev/iio:device%d" % index, "E: MAJOR=241",
                  "E: MINOR=%d" % index]
    lines += ["E: %s=%s" % pair for pair in zip(properties[::2], properties[1::2])]
    lines += ["A: %s=%s" % (key, value.replace("\n", "\\n")) for key, value in zip(attributes[::2], attributes[1::2])]
    if buffered:
        lines += ["", "P: /devices/platform/%s/trigger%d" % (name, index), "E: SUBSYSTEM=iio",
                  "A: name=%s-dev%d\\n" % (name, index)]
    testbed.add_from_string("\n".join(lines) + "\n")
    return "/sys/devices/platform/%s/iio:device%d" % (name, index)


EVDEV_MINOR = {"shakyd": 85, "proxy": 86, "floor": 87}


def add_evdev_device(testbed, who, directory, proxy):
    """Adds an evdev accelerometer (ABS_X/Y/Z; 256, 256 and 512 per g) answering the fixture's ioctls; returns its
    node."""
    number = 21 + list(EVDEV_MINOR).index(who)
    node = "/dev/input/event%d" % number
    properties = ["E: IIO_SENSOR_PROXY_TYPE=input-accel"] if proxy else []
    description = "\n".join([
        "P: /devices/virtual/input/input%d/event%d" % (number, number), "N: input/event%d" % number,
        "E: DEVNAME=%s" % node, "E: MAJOR=13", "E: MINOR=%d" % EVDEV_MINOR[who], "E: SUBSYSTEM=input",
        "E: ID_INPUT=1", "E: ID_INPUT_ACCELEROMETER=1"] + properties + ["A: dev=13:%d\\n" % EVDEV_MINOR[who], "",
        "P: /devices/virtual/input/input%d" % number, "E: SUBSYSTEM=input", "E: PRODUCT=19/0/0/0",
        'E: NAME="Bench %s accelerometer"' % who, "E: PROP=40", "E: EV=9", "E: ABS=7", "E: ID_INPUT=1",
        "E: ID_INPUT_ACCELEROMETER=1", "A: name=Bench %s accelerometer\\n" % who, "A: properties=40\\n",
        "A: capabilities/ev=9\\n", "A: capabilities/abs=7\\n", "A: capabilities/key=0\\n",
        "A: capabilities/rel=0\\n", "A: id/bustype=0019\\n", "A: id/vendor=0000\\n", "A: id/product=0000\\n",
        "A: id/version=0000\\n"]) + "\n"
    testbed.add_from_string(description)
    with open(os.path.join(FIXTURES, "input-accel.ioctl")) as fixture:
        ioctls = fixture.read().replace("/dev/input/event21", node)
    ioctl_file = os.path.join(directory, "event%d.ioctl" % number)
    with open(ioctl_file, "w") as file:
        file.write(ioctls)
    testbed.load_ioctl(node, ioctl_file)
    return node


INPUT_EVENT = struct.Struct("=qqHHi")
# The fixture's absinfo resolutions (units per g) of ABS_X, ABS_Y and ABS_Z; the IIO stream's raw values are 512 per g.
EVDEV_UNITS_PER_G = (256, 256, 512)


def evdev_values(x, y, z):
    """The IIO stream's raw values (512 per g) in the emulated evdev device's units."""
    return tuple(value * units // 512 for value, units in zip((x, y, z), EVDEV_UNITS_PER_G))


def report_bytes(x, y, z, nanoseconds):
    """One evdev report: ABS_X, ABS_Y, ABS_Z and SYN_REPORT, stamped like the kernel stamps them."""
    seconds, microseconds = nanoseconds // 1_000_000_000, nanoseconds // 1000 % 1_000_000
    events = [(3, 0, x), (3, 1, y), (3, 2, z), (0, 0, 0)]
    return b"".join(INPUT_EVENT.pack(seconds, microseconds, kind, code, value) for kind, code, value in events)


def scan_bytes(x, y, z, nanoseconds):
    return struct.pack("<hhhxxq", x, y, z, nanoseconds)


def raw_at(index, rate):
    """The shared stream: at rest with noise, with a 2 s shake along x every 10 s."""
    seconds = index / rate
    noise = (index * 7919) % 11 - 5
    if seconds % 10 < 2:
        stroke = 900 if int(seconds * 8) % 2 == 0 else -900
        return stroke + noise, noise, 512 + noise
    return noise, noise, 512 + noise


class Feeder(threading.Thread):
    """Writes the stream into both devices at `rate`: scans into shakyd's buffer node and the proxy's data
    file, or raw attributes for polled devices."""

    def __init__(self, testbed, mode, rate, shakyd_sys, proxy_sys, root, evdev_nodes=()):
        super().__init__(daemon=True)
        self.testbed, self.mode, self.rate = testbed, mode, rate
        self.shakyd_sys, self.proxy_sys, self.root = shakyd_sys, proxy_sys, root
        self.stopped = threading.Event()
        self.node = testbed.get_dev_fd("/dev/iio:device0") if mode == "iio-buffer" else None
        if self.node is not None:
            os.set_blocking(self.node, False)
        # Polled: each raw attribute kept open and written in place, as the kernel's attribute stays one file.
        self.attributes = []
        if mode == "iio-poll":
            for path in (shakyd_sys, proxy_sys):
                self.attributes.append([
                    os.open(os.path.join(root, path.lstrip("/"), "in_accel_%s_raw" % axis), os.O_WRONLY)
                    for axis in "xyz"])
        # evdev: the pseudo-terminal masters of shakyd's node and of the floor reader's node.
        self.masters = [testbed.get_dev_fd(node) for node in evdev_nodes]
        # Non-blocking: a reader that stops (the round closed) fills the terminal's buffer, and a blocked write would
        # keep this thread from ever seeing `stopped`; a write that does not fit is dropped and counted instead.
        for master in self.masters:
            os.set_blocking(master, False)
        self.dropped = 0
        # Scans or reports that reached shakyd's node whole.
        self.written = 0
        # When each sample of the stream was written (CLOCK_MONOTONIC seconds), by index, and the time stamped on it
        # (buffered scans and evdev reports carry the time they are written, as a kernel stamps them).
        self.times = []
        self.stamps = []

    def run(self):
        start = time.monotonic()
        index = 0
        data_file = os.path.join(self.root, "iio-dev-data.bin")
        while not self.stopped.is_set():
            x, y, z = raw_at(index, self.rate)
            stamp = time.monotonic_ns()
            if self.mode == "iio-buffer":
                scan = scan_bytes(x, y, z, stamp)
                try:
                    if os.write(self.node, scan) == len(scan):
                        self.written += 1
                except BlockingIOError:
                    self.dropped += 1
                with open(data_file + ".new", "wb") as data:
                    data.write(scan)
                os.replace(data_file + ".new", data_file)
            elif self.mode == "iio-poll":
                for descriptors in self.attributes:
                    for descriptor, value in zip(descriptors, (x, y, z)):
                        os.pwrite(descriptor, raw_text(value).encode(), 0)
            elif self.mode == "evdev":
                report = report_bytes(*evdev_values(x, y, z), stamp)
                for number, master in enumerate(self.masters):
                    try:
                        if os.write(master, report) == len(report):
                            self.written += number == 0
                        else:
                            self.dropped += 1
                    except BlockingIOError:
                        self.dropped += 1
            self.times.append(time.monotonic())
            self.stamps.append(stamp / 1e9)
            index += 1
            delay = start + index / self.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        for descriptors in self.attributes:
            for descriptor in descriptors:
                os.close(descriptor)


def shake_completions(shakyd, feeder, directory, since):
    """When the samples that complete a shake were written (CLOCK_MONOTONIC seconds), from `since` on: the stream
    fed so far, as shakyd converts it (the devices' scales) and with the times stamped on it (a stalled feeder
    writes late samples close together, and shakyd's detector sees them so), replayed through `shakyd detect` with
    the preset `serve` uses. Polled values carry no time: shakyd reads them every period. A polled value is gone
    once the next is written, so shakyd, which reads only while a round is open, never saw the values written
    before `since`: the replay starts there too (else a shake under way when the round opened completes earlier in
    the replay, by the motion shakyd could not see, and its hint looks 100 ms late)."""
    count = len(feeder.times)
    first = 0
    if feeder.mode not in ("iio-buffer", "evdev"):
        first = next((index for index in range(count) if feeder.times[index] >= since), count)
    trace = os.path.join(directory, "fed.csv")
    with open(trace, "w") as file:
        file.write("t,x,y,z\n")
        for index in range(first, count):
            x, y, z = raw_at(index, feeder.rate)
            if feeder.mode == "evdev":
                values = [value / units * 9.80665 for value, units in zip(evdev_values(x, y, z), EVDEV_UNITS_PER_G)]
            else:
                values = [value * 0.019153 for value in (x, y, z)]
            stamped = feeder.mode in ("iio-buffer", "evdev")
            file.write("%r,%r,%r,%r\n" % (feeder.stamps[index] if stamped else index / feeder.rate, *values))
    output = subprocess.run([shakyd, "detect", "--sensitivity", "medium", trace], capture_output=True, text=True,
                            check=True).stdout
    completions = []
    for line in output.splitlines()[1:]:
        moment = float(line.split(",")[1])
        if feeder.mode in ("iio-buffer", "evdev"):
            index = min(range(count), key=lambda candidate: abs(feeder.stamps[candidate] - moment))
        else:
            index = round(moment * feeder.rate)
        if 0 <= index < count and feeder.times[index] >= since:
            completions.append(feeder.times[index])
    return completions


def shake_latencies(completions, hints):
    """For each hint a watcher heard, seconds since the latest shake completed before it (within a second)."""
    latencies = []
    for heard in hints:
        before = [written for written in completions if written <= heard]
        if before and heard - before[-1] < 1:
            latencies.append(heard - before[-1])
    return latencies


# --- measuring a process ----------------------------------------------------------------------------------------

def snapshot(pid):
    """CPU (per thread, from schedstat), voluntary context switches (per thread), read syscalls, peak RSS."""
    reads = 0
    with open("/proc/%d/io" % pid) as io:
        for line in io:
            if line.startswith("syscr"):
                reads = int(line.split()[1])
    peak = 0
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM"):
                peak = int(line.split()[1]) * 1024
    return {"threads": threads(pid), "reads": reads, "peak": peak}


def threads(pid):
    """Per thread of `pid`: name -> (CPU ns, voluntary context switches)."""
    result = {}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as comm:
                name = "%s/%s" % (comm.read().strip(), task)
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as stat:
                cpu = int(stat.read().split()[0])
            with open("/proc/%d/task/%s/status" % (pid, task)) as status:
                switches = [int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches")][0]
            result[name] = (cpu, switches)
        except (FileNotFoundError, IndexError):
            pass
    return result


def delta(before, after, seconds):
    """The window's figures. Threads are matched by id, so a thread that ends or starts in the window counts only
    for the part of it that /proc still shows (a thread that ended is lost; few do while reading)."""
    cpu = 0
    wakeups = 0
    for name, (cpu_after, switches_after) in after["threads"].items():
        cpu_before, switches_before = before["threads"].get(name, (0, 0))
        cpu += cpu_after - cpu_before
        wakeups += switches_after - switches_before
    return {"cpu": cpu / 1e6, "wakeups": wakeups / seconds, "reads": after["reads"] - before["reads"],
            "peak": after["peak"] / 1048576}


def start_strace(pid, directory, name):
    """strace -c on every thread of `pid` until stop_strace; its summary goes to a file."""
    output = os.path.join(directory, "strace-%s.txt" % name)
    tracer = subprocess.Popen(["strace", "-f", "-c", "-qq", "-U", "calls,errors,name", "-o", output, "-p", str(pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return tracer, output, time.monotonic()


def stop_strace(tracer, output, started):
    """The system calls per second strace counted: name -> calls/s, and "total"."""
    tracer.send_signal(signal.SIGINT)
    tracer.wait(10)
    seconds = time.monotonic() - started
    counts = {}
    with open(output) as file:
        for line in file:
            fields = line.split()
            if fields and fields[0].isdigit():
                counts[fields[-1]] = int(fields[0]) / seconds
    return counts


# --- one run ----------------------------------------------------------------------------------------------------

def private_system_bus(directory):
    config = os.path.join(directory, "bus.conf")
    socket = os.path.join(directory, "system_bus_socket")
    with open(config, "w") as file:
        file.write("""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=%s</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>
<allow receive_sender="*"/></policy></busconfig>
""" % socket)
    bus = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork"])
    for _ in range(100):
        if os.path.exists(socket):
            break
        time.sleep(0.05)
    return bus, "unix:path=" + socket


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise RuntimeError("timed out waiting for " + what)


class Watchers(threading.Thread):
    """Game.Watch calls held on shakyd's socket, each read as its replies come (a watcher that stops reading is
    disconnected by shakyd)."""

    # Set from --ticking-watchers: whether the watchers ask for a tick each second.
    ticking = False

    def __init__(self, socket_path, count):
        super().__init__(daemon=True)
        import selectors
        import socket
        self.selector = selectors.DefaultSelector()
        self.sockets = []
        for _ in range(count):
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(socket_path)
            parameters = b'' if Watchers.ticking else b',"parameters":{"ticks":false}'
            connection.sendall(b'{"method":"io.shakywords.Game.Watch","more":true' + parameters + b'}\0')
            connection.setblocking(False)
            self.selector.register(connection, selectors.EVENT_READ)
            self.sockets.append(connection)
        self.stopped = threading.Event()
        self.received = 0
        # When the first watcher heard each hint event (CLOCK_MONOTONIC seconds).
        self.hints = []
        self.pending = b""

    def run(self):
        while not self.stopped.is_set():
            for key, _ in self.selector.select(0.2):
                heard = time.monotonic()
                try:
                    data = key.fileobj.recv(65536)
                except (BlockingIOError, ConnectionError):
                    continue
                if not data:
                    self.selector.unregister(key.fileobj)
                self.received += len(data)
                if key.fileobj is self.sockets[0]:
                    self.pending += data
                    *messages, self.pending = self.pending.split(b"\0")
                    for message in messages:
                        try:
                            event = json.loads(message).get("parameters", {}).get("event", {})
                        except ValueError:
                            continue
                        if event.get("kind") == "hint":
                            self.hints.append(heard)

    def close(self):
        self.stopped.set()
        self.join()
        for connection in self.sockets:
            connection.close()


# The party scenario's `shaky` commands, in order ({folder}: the run's temporary folder).
PARTY = [
    ["demo", "--replace"], ["history"], ["leaderboard"], ["pack", "list"],
    ["pack", "export", "Animals", "--format", "csv", "--output", "{folder}/animals.csv"],
    ["pack", "import", "{folder}/animals.csv", "--name", "Animals again"], ["pack", "create", "Mine"],
    ["pack", "add", "Mine", "--question", "Capital of France?", "--answer", "Paris", "--difficulty", "easy"],
    ["pack", "search", "élan"], ["settings"], ["sensor"], ["buzzers"],
    ["new", "--team", "Équipe", "--team", "B", "--replace"], ["next"], ["buzz", "équipe"], ["end"], ["history"],
]


def one_run(options, scenario):
    from gi.repository import UMockdev
    mode, _, rate_text = scenario.rpartition("-")
    rate = int(rate_text) if mode in ("iio-buffer", "iio-poll", "evdev") else 100
    if scenario in ("idle", "watchers-200", "party"):
        mode = "iio-buffer"
    buffered = mode == "iio-buffer"
    round_open = scenario != "idle"
    directory = tempfile.mkdtemp(prefix="shaky-bench-system-")
    testbed = UMockdev.Testbed.new()
    root = testbed.get_root_dir()
    shakyd_sys = proxy_sys = None
    evdev_nodes = {}
    if mode == "evdev":
        evdev_nodes = {who: add_evdev_device(testbed, who, directory, who == "proxy") for who in EVDEV_MINOR}
        shakyd_input = "evdev:" + evdev_nodes["shakyd"]
    else:
        shakyd_sys = add_iio_device(testbed, "shakyd-accel", 0, buffered, rate, [])
        proxy_sys = add_iio_device(testbed, "proxy-accel", 1, buffered, rate,
                                   ["IIO_SENSOR_PROXY_TYPE", "iio-buffer-accel" if buffered else "iio-poll-accel"])
        shakyd_input = "iio:shakyd-accel"
    environment = dict(os.environ, UMOCKDEV_DIR=root)
    processes = []
    feeder = None
    watchers = None
    try:
        bus, address = private_system_bus(directory)
        processes.append(bus)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        polkit = subprocess.Popen([sys.executable, "-m", "dbusmock", "--system", "--template", "polkitd"],
                                  env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(polkit)
        time.sleep(1)
        subprocess.run(["gdbus", "call", "--system", "--dest", "org.freedesktop.PolicyKit1", "--object-path",
                        "/org/freedesktop/PolicyKit1/Authority", "--method",
                        "org.freedesktop.DBus.Mock.SetAllowed", "['net.hadess.SensorProxy.claim-sensor']"],
                       env=environment, stdout=subprocess.DEVNULL, check=False)
        floor = None
        if mode == "evdev":
            # The floor: the least a reader of an emulated node does per report, umockdev's part of shakyd's cost.
            floor = subprocess.Popen(["cat", evdev_nodes["floor"]], env=environment, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            processes.append(floor)
        else:
            feeder = Feeder(testbed, mode, rate, shakyd_sys, proxy_sys, root)
            feeder.start()
        if not options.warm:
            drop_from_page_cache([options.shakyd, PROXY])
        sleeper = None
        if scenario not in ("watchers-200", "party"):
            # The wake-up floor: a process that only sleeps on a timer and wakes, what any reader that wakes as often
            # pays this machine however little it does.
            sleeper = subprocess.Popen([options.wake_floor, str(options.floor_period)], env=environment)
            processes.append(sleeper)
        proxy = subprocess.Popen([PROXY], env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        processes.append(proxy)
        if round_open:
            monitor = subprocess.Popen(["/usr/bin/monitor-sensor", "--accel"], env=environment,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(monitor)
        socket = os.path.join(directory, "shaky.sock")
        shakyd = subprocess.Popen(
            [options.shakyd, "serve", "--socket", socket, "--state-dir", directory, "--input", shakyd_input,
             "--log-level", "warning", "--sound-device", "none"],
            env=environment, stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "shakyd.log"), "w"))
        processes.append(shakyd)
        wait_for(lambda: listening(socket), 20, "shakyd's socket")
        if round_open:
            client = dict(environment, SHAKY_SOCKET=socket)
            for command in (["new", "--team", "A", "--team", "B"], ["next"]):
                subprocess.run([options.shaky] + command, env=client, check=True, stdout=subprocess.DEVNULL)
            if options.watchers and scenario != "watchers-200":
                watchers = Watchers(socket, options.watchers)
                watchers.start()
        # Samples written before the round opened wait in the node until shakyd reads: their shakes say nothing of
        # the reading path's latency.
        round_opened = time.monotonic()
        if mode == "evdev":
            # A kernel's evdev node delivers only events after it is opened: feed once shakyd reads (a round is
            # open), so that no report waits in the pseudo-terminal from before.
            time.sleep(0.5)
            feeder = Feeder(testbed, mode, rate, None, None, root, [evdev_nodes["shakyd"], evdev_nodes["floor"]])
            feeder.start()
        time.sleep(options.settle)
        if scenario == "party":
            client = dict(environment, SHAKY_SOCKET=socket)
            for command in PARTY:
                done = subprocess.run([options.shaky] + [part.format(folder=directory) for part in command],
                                      env=client, capture_output=True, text=True, timeout=300)
                if done.returncode != 0:
                    raise RuntimeError("shaky %s failed: %s" % (" ".join(command), done.stderr.strip()))
            return {who: {"peak": snapshot(process.pid)["peak"] / 1048576}
                    for who, process in (("shakyd", shakyd), ("proxy", proxy))}
        if scenario == "watchers-200":
            # Two bursts: what the first leaves is split into anonymous memory (heap, stacks) and pages of files
            # (code that first ran in the burst, clean and shared); the second shows whether it keeps growing.
            parts = [resident_parts(shakyd.pid)]
            during_rss = 0
            for _ in range(2):
                crowd = Watchers(socket, 200)
                crowd.start()
                time.sleep(2)
                during_rss = max(during_rss, resident(shakyd.pid))
                crowd.close()
                time.sleep(2)
                parts.append(resident_parts(shakyd.pid))
            before, first, second = parts
            return {"shakyd": {
                "before": before["VmRSS"], "during": during_rss, "after": first["VmRSS"],
                "anonymous": first["RssAnon"] - before["RssAnon"], "file": first["RssFile"] - before["RssFile"],
                "second": second["VmRSS"] - first["VmRSS"]}}
        pids = {"shakyd": shakyd.pid, "proxy": proxy.pid}
        if floor:
            pids["floor"] = floor.pid
        if sleeper:
            pids["sleeper"] = sleeper.pid
        tracers = {name: start_strace(pid, directory, name) for name, pid in pids.items()
                   if name != "sleeper"} if options.strace else {}
        if tracers:
            time.sleep(1)  # strace attaches to every thread
        before = {name: snapshot(pid) for name, pid in pids.items()}
        threads_before = before["shakyd"]["threads"]
        time.sleep(options.seconds)
        after = {name: snapshot(pid) for name, pid in pids.items()}
        syscalls = {name: stop_strace(*tracer) for name, tracer in tracers.items()}
        for name, counts in syscalls.items():
            top = sorted(((calls, call) for call, calls in counts.items() if call != "total"), reverse=True)[:8]
            print("    %-7s system calls/s (strace): %.1f in all; %s" % (
                name, counts.get("total", 0), ", ".join("%s %.1f" % (call, calls) for calls, call in top)), flush=True)
        if options.threads:
            for name, (cpu, switches) in sorted(after["shakyd"]["threads"].items()):
                cpu0, switches0 = threads_before.get(name, (0, 0))
                print("    %-24s %8.2f ms CPU %7.1f wake-ups/s" % (
                    name, (cpu - cpu0) / 1e6, (switches - switches0) / options.seconds))
        if feeder and feeder.dropped:
            print("    the feeder found a node full %d times" % feeder.dropped)
        result = {name: delta(before[name], after[name], options.seconds) for name in before}
        if watchers and feeder:
            result["shakyd"]["latencies"] = shake_latencies(
                shake_completions(options.shakyd, feeder, directory, round_opened), watchers.hints)
        return result
    finally:
        if watchers:
            watchers.close()
        if feeder:
            feeder.stopped.set()
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(directory, ignore_errors=True)


def summary(values):
    return statistics.median(values), min(values), max(values)


def main():
    options = arguments()
    Watchers.ticking = options.ticking_watchers
    options.shaky = options.shaky or os.path.join(os.path.dirname(options.shakyd), "shaky")
    build = tempfile.mkdtemp(prefix="shaky-bench-system-build-")
    atexit.register(shutil.rmtree, build, True)
    options.wake_floor = os.path.join(build, "wake-floor")
    subprocess.run(["cc", "-O2", "-o", options.wake_floor,
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "wake-floor.c")], check=True)
    gi_path = "gi.repository"
    import gi
    gi.require_version("UMockdev", "1.0")
    __import__(gi_path)
    print("shakyd vs iio-sensor-proxy: median of %d runs [min–max], %.0f s windows; the daemons' executables %s; "
          "the disk's read-ahead %s KiB" % (
              options.runs, options.seconds, "cached" if options.warm else "read from the disk at each start",
              read_ahead_kib(options.shakyd)))
    print("%-15s %-26s %-26s %-9s %-22s %-22s %-14s" % (
        "scenario", "CPU ms shakyd", "CPU ms proxy", "ratio", "wake-ups/s shakyd", "wake-ups/s proxy",
        "peak RSS MiB (ratio)"))
    for scenario in options.only or SCENARIOS:
        runs = [one_run(options, scenario) for _ in range(options.runs)]
        if scenario == "watchers-200":
            figures = {key: summary([run["shakyd"][key] for run in runs]) for key in ("before", "during", "after")}
            print("%-15s shakyd RSS MiB: %.1f before, %.1f with 200 watchers, %.1f after they hang up "
                  "(kept: %.1f [%.1f–%.1f])" % (
                      scenario, figures["before"][0], figures["during"][0], figures["after"][0],
                      *summary([run["shakyd"]["after"] - run["shakyd"]["before"] for run in runs])), flush=True)
            anonymous, file, second = (summary([run["shakyd"][key] for run in runs])
                                       for key in ("anonymous", "file", "second"))
            print("                of what the first burst kept: anonymous %.1f [%.1f–%.1f], file pages %.1f "
                  "[%.1f–%.1f]; a second burst of 200 added %.1f [%.1f–%.1f]" % (
                      *anonymous, *file, *second), flush=True)
            continue
        if scenario == "party":
            shakyd_peak, proxy_peak = (summary([run[who]["peak"] for run in runs]) for who in ("shakyd", "proxy"))
            print("%-15s peak RSS MiB after a party's calls: shakyd %.1f [%.1f–%.1f], proxy %.1f (%.2f×)" % (
                scenario, *shakyd_peak, proxy_peak[0], shakyd_peak[0] / max(proxy_peak[0], 1e-3)), flush=True)
            continue
        row = {}
        for who in ("shakyd", "proxy"):
            for key in ("cpu", "wakeups", "reads", "peak"):
                row[who, key] = summary([run[who][key] for run in runs])
        ratios = summary([run["shakyd"]["cpu"] / max(run["proxy"]["cpu"], 1e-3) for run in runs])
        memory = summary([run["shakyd"]["peak"] / max(run["proxy"]["peak"], 1e-3) for run in runs])
        print("%-15s %-26s %-26s %-9s %-22s %-22s %.1f vs %.1f (%.2f×)" % (
            scenario, "%.1f [%.1f–%.1f]" % row["shakyd", "cpu"], "%.1f [%.1f–%.1f]" % row["proxy", "cpu"],
            "%.2f×" % ratios[0], "%.1f [%.1f–%.1f]" % row["shakyd", "wakeups"],
            "%.1f [%.1f–%.1f]" % row["proxy", "wakeups"], row["shakyd", "peak"][0], row["proxy", "peak"][0],
            memory[0]))
        print("%-15s reads in the window: shakyd %d, proxy %d (median)" % (
            "", row["shakyd", "reads"][0], row["proxy", "reads"][0]), flush=True)
        latencies = sorted(latency * 1000 for run in runs for latency in run["shakyd"].get("latencies", []))
        if latencies:
            print("%-15s shake → hint at a watcher, after the sample that completed it was written: median %.1f ms, "
                  "max %.1f ms (%d hints)" % ("", statistics.median(latencies), latencies[-1], len(latencies)),
                  flush=True)
        if "sleeper" in runs[0]:
            # What one wake-up costs this machine with no work done, and shakyd's wake-ups at that cost: the part of
            # its CPU that no reader waking as often could avoid.
            per_wakeup = [run["sleeper"]["cpu"] / max(run["sleeper"]["wakeups"] * options.seconds, 1) for run in runs]
            shakyd_floor = [run["shakyd"]["wakeups"] * options.seconds * cost for run, cost in zip(runs, per_wakeup)]
            print("%-15s the wake-up floor (wake-floor.c, every %d ms): %.2f ms CPU, %.1f wake-ups/s, %.0f µs a "
                  "wake-up [%.0f–%.0f]; shakyd's wake-ups at that cost: %.1f [%.1f–%.1f] ms (%.2f× the proxy's whole "
                  "CPU)" % ("", options.floor_period, summary([run["sleeper"]["cpu"] for run in runs])[0],
                            summary([run["sleeper"]["wakeups"] for run in runs])[0],
                            *(value * 1000 for value in summary(per_wakeup)), *summary(shakyd_floor),
                            summary([floor / max(run["proxy"]["cpu"], 1e-3)
                                     for run, floor in zip(runs, shakyd_floor)])[0]), flush=True)
        if "floor" in runs[0]:
            # umockdev's cost per read of an emulated node: the floor's CPU over the reports it read (a read, a
            # write to /dev/null and umockdev's round trip each). shakyd's net: its CPU less that cost for each of
            # its reads (on the node, mostly: its other reads are a few eventfd and socket ones).
            per_read = [run["floor"]["cpu"] / max(run["floor"]["reads"], 1) for run in runs]
            net_cpu = summary([run["shakyd"]["cpu"] - run["shakyd"]["reads"] * cost
                               for run, cost in zip(runs, per_read)])
            net_ratio = summary([(run["shakyd"]["cpu"] - run["shakyd"]["reads"] * cost)
                                 / max(run["proxy"]["cpu"], 1e-3) for run, cost in zip(runs, per_read)])
            print("%-15s umockdev's floor (cat of a third node): %.1f ms CPU, %.1f wake-ups/s, %d reads: %.3f ms a "
                  "read; shakyd less that for each of its reads: %.1f [%.1f–%.1f] ms (%.2f× the proxy's whole CPU)"
                  % ("", summary([run["floor"]["cpu"] for run in runs])[0],
                     summary([run["floor"]["wakeups"] for run in runs])[0],
                     summary([run["floor"]["reads"] for run in runs])[0], summary(per_read)[0], *net_cpu,
                     net_ratio[0]), flush=True)

if __name__ == "__main__":
    if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
        ensure_packages()
        ensure_install_users()
        os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)
    main()
