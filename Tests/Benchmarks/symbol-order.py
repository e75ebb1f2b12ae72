#!/usr/bin/python3
"""The functions shakyd runs, as a symbol ordering file for the release link (`make symbol-order`).

The kernel maps up to 64 KiB around every page fault in a file (fault-around), so code spread thinly across a
large binary costs many times what runs in resident memory. Linked in the order this file gives (lld's
--symbol-ordering-file; every Swift function, and the static Swift runtime's, is in a section of its own), the
functions that run share a few pages at the start of .text.

The profile is a realistic run of `shakyd serve` under valgrind's callgrind, in a umockdev testbed: start-up,
idle, a game with a round open on an emulated accelerometer (buffered IIO, then polled IIO, then evdev) with
watchers on the socket, shakes, hints, buzzes, answers, score changes, the status and the end of the game, the
host's tools between games (packs exported, imported, made and searched; settings, sensor, buttons), and a
shutdown. Every function callgrind saw run is written, hottest (by its own instruction count) first, as the
mangled names of the symbol table. A function missing from the file (renamed since, or not in the profile) is
only placed after the ordered ones: the file ages gracefully, and `make symbol-order` refreshes it.

The same runs are then made outside valgrind, at full speed, with `entry-breakpoints.c` preloaded: it records
each function of shakyd's symbol table the first time it is entered. What runs only with real timing (under
valgrind shakyd runs many times slower, so its timers, pacing and the watchers' streams can take other paths) is
written after the profile's functions, in the order it was first entered. Functions without a symbol (private
linkage) can be named by neither; release/private-functions-first.ld places them.

Needs a release shakyd with symbols (.build/release/shakyd) and the `shaky` client beside it.
"""
import argparse
import collections
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = ["valgrind", "umockdev", "python3-gi", "gir1.2-umockdev-1.0", "gcc"]


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shakyd", required=True, help="a release shakyd with symbols")
    parser.add_argument("--shaky", help="the shaky client (default: beside shakyd)")
    parser.add_argument("--output", required=True, help="the symbol ordering file to write")
    parser.add_argument("--seconds", type=float, default=12, help="how long each input is read with a round open")
    return parser.parse_args()


def game(options, environment, socket):
    """The host's side of a game: every call a party makes, refusals included (they run code too)."""
    client = dict(environment, SHAKY_SOCKET=socket)

    def shaky(*command):
        subprocess.run([options.shaky] + list(command), env=client, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300, check=False)

    shaky("status")
    shaky("new", "--team", "A", "--team", "B")
    shaky("next")
    shaky("status")
    shaky("hint")
    shaky("buzz", "A")
    shaky("answer", "A", "not", "it")
    shaky("buzz", "B")
    shaky("answer", "B", "wrong")
    shaky("score", "A", "+2", "--reason", "bonus")
    shaky("scoreboard")
    shaky("skip")
    shaky("next")
    return shaky


def host_tools(shaky, directory, mode):
    """What a host does between games: the packs (list, export, import, a new one, a question, a search), the
    settings, the sensor and the buttons."""
    exported = os.path.join(directory, "animals-%s.csv" % mode)
    shaky("pack", "list")
    shaky("pack", "export", "Animals", "--format", "csv", "--output", exported)
    shaky("pack", "import", exported, "--name", "Animals again")
    shaky("pack", "create", "Mine")
    shaky("pack", "add", "Mine", "--question", "Capital of France?", "--answer", "Paris", "--difficulty", "easy")
    shaky("pack", "search", "élan")
    shaky("settings")
    shaky("sensor")
    shaky("buzzers")


def under_callgrind(directory, mode):
    """The command prefix, environment and output file of a run under callgrind."""
    output = os.path.join(directory, mode + ".callgrind")
    return (["valgrind", "--tool=callgrind", "--callgrind-out-file=" + output, "--dump-instr=no",
             "--compress-strings=no", "--compress-pos=no", "--demangle=no"], {}, output)


def with_entry_breakpoints(directory, mode, options):
    """The command prefix, environment and output file of a run at full speed that records each function's first
    entry (entry-breakpoints.c, preloaded after umockdev's library)."""
    output = os.path.join(directory, mode + ".entries")
    preload = (os.environ.get("LD_PRELOAD", "") + " " + options.entry_library).strip()
    return ([], {"LD_PRELOAD": preload, "SHAKY_ENTRY_EXECUTABLE": options.shakyd,
                 "SHAKY_ENTRY_ADDRESSES": options.entry_addresses, "SHAKY_ENTRY_OUTPUT": output,
                 "SWIFT_BACKTRACE": "enable=no"}, output)


