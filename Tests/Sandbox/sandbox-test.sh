#!/usr/bin/env bash
# `make test-sandbox`: the installed shakyd under its own units' hardening, for real. A minimal Debian (debootstrap,
# cached) boots systemd as PID 1 in a systemd-nspawn container, with the tree `make install DESTDIR=STAGE
# PREFIX=/usr` made copied in, shakyd.socket enabled and a check unit (sandbox-check.sh) that plays a game through
# the socket and looks at the running daemon. Prints the check's result and fails unless every check passed.
#
# usage: sandbox-test.sh STAGE    (run as root; needs debootstrap, systemd-container and a C compiler, cc or the
#                                 Swift toolchain's clang)
set -euo pipefail
stage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
base=${SANDBOX_BASE:-/var/tmp/shaky-sandbox/rootfs}
mirror=${SANDBOX_MIRROR:-http://deb.debian.org/debian}
# What the installed binaries link (see `make check-release`), systemd itself, and nsenter for the checks.
packages=systemd,systemd-sysv,dbus,util-linux,libiio0,libevdev2,libasound2,libsndfile1,libsqlite3-0,libncursesw6

if [ ! -x "$base/lib/systemd/systemd" ]; then
    echo "sandbox: making the base system in $base (once; debootstrap from $mirror)"
    rm -rf "$base.partial"
    mkdir -p "$(dirname "$base")"
    debootstrap --variant=minbase --include="$packages" bookworm "$base.partial" "$mirror" >"$base.log" 2>&1 ||
        { tail -20 "$base.log"; exit 1; }
    mv "$base.partial" "$base"
fi

run=$(mktemp -d /var/tmp/shaky-sandbox-run.XXXXXX)
trap 'rm -rf "$run"' EXIT
cp -a "$base/." "$run/"
cp -a "$stage/." "$run/"

# The check, run once the system is up; it powers the container off when done. It plugs a device in by sending
# udevd's events (udev-event.c, built here: the base system has no compiler).
install -D -m 0755 "$here/sandbox-check.sh" "$run/usr/local/sbin/shaky-sandbox-check"
compiler=${CC:-$(command -v cc || command -v clang)}
"$compiler" -O2 -Wall -Wextra -Werror -o "$run/usr/local/sbin/shaky-udev-event" "$here/udev-event.c"
cat >"$run/etc/systemd/system/shaky-sandbox-check.service" <<'UNIT'
[Unit]
Description=Shaky Words sandbox check
After=shakyd.socket systemd-sysusers.service systemd-journald.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/shaky-sandbox-check
UNIT
mkdir -p "$run/etc/systemd/system/multi-user.target.wants" "$run/etc/systemd/system/sockets.target.wants"
ln -sf /etc/systemd/system/shaky-sandbox-check.service "$run/etc/systemd/system/multi-user.target.wants/"
ln -sf /usr/lib/systemd/system/shakyd.socket "$run/etc/systemd/system/sockets.target.wants/"
# The unit as installed; only the configuration says where sound goes (alsa-lib's file plugin, into the state
# folder) and which accelerometer to use: one that is not there until the check plugs it in.
mkdir -p "$run/etc/shaky"
printf 'sound-device: cues\ninput: evdev:/dev/input/event7\n' >"$run/etc/shaky/shakyd.conf"
cat >"$run/etc/asound.conf" <<'ALSA'
pcm.cues {
    type file
    slave.pcm "null"
    file "/var/lib/shaky/cues.raw"
    format "raw"
}
ALSA
echo shaky-sandbox >"$run/etc/hostname"

echo "sandbox: booting"
status=0
# A network namespace of its own: the udev events the check sends stay in the container (libinput or udev-aware
# services of the machine running the test never hear of them), and its root keeps CAP_NET_ADMIN, which the kernel
# requires to send to a netlink multicast group, as udevd does (shakyd itself gets no capability).
timeout "${SANDBOX_TIMEOUT:-300}" systemd-nspawn --quiet --directory="$run" --boot --register=no --keep-unit \
    --machine=shaky-sandbox --console=pipe --private-network >"$run.console" 2>&1 </dev/null || status=$?
result="$run/var/lib/shaky-sandbox/result"
if [ ! -f "$result" ]; then
    echo "sandbox: the check did not run (systemd-nspawn exited with $status); the console:"
    tail -40 "$run.console"
    rm -f "$run.console"
    exit 1
fi
rm -f "$run.console"
cat "$result"
grep -qE '^RESULT: [0-9]+ passed, 0 failed$' "$result"
