#!/usr/bin/python3
"""Instructions per sample, counted by valgrind's callgrind (noise-free, unlike CPU time on a shared machine).

Two figures:
- the reading path: `shakyd serve` runs under callgrind in a umockdev testbed on an emulated buffered IIO
  accelerometer (the one bench-system.py uses), with a round open; the stream is stopped before shakyd is, so
  shakyd reads exactly the scans fed. Only the reader thread's loop is
  counted (callgrind's --toggle-collect on IIOBufferedReading.run itself, not its protocol witness, which would
  toggle collection off again on the way in: waiting, refills, decoding, pacing and the shake detector, and the
  hand-over of a shake to Swift concurrency), divided by the scans fed.
- trace parsing: `shakyd detect` over a generated trace of --samples samples, as `shakyd record` writes them
  (shortest exact forms), with only TraceReader.next counted (reading and parsing), divided by the samples; and
  the whole run (parsing and detection) less a 10-sample run, divided by the difference.

Needs a release shakyd with symbols (.build/release/shakyd, not the stripped installed one); it runs a copy
without the DWARF debug information, which valgrind 3.19 cannot read. Run by
`make bench-callgrind`; installs valgrind and umockdev when missing (as bench-system.py does its packages).
"""
import argparse
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = ["valgrind", "umockdev", "python3-gi", "gir1.2-umockdev-1.0"]


def bench_system():
    """bench-system.py as a module: its emulated devices and stream."""
    spec = importlib.util.spec_from_file_location("bench_system", os.path.join(HERE, "bench-system.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shakyd", required=True, help="a release shakyd with symbols")
    parser.add_argument("--shaky", help="the shaky client (default: beside shakyd)")
    parser.add_argument("--seconds", type=float, default=10, help="how long the stream is fed to the reader")
    parser.add_argument("--rate", type=int, default=100)
    parser.add_argument("--samples", type=int, default=200_000, help="samples in the trace-parsing run")
    parser.add_argument("--only", choices=["reader", "trace"], help="measure only one of the two")
    parser.add_argument("--log-level", default="info", help="shakyd's log level in the reader run")
    return parser.parse_args()


def callgrind(output, toggle=None):
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + output]
    if toggle:
        command.append("--toggle-collect=" + toggle)
    return command


def instructions(output):
    """The instructions callgrind counted (its `summary:`/`totals:` line)."""
    with open(output) as file:
        for line in file:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("no totals in " + output)


def reading_path(options, directory):
    from gi.repository import UMockdev
    system = bench_system()
    testbed = UMockdev.Testbed.new()
    root = testbed.get_root_dir()
    system.add_iio_device(testbed, "shakyd-accel", 0, True, options.rate, [])
    environment = dict(os.environ, UMOCKDEV_DIR=root)
    socket = os.path.join(directory, "shaky.sock")
    output = os.path.join(directory, "reader.callgrind")
    shakyd = subprocess.Popen(
        callgrind(output, "*IIOBufferedReadingC3run*ReaderSessionCKF") +
        [options.shakyd, "serve", "--socket", socket, "--state-dir", directory, "--input", "iio:shakyd-accel",
         "--log-level", options.log_level, "--sound-device", "none"],
        env=environment, stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "shakyd.log"), "w"))
    feeder = None
    try:
        system.wait_for(lambda: system.listening(socket), 300, "shakyd's socket (under valgrind)")
        # Fed from before the round opens: a buffer silent for a second after it is enabled counts as unwired.
        # Every scan written whole is read by shakyd's buffered reader in the end (those written before it opens
        # the node wait in the node), so the count is exact whichever comes first.
        feeder = system.Feeder(testbed, "iio-buffer", options.rate, None, None, root)
        feeder.start()
        client = dict(environment, SHAKY_SOCKET=socket)
        for command in (["new", "--team", "A", "--team", "B"], ["next"]):
            subprocess.run([options.shaky] + command, env=client, check=True, stdout=subprocess.DEVNULL,
                           timeout=300)
        time.sleep(options.seconds)
        feeder.stopped.set()
        feeder.join()
        time.sleep(2)
    finally:
        if feeder:
            feeder.stopped.set()
        shakyd.terminate()
        shakyd.wait(120)
    scans = feeder.written if feeder else 0
    if not scans:
        raise RuntimeError("no scans were fed")
    total = instructions(output)
    if total < 100 * scans:
        with open(os.path.join(directory, "shakyd.log")) as log:
            tail = log.read()[-2000:]
        raise RuntimeError("the reader's loop ran %d instructions for %d scans: shakyd did not read the buffer in "
                           "it (under valgrind it may have fallen back to another reading); its log:\n%s" % (
                               total, scans, tail))
    print("reading path (IIO buffered, %d Hz, %d scans): %d instructions per sample (%d in the reader's loop)" % (
        options.rate, scans, round(total / scans), total), flush=True)