def serve(options, directory, system, mode, log, profiler):
    """`shakyd serve` on one emulated input, under `profiler` (a prefix, an environment and the file it writes): a
    game, watchers and shakes, then a shutdown."""
    from gi.repository import UMockdev
    testbed = UMockdev.Testbed.new()
    root = testbed.get_root_dir()
    rate = 100
    evdev_nodes = {}
    sys_path = None
    if mode == "evdev":
        evdev_nodes = {who: system.add_evdev_device(testbed, who, directory, who == "proxy")
                       for who in system.EVDEV_MINOR}
        source = "evdev:" + evdev_nodes["shakyd"]
    else:
        sys_path = system.add_iio_device(testbed, "shakyd-accel", 0, mode == "iio-buffer", rate, [])
        source = "iio:shakyd-accel"
    environment = dict(os.environ, UMOCKDEV_DIR=root)
    socket = os.path.join(directory, "shaky-%s.sock" % mode)
    state = os.path.join(directory, "state-" + mode)
    if os.path.exists(state):  # left by the mode's run under the other profiler
        shutil.rmtree(state)
    if os.path.exists(socket):
        os.unlink(socket)
    os.mkdir(state)
    prefix, profiler_environment, output = profiler
    shakyd = subprocess.Popen(
        prefix + [options.shakyd, "serve", "--socket", socket, "--state-dir", state, "--input", source,
                  "--log-level", "info", "--sound-device", "none"],
        env=dict(environment, **profiler_environment), stdout=subprocess.DEVNULL, stderr=log)
    feeder = watchers = None
    try:
        system.wait_for(lambda: system.listening(socket), 300, "shakyd's socket")
        if mode != "evdev":
            # The feeder writes a polled device's attributes for two readers: both are shakyd's here.
            feeder = system.Feeder(testbed, mode, rate, sys_path, sys_path, root)
            feeder.start()
        time.sleep(2)  # idle
        shaky = game(options, environment, socket)
        watchers = system.Watchers(socket, 10)
        watchers.start()
        if mode == "evdev":
            feeder = system.Feeder(testbed, mode, rate, None, None, root, [evdev_nodes["shakyd"]])
            feeder.start()
        time.sleep(options.seconds)  # shakes every 10 s
        shaky("hint")
        shaky("status")
        shaky("end")
        shaky("leaderboard")
        shaky("history")
        host_tools(shaky, directory, mode)
        time.sleep(1)
    finally:
        if watchers:
            watchers.close()
        if feeder:
            feeder.stopped.set()
            feeder.join()
        shakyd.terminate()
        shakyd.wait(300)
    return output


def executed(output, costs):
    """Adds each function's own instruction count in a callgrind file (uncompressed names) to `costs`."""
    function = None
    inclusive = False  # the cost line after `calls=` is a call's inclusive cost, not the caller's own
    with open(output) as file:
        for line in file:
            if line.startswith("fn="):
                function = line[3:].strip()
            elif line.startswith("calls="):
                inclusive = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if function and not inclusive:
                    parts = line.split()
                    if len(parts) >= 2:
                        costs[function] += int(parts[1])
                inclusive = False


