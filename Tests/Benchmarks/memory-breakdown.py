#!/usr/bin/python3
"""Where a running process's resident memory is: per mapping, and per ELF section of its own binary.

Reads /proc/PID/smaps for every mapping's Rss (shared clean, private dirty, ...), grouped by file, and
/proc/PID/pagemap (bit 63: the page is present) for the executable's own file mappings, attributing each
resident page to the section of the file it holds (`readelf -S`). With --symbols BINARY (an unstripped copy of
the same build: the installed binary is stripped, and its sections sit at the same offsets), the resident code
is also attributed to the symbols it holds, summed per module (the demangled name's first component).

    memory-breakdown.py --pid PID [--symbols .build/release/shakyd] [--top 20]

Run by hand on any process, e.g. on shakyd while `make bench-system` runs (its README section shows figures).
"""
import argparse
import bisect
import collections
import os
import re
import struct
import subprocess

import daemon_probe

PAGE = os.sysconf("SC_PAGE_SIZE")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--symbols", help="an unstripped copy of the process's binary, to name its resident code")
    parser.add_argument("--top", type=int, default=15, help="how many symbol groups to print")
    return parser.parse_args()


def mappings(pid):
    """Each mapping of `pid`: start, end, file offset, permissions, path, and its smaps fields in KiB."""
    result = []
    header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) ([0-9a-f]+) \S+ \d+\s*(.*)$")
    with open("/proc/%d/smaps" % pid) as smaps:
        for line in smaps:
            match = header.match(line)
            if match:
                result.append({"start": int(match[1], 16), "end": int(match[2], 16), "perms": match[3],
                               "offset": int(match[4], 16), "path": match[5].strip() or "[anonymous]"})
            elif line.endswith("kB\n"):
                key, value = line.split(":", 1)
                result[-1][key] = int(value.split()[0])
    return result


def present_pages(pid, start, end):
    """The addresses of the pages of [start, end) that are resident (pagemap bit 63)."""
    pages = []
    with open("/proc/%d/pagemap" % pid, "rb") as pagemap:
        pagemap.seek(start // PAGE * 8)
        data = pagemap.read((end - start) // PAGE * 8)
    for index in range(len(data) // 8):
        (entry,) = struct.unpack_from("<Q", data, index * 8)
        if entry >> 63:
            pages.append(start + index * PAGE)
    return pages


def sections(binary):
    """The file's sections with a place in the file: (offset, size, name), sorted by offset."""
    output = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    result = []
    for line in output.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if match and match[2] != "NOBITS" and int(match[4], 16) > 0:
            result.append((int(match[3], 16), int(match[4], 16), match[1]))
    return sorted(result)


def section_of(file_sections, page):
    """The section holding the start of the page at file offset `page`, else the first one starting inside it."""
    for offset, size, name in file_sections:
        if offset <= page < offset + size:
            return name
    for offset, size, name in file_sections:
        if page <= offset < page + PAGE:
            return name
    return "(headers and padding)"


def symbols(binary):
    """The binary's defined functions: (file offset, size, module), sorted by offset."""
    headers = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    match = re.search(r"\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", headers)
    if not match:
        return []
    delta = int(match[1], 16) - int(match[2], 16)  # address - file offset in the text segment
    listing = subprocess.run(["nm", "--defined-only", "-S", binary], capture_output=True, text=True,
                             check=True).stdout
    result = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in "tTwW":
            continue
        result.append((int(parts[0], 16) - delta, int(parts[1], 16), module_of(parts[3])))
    return sorted(result)


def module_of(name):
    """The module of a mangled Swift symbol (its first identifier), or a family for the runtime's C++ and C."""
    match = re.match(r"_?\$s(\d+)", name)
    if match:
        length = int(match[1])
        start = match.end()
        return name[start:start + length]
    if re.match(r"_?\$s", name):
        return "Swift (standard library)"
    if name.startswith(("swift_", "_swift", "_ZN5swift", "_ZL", "_ZNK5swift")):
        return "Swift runtime (C++)"
    if name.startswith("_ZN6icu_") or name.startswith("u") and "_76" in name:
        return "ICU"
    if name.startswith(("__CF", "CF", "_CF")):
        return "CoreFoundation"
    if name.startswith(("_dispatch", "dispatch_")):
        return "Dispatch"
    return "other (C)"


def main():
    options = arguments()
    maps = mappings(options.pid)
    exe = os.readlink("/proc/%d/exe" % options.pid)
    by_file = collections.OrderedDict()
    for mapping in maps:
        row = by_file.setdefault(mapping["path"], collections.Counter())
        for key in ("Rss", "Shared_Clean", "Private_Clean", "Private_Dirty", "Shared_Dirty", "Anonymous"):
            row[key] += mapping.get(key, 0)
    total = sum(row["Rss"] for row in by_file.values())
    peak = daemon_probe.resident(options.pid, "VmHWM")
    print("pid %d: RSS %.1f MiB now, peak %.1f MiB (VmHWM)" % (options.pid, total / 1024, peak))
    print("  %-62s %8s %8s %8s" % ("mapping", "RSS KiB", "clean", "dirty"))
    for path, row in sorted(by_file.items(), key=lambda item: -item[1]["Rss"]):
        if row["Rss"] == 0:
            continue
        print("  %-62s %8d %8d %8d" % (path[-62:], row["Rss"], row["Shared_Clean"] + row["Private_Clean"],
                                        row["Private_Dirty"] + row["Shared_Dirty"]))
    resident = []  # file offsets of the executable's resident pages
    for mapping in maps:
        if mapping["path"] == exe:
            for address in present_pages(options.pid, mapping["start"], mapping["end"]):
                resident.append(address - mapping["start"] + mapping["offset"])
    file_sections = sections(options.symbols or exe)
    per_section = collections.Counter()
    for page in resident:
        per_section[section_of(file_sections, page)] += PAGE
    print("  %s: %d resident pages of its own file, by section (KiB):" % (os.path.basename(exe), len(resident)))
    for name, size in per_section.most_common():
        print("    %-30s %8d" % (name, size // 1024))
    if options.symbols:
        functions = symbols(options.symbols)
        offsets = [offset for offset, _, _ in functions]
        per_module = collections.Counter()
        for page in resident:
            first = bisect.bisect_left(offsets, page)
            if first > 0 and functions[first - 1][0] + functions[first - 1][1] > page:
                first -= 1
            modules = collections.Counter()
            index = first
            while index < len(functions) and functions[index][0] < page + PAGE:
                offset, size, module = functions[index]
                modules[module] += min(offset + size, page + PAGE) - max(offset, page)
                index += 1
            if modules:
                per_module[modules.most_common(1)[0][0]] += PAGE
        print("  resident code pages by the module that fills most of each page (KiB):")
        for module, size in per_module.most_common(options.top):
            print("    %-30s %8d" % (module[:30], size // 1024))


if __name__ == "__main__":
    main()