def write_trace(path, count, rate=100):
    """A trace as `shakyd record` writes one: t,x,y,z in shortest exact forms, at rest with shakes."""
    generator = random.Random(17)
    with open(path, "w") as file:
        file.write("# device: generated\n# rate: %d\nt,x,y,z\n" % rate)
        lines = []
        start = 12_345.678_901
        scale = 0.019153
        for index in range(count):
            seconds = index / rate
            noise = generator.randint(-5, 5)
            stroke = (900 if int(seconds * 8) % 2 == 0 else -900) if seconds % 10 < 2 else 0
            lines.append("%r,%r,%r,%r\n" % (start + seconds, (stroke + noise) * scale, noise * scale,
                                            (512 + noise) * scale))
            if len(lines) >= 10_000:
                file.writelines(lines)
                lines = []
        file.writelines(lines)


def trace_parsing(options, directory):
    large = os.path.join(directory, "large.csv")
    small = os.path.join(directory, "small.csv")
    write_trace(large, options.samples)
    write_trace(small, 10)
    figures = {}
    for name, path in (("large", large), ("small", small)):
        whole = os.path.join(directory, name + ".callgrind")
        subprocess.run(callgrind(whole) + [options.shakyd, "detect", path], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        figures[name] = instructions(whole)
    parsing = os.path.join(directory, "parsing.callgrind")
    subprocess.run(callgrind(parsing, "*TraceReaderC4next*") + [options.shakyd, "detect", large], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    per_sample = (figures["large"] - figures["small"]) / (options.samples - 10)
    print("trace parsing (%d samples as shakyd record writes them): %d instructions per sample to read and parse; "
          "%d with detection (shakyd detect)" % (
              options.samples, round(instructions(parsing) / options.samples), round(per_sample)), flush=True)


def prepare(options, directory):
    """A copy of shakyd without its DWARF (valgrind 3.19 cannot read DWARF 5) but with its symbols, and a data
    folder for it (the packs and sounds of this checkout), since the copy is no longer beside them."""
    copy = os.path.join(directory, "shakyd")
    subprocess.run(["objcopy", "--strip-debug", options.shakyd, copy], check=True)
    data = os.path.join(directory, "data")
    os.mkdir(data)
    checkout = os.path.join(HERE, "..", "..")
    shutil.copytree(os.path.join(checkout, "Sources", "ShakyStore", "BuiltinPacks"), os.path.join(data, "packs"))
    shutil.copytree(os.path.join(checkout, "sounds"), os.path.join(data, "sounds"))
    os.environ["SHAKY_DATA_DIR"] = data
    options.shakyd = copy


def main():
    options = arguments()
    options.shaky = options.shaky or os.path.join(os.path.dirname(options.shakyd), "shaky")
    import gi
    gi.require_version("UMockdev", "1.0")
    directory = tempfile.mkdtemp(prefix="shaky-bench-callgrind-")
    try:
        prepare(options, directory)
        if options.only in (None, "trace"):
            trace_parsing(options, directory)
        if options.only in (None, "reader"):
            reading_path(options, directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
        bench_system().ensure_packages(PACKAGES)
        os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)
    main()