def function_addresses(shakyd, path):
    """Writes the start of every function in shakyd's symbol table, one per line, ascending; returns the names at
    each address."""
    names = collections.defaultdict(list)
    listing = subprocess.run(["readelf", "-sW", shakyd], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[3] == "FUNC" and parts[6].isdigit() and int(parts[2]) > 0:
            names[int(parts[1], 16)].append(parts[7])
    with open(path, "w") as file:
        file.write("".join("%x\n" % address for address in sorted(names)))
    return names


def entered(output, names, first_entered):
    """Appends the functions an entry-breakpoints run recorded to `first_entered`, in the order they were first
    entered, each once."""
    if not os.path.exists(output):
        return
    with open(output, "rb") as file:
        data = file.read()
    for (address,) in struct.iter_unpack("<Q", data[:len(data) // 8 * 8]):
        for name in names.get(address, []):
            if name not in first_entered:
                first_entered[name] = len(first_entered)


def link_inputs(shakyd):
    """The objects and archives shakyd is linked from: this build's objects and the static Swift runtime's."""
    build = os.path.realpath(os.path.dirname(shakyd))
    objects = [os.path.join(root, name) for root, _, names in os.walk(build) if root.endswith(".build")
               for name in names if name.endswith(".o")]
    swiftc = shutil.which("swiftc")
    static = os.path.join(os.path.dirname(os.path.realpath(swiftc)), "..", "lib", "swift_static", "linux")
    return objects + [os.path.join(static, name) for name in sorted(os.listdir(static)) if name.endswith(".a")]


def shared_section_functions(inputs):
    """The functions that share their input section with others (code compiled without function sections, such as
    most of the static Swift runtime's): the linker can only move such a section whole."""
    shared = set()
    for path in inputs:
        listing = subprocess.run(["readelf", "-sW", path], capture_output=True).stdout.decode(errors="replace")
        per_section = collections.defaultdict(list)
        for line in listing.splitlines():
            if line.startswith("File: "):
                per_section = flush(per_section, shared)
                continue
            parts = line.split()
            if len(parts) >= 8 and parts[3] == "FUNC" and parts[6].isdigit():
                per_section[parts[6]].append(parts[7])
        flush(per_section, shared)
    return shared


def flush(per_section, shared):
    for names in per_section.values():
        if len(names) > 1:
            shared.update(names)
    return collections.defaultdict(list)


def ordered(costs, first_entered, defined, shared):
    """Functions in sections of their own first, so that they pack densely: the profile's, hottest first, then
    those seen only at full speed, in the order they were first entered; then the same for functions in shared
    sections, each of which brings its whole section along."""
    hottest = [name for name, _ in sorted(costs.items(), key=lambda item: (-item[1], item[0])) if name in defined]
    profiled = set(hottest)
    hottest += [name for name in sorted(first_entered, key=first_entered.get)
                if name in defined and name not in profiled]
    return [name for name in hottest if name not in shared] + [name for name in hottest if name in shared]


def main():
    options = arguments()
    options.shaky = options.shaky or os.path.join(os.path.dirname(options.shakyd), "shaky")
    import gi
    gi.require_version("UMockdev", "1.0")
    system = load("bench_system", "bench-system.py")
    callgrind = load("bench_callgrind", "bench-callgrind.py")
    options.original = options.shakyd
    directory = tempfile.mkdtemp(prefix="shaky-symbol-order-")
    try:
        callgrind.prepare(options, directory)
        defined = set(subprocess.run(["nm", "--defined-only", "--format=just-symbols", options.shakyd],
                                     capture_output=True, text=True, check=True).stdout.split())
        costs = collections.Counter()
        options.entry_library = os.path.join(directory, "entry-breakpoints.so")
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", options.entry_library,
                        os.path.join(HERE, "entry-breakpoints.c")], check=True)
        options.entry_addresses = os.path.join(directory, "function-addresses")
        names_at = function_addresses(options.shakyd, options.entry_addresses)
        first_entered = {}
        modes = ("iio-buffer", "iio-poll", "evdev")
        with open(os.path.join(directory, "shakyd.log"), "w") as log:
            for mode in modes:
                print("profiling shakyd serve on %s under callgrind" % mode, flush=True)
                executed(serve(options, directory, system, mode, log, under_callgrind(directory, mode)), costs)
            for mode in modes:
                print("recording the functions shakyd serve enters on %s at full speed" % mode, flush=True)
                run = with_entry_breakpoints(directory, mode, options)
                entered(serve(options, directory, system, mode, log, run), names_at, first_entered)
        shared = shared_section_functions(link_inputs(options.original))
        names = ordered(costs, first_entered, defined, shared)
        with open(options.output, "w") as file:
            file.write("".join(name + "\n" for name in names))
        profiled = set(costs)
        print("%s: %d functions ran, %d of them in sections shared with others, %d seen only at full speed (%d "
              "names not in shakyd's symbol table left out); %d entered at full speed" % (
                  options.output, len(names), sum(name in shared for name in names),
                  sum(name not in profiled for name in names), len(set(costs) - set(names)), len(first_entered)))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
        load("bench_system", "bench-system.py").ensure_packages(PACKAGES)
        os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)
    main()
