"""`shakyd watch-buttons` run against a umockdev testbed, for the buzzer testbed scripts of this folder.

WatchButtons starts it in the testbed, reads what it prints while the script reacts (`wait_for`), and at the end
interrupts it with SIGINT and prints its output, then "exit=<status>" (`finish`). Each wait gives up after 20
seconds, saying so in the output.
"""
import os
import select
import signal
import subprocess
import sys
import time


class WatchButtons:
    def __init__(self, shakyd, testbed):
        environment = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir())
        self.process = subprocess.Popen(
            [shakyd, "watch-buttons", "--duration", "60", "--window", "0"],
            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.log = []
        self.errors = []

    def wait_for(self, text, stream="stdout"):
        """Reads shakyd's lines until one of `stream` ("stdout" or "stderr") holds `text` (stdout: starts with it)."""
        wanted = self.process.stdout if stream == "stdout" else self.process.stderr
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout, self.process.stderr], [], [], 0.1)
            found = False
            for source in ready:
                line = source.readline()
                if not line:
                    return False
                (self.log if source is self.process.stdout else self.errors).append(line.rstrip("\n"))
                matches = line.startswith(text) if source is self.process.stdout else text in line
                found = found or (source is wanted and matches)
            if found:
                return True
        self.log.append("(gave up waiting for %r)" % text)
        return False

    def finish(self, after_output=()):
        """Interrupts shakyd; prints its output, then the lines `after_output`, then its exit status; its standard
        error goes to standard error."""
        self.process.send_signal(signal.SIGINT)
        try:
            rest, rest_errors = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, rest_errors = self.process.communicate()
        self.log.extend(rest.splitlines())
        self.errors.extend(rest_errors.splitlines())
        print("\n".join(self.log + list(after_output)))
        print("exit=%d" % self.process.returncode)
        sys.stderr.write("\n".join(self.errors) + "\n")
