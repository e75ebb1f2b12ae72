"""What the benchmark scripts read of a running daemon: whether it listens, and its /proc status."""
import socket


def listening(path):
    """Whether a server listens on the Unix socket at `path`: its file is there from bind(), before listen(), and a
    client connecting in between is refused."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


def status(pid):
    """The numeric fields of /proc/PID/status by name, read at once: sizes in kB (VmRSS), counts (Threads)."""
    fields = {}
    with open("/proc/%d/status" % pid) as lines:
        for line in lines:
            name, _, value = line.partition(":")
            words = value.split()
            if words and words[0].isdigit():
                fields[name] = int(words[0])
    return fields


def resident(pid, field="VmRSS"):
    """The current RSS of `pid`, MiB: all of it (VmRSS), its anonymous (RssAnon) or file-backed (RssFile) part, or
    its peak (VmHWM)."""
    return status(pid).get(field, 0) / 1024


def resident_parts(pid):
    """VmRSS, RssAnon and RssFile of `pid`, MiB, from one read."""
    fields = status(pid)
    return {field: fields.get(field, 0) / 1024 for field in ("VmRSS", "RssAnon", "RssFile")}
