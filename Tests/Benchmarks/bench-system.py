#!/usr/bin/python3
"""shakyd against iio-sensor-proxy, side by side in one umockdev testbed.

Each scenario emulates two identical accelerometers fed the same stream (one per reader: a real IIO buffer
is single-open), starts iio-sensor-proxy on a private system bus with a client claiming the accelerometer
(monitor-sensor), starts shakyd with a round open (so it reads every sample), lets both settle, then
measures a window: CPU (/proc/PID/task/*/schedstat), wake-ups (voluntary_ctxt_switches), read syscalls
(/proc/PID/io syscr) and peak RSS (VmHWM). Prints the median of --runs runs with min and max, and the ratios.

Run by `make bench-system`; needs root for apt-get when packages are missing. Uses Debian's python3 (GI).
"""
import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

PACKAGES = ["iio-sensor-proxy", "dbus", "umockdev", "python3-gi", "gir1.2-umockdev-1.0", "python3-dbusmock"]
SCENARIOS = ["iio-buffer-50", "iio-buffer-100", "iio-poll-100", "idle"]


def ensure_packages():
    missing = [p for p in PACKAGES
               if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                 text=True).stdout != "install ok installed"]
    if missing:
        print("installing: " + " ".join(missing), flush=True)
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + missing, check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shakyd", required=True, help="the shakyd binary to measure")
    parser.add_argument("--shaky", help="the shaky client (default: beside shakyd)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20, help="the measured window")
    parser.add_argument("--settle", type=float, default=3, help="seconds after start-up before measuring")
    parser.add_argument("--threads", action="store_true", help="also print shakyd's threads: CPU and wake-ups")
    parser.add_argument("--only", action="append", choices=SCENARIOS, help="run only these scenarios")
    return parser.parse_args()


# --- the emulated devices -------------------------------------------------------------------------------------

def iio_attributes(name, buffered, rate):
    attributes = [
        "name", name + "\n", "in_accel_scale", "0.019153\n", "in_accel_x_raw", "0\n", "in_accel_y_raw", "0\n",
        "in_accel_z_raw", "512\n", "sampling_frequency", "%d\n" % rate,
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

    def __init__(self, testbed, mode, rate, shakyd_sys, proxy_sys, root):
        super().__init__(daemon=True)
        self.testbed, self.mode, self.rate = testbed, mode, rate
        self.shakyd_sys, self.proxy_sys, self.root = shakyd_sys, proxy_sys, root
        self.stopped = threading.Event()
        self.node = testbed.get_dev_fd("/dev/iio:device0") if mode == "iio-buffer" else None

    def run(self):
        start = time.monotonic()
        index = 0
        data_file = os.path.join(self.root, "iio-dev-data.bin")
        while not self.stopped.is_set():
            x, y, z = raw_at(index, self.rate)
            if self.mode == "iio-buffer":
                scan = scan_bytes(x, y, z, time.monotonic_ns())
                try:
                    os.write(self.node, scan)
                except BlockingIOError:
                    pass
                with open(data_file + ".new", "wb") as data:
                    data.write(scan)
                os.replace(data_file + ".new", data_file)
            elif self.mode == "iio-poll":
                for path in (self.shakyd_sys, self.proxy_sys):
                    for axis, value in zip("xyz", (x, y, z)):
                        self.testbed.set_attribute(path, "in_accel_%s_raw" % axis, "%d\n" % value)
            index += 1
            delay = start + index / self.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)


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


def one_run(options, scenario):
    from gi.repository import UMockdev
    mode, _, rate_text = scenario.rpartition("-")
    rate = 100 if scenario == "idle" else int(rate_text)
    if scenario == "idle":
        mode = "iio-buffer"
    buffered = mode == "iio-buffer"
    directory = tempfile.mkdtemp(prefix="shaky-bench-system-")
    testbed = UMockdev.Testbed.new()
    root = testbed.get_root_dir()
    shakyd_sys = add_iio_device(testbed, "shakyd-accel", 0, buffered, rate, [])
    proxy_sys = add_iio_device(testbed, "proxy-accel", 1, buffered, rate,
                               ["IIO_SENSOR_PROXY_TYPE", "iio-buffer-accel" if buffered else "iio-poll-accel"])
    environment = dict(os.environ, UMOCKDEV_DIR=root)
    processes = []
    feeder = None
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
        feeder = Feeder(testbed, mode, rate, shakyd_sys, proxy_sys, root)
        feeder.start()
        proxy = subprocess.Popen(["/usr/sbin/iio-sensor-proxy"], env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        processes.append(proxy)
        if scenario != "idle":
            monitor = subprocess.Popen(["/usr/bin/monitor-sensor", "--accel"], env=environment,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(monitor)
        socket = os.path.join(directory, "shaky.sock")
        shakyd = subprocess.Popen(
            [options.shakyd, "serve", "--socket", socket, "--state-dir", directory, "--input", "iio:shakyd-accel",
             "--log-level", "warning", "--sound-device", "none"],
            env=environment, stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "shakyd.log"), "w"))
        processes.append(shakyd)
        wait_for(lambda: os.path.exists(socket), 20, "shakyd's socket")
        if scenario != "idle":
            client = dict(environment, SHAKY_SOCKET=socket)
            for command in (["new", "--team", "A", "--team", "B"], ["next"]):
                subprocess.run([options.shaky] + command, env=client, check=True, stdout=subprocess.DEVNULL)
        time.sleep(options.settle)
        before = {"shakyd": snapshot(shakyd.pid), "proxy": snapshot(proxy.pid)}
        threads_before = before["shakyd"]["threads"]
        time.sleep(options.seconds)
        after = {"shakyd": snapshot(shakyd.pid), "proxy": snapshot(proxy.pid)}
        if options.threads:
            for name, (cpu, switches) in sorted(after["shakyd"]["threads"].items()):
                cpu0, switches0 = threads_before.get(name, (0, 0))
                print("    %-24s %8.2f ms CPU %7.1f wake-ups/s" % (
                    name, (cpu - cpu0) / 1e6, (switches - switches0) / options.seconds))
        return {name: delta(before[name], after[name], options.seconds) for name in before}
    finally:
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
    options.shaky = options.shaky or os.path.join(os.path.dirname(options.shakyd), "shaky")
    gi_path = "gi.repository"
    import gi
    gi.require_version("UMockdev", "1.0")
    __import__(gi_path)
    print("shakyd vs iio-sensor-proxy: median of %d runs [min–max], %.0f s windows" % (options.runs, options.seconds))
    print("%-15s %-26s %-26s %-9s %-22s %-22s %-14s" % (
        "scenario", "CPU ms shakyd", "CPU ms proxy", "ratio", "wake-ups/s shakyd", "wake-ups/s proxy",
        "peak RSS MiB (ratio)"))
    for scenario in options.only or SCENARIOS:
        runs = [one_run(options, scenario) for _ in range(options.runs)]
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


if __name__ == "__main__":
    if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
        ensure_packages()
        os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)
    main()
