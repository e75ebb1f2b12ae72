"""What the benchmark scripts ask of a Unix socket."""
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
