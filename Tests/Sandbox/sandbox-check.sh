#!/bin/bash
# Runs inside the booted container (shaky-sandbox-check.service): drives the installed shakyd, started by its own
# socket and service units with all their hardening, and writes what it saw to /var/lib/shaky-sandbox/result.
# The last line of the result is `RESULT: N passed, M failed`; the container powers off at the end.
out=/var/lib/shaky-sandbox/result
mkdir -p "$(dirname "$out")"
exec >"$out" 2>&1
passed=0
failed=0
check() { # check NAME COMMAND…: runs the command, counts and prints the outcome
    local name=$1
    shift
    if "$@"; then
        echo "ok: $name"
        passed=$((passed + 1))
    else
        echo "FAILED: $name"
        failed=$((failed + 1))
    fi
}
export SHAKY_SOCKET=/run/shaky/shaky.sock
# The container runs no systemd-udevd (it has nothing to manage there). libudev's monitors listen to udev's netlink
# group only when /run/udev/control says that udevd runs, as it does on any real system; shaky-udev-event plays
# udevd's part below.
mkdir -p /run/udev && : >/run/udev/control

echo "== a game through the socket (socket activation starts shakyd)"
# With no game yet, `shaky status` exits 1 with the daemon's answer: that it answers at all is what counts here.
check "shaky status answers (no game yet)" sh -c 'shaky status 2>&1 | grep -q "there is no game"'
check "a new game" shaky new --team Owls --team Foxes --questions 2 --seed 7
check "the first question" shaky next
check "a hint (a sound cue)" shaky hint
check "Owls buzz" shaky buzz Owls
shaky status
state=$(systemctl show shakyd.service -p ActiveState --value)
pid=$(systemctl show shakyd.service -p MainPID --value)
check "shakyd.service is active (state $state, pid $pid)" test "$state" = active
check "it never restarted" test "$(systemctl show shakyd.service -p NRestarts --value)" = 0
# READY=1 made the start above; the STATUS= lines reach systemd too (shakyd's own sd_notify protocol, no libsystemd).
status_text=$(systemctl show shakyd.service -p StatusText --value)
check "systemctl status shows the game's line ($status_text)" \
    sh -c "case '$status_text' in *'question 1/2'*'Owls 0'*) exit 0;; *) exit 1;; esac"

echo "== the device allow-list does not wait for modules loaded after the daemon starts"
check "modules-load.d loads industrialio and snd" \
    sh -c "grep -qx industrialio /usr/lib/modules-load.d/shaky.conf && grep -qx snd /usr/lib/modules-load.d/shaky.conf"
check "shakyd.service starts after systemd-modules-load.service" \
    sh -c "systemctl show shakyd.service -p After --value | grep -qw systemd-modules-load.service"
check "ALSA's devices are allowed by their fixed major" \
    sh -c "systemctl show shakyd.service -p DeviceAllow --value | grep -qw 'char-116'"

echo "== the sandbox as the kernel sees it (pid $pid)"
grep -E '^(Uid|Gid|Groups|CapEff|CapBnd|NoNewPrivs|Seccomp|Seccomp_filters):' "/proc/$pid/status"
check "runs as user shaky" test "$(stat -c %U "/proc/$pid")" = shaky
check "no capabilities" grep -q '^CapEff:[[:space:]]*0000000000000000$' "/proc/$pid/status"
check "no new privileges" grep -q '^NoNewPrivs:[[:space:]]*1$' "/proc/$pid/status"
check "a seccomp filter" grep -q '^Seccomp:[[:space:]]*2$' "/proc/$pid/status"
check "/home is hidden" nsenter -t "$pid" -m -- test ! -e /home/sandbox-probe
check "/usr is read-only for it" nsenter -t "$pid" -m -- sh -c '! touch /usr/sandbox-probe 2>/dev/null'

echo "== sound: the cues played to the file PCM"
sleep 1
size=$(stat -c %s /var/lib/shaky/cues.raw 2>/dev/null || echo 0)
echo "cues.raw: $size bytes"
check "cues were written to the file PCM" test "$size" -gt 1000

echo "== stop: the game is saved"
systemctl stop shakyd.service
check "the log says the game is saved" sh -c "journalctl -u shakyd.service --no-pager | grep -q 'the game is saved'"

echo "== hotplug: udev's events reach the installed daemon under its unit"
# The configuration names /dev/input/event7, which is not there: the daemon waits for an accelerometer and tries
# again on each device udev reports plugged in. The events are udevd's, as libudev receives them (udev-event.c).
seqnum=1000
plug() { # plug ACTION: udevd's event for the accelerometer /dev/input/event7 going away (remove) or coming (add)
    seqnum=$((seqnum + 1))
    shaky-udev-event ACTION="$1" DEVPATH=/devices/platform/lis3lv02d/input/input7/event7 SUBSYSTEM=input \
        DEVNAME=/dev/input/event7 MAJOR=13 MINOR=71 SEQNUM=$seqnum USEC_INITIALIZED=5000000 ID_INPUT=1 \
        ID_INPUT_ACCELEROMETER=1 ID_PATH=platform-lis3lv02d SYSTEMD_WANTS=shakyd.service TAGS=:systemd: \
        CURRENT_TAGS=:systemd:
}
wait_for() { # wait_for SECONDS COMMAND…: whether the command succeeds within SECONDS (tried every 0.2 s)
    local tries=$(($1 * 5))
    shift
    until "$@"; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || return 1
        sleep 0.2
    done
}
udev_listeners() { # how many of the daemon's sockets listen on udev's netlink group
    local inodes
    inodes=" $(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l ' 2>/dev/null | tr -dc '0-9 ') "
    # /proc/PID/net/netlink lists the sockets of PID's network namespace (sk Eth Pid Groups … Inode): Eth 15 is
    # NETLINK_KOBJECT_UEVENT, Groups 00000002 udev's group alone (the kernel's own uevents are group 1).
    awk -v inodes="$inodes" '$2 == 15 && $4 == "00000002" && index(inodes, " " $10 " ")' "/proc/$pid/net/netlink" |
        wc -l
}
# The sensor's monitor (iio and input) and the buzzers' (input).
listening() { [ "$(udev_listeners)" -ge 2 ]; }
noticed() { # whether this run of the daemon logged udev's add of /dev/input/event7
    journalctl --no-pager -o cat _SYSTEMD_INVOCATION_ID="$invocation" |
        grep -q '^a device was plugged in, but it gives no accelerometer; still waiting for one device=/dev/input/event7 '
}
started() { # the new run of shakyd.service: its pid and invocation
    pid=$(systemctl show shakyd.service -p MainPID --value)
    invocation=$(systemctl show shakyd.service -p InvocationID --value)
    echo "shakyd.service: pid $pid, invocation $invocation"
}
replug() {
    plug remove
    plug add
}

systemctl start shakyd.service
started
families=$(systemctl show shakyd.service -p RestrictAddressFamilies --value)
check "sockets are restricted to AF_UNIX and AF_NETLINK ($families)" \
    test "$(printf '%s\n' $families | sort | paste -sd ' ')" = "AF_NETLINK AF_UNIX"
check "the system call filter is in force" sh -c "systemctl show shakyd.service -p SystemCallFilter --value |
    grep -qw socket && grep -q '^Seccomp:[[:space:]]*2$' /proc/$pid/status"
check "it listens on udev's netlink group" wait_for 10 listening
echo "sockets on udev's group: $(udev_listeners)"
check "nothing plugged in yet" eval '! noticed'
check "udevd's remove and add of /dev/input/event7 are sent" replug
check "it hears udev's add of /dev/input/event7 and tries it" wait_for 10 noticed
# The node is not there, so it stays without a sensor; Sensor.Status says why.
sensor=$(shaky sensor status)
echo "$sensor"
check "Sensor.Status: still absent" grep -q '^Sensor: absent' <<<"$sensor"

echo "== the control: with PrivateNetwork=yes the same events never reach it"
mkdir -p /etc/systemd/system/shakyd.service.d
printf '[Service]\nPrivateNetwork=yes\n' >/etc/systemd/system/shakyd.service.d/sandbox-private-network.conf
systemctl daemon-reload
systemctl restart shakyd.service
started
check "it runs in a network namespace of its own" test "$(readlink "/proc/$pid/ns/net")" != "$(readlink /proc/self/ns/net)"
check "it listens on udev's netlink group there" wait_for 10 listening
check "the same events are sent" replug
sleep 3
check "it never hears of the device" eval '! noticed'
rm -r /etc/systemd/system/shakyd.service.d
systemctl daemon-reload
systemctl restart shakyd.service
started
check "without the drop-in it shares the container's network namespace again" \
    test "$(readlink "/proc/$pid/ns/net")" = "$(readlink /proc/self/ns/net)"
check "it listens on udev's netlink group" wait_for 10 listening
check "the same events are sent again" replug
check "it hears udev's add again" wait_for 10 noticed
systemctl stop shakyd.service

echo "== the watchdog: WATCHDOG=1 pings keep a service with a 2-s watchdog running"
mkdir -p /etc/systemd/system/shakyd.service.d
printf '[Service]\nWatchdogSec=2s\n' >/etc/systemd/system/shakyd.service.d/sandbox-watchdog.conf
systemctl daemon-reload
systemctl start shakyd.service
started
watched_pid=$pid
sleep 7
check "after 7 s (three watchdog times) the same process runs" \
    test "$(systemctl show shakyd.service -p MainPID --value)" = "$watched_pid"
check "and systemd never saw the watchdog time out" \
    sh -c "! journalctl -u shakyd.service --no-pager | grep -q 'Watchdog timeout'"
rm -r /etc/systemd/system/shakyd.service.d
systemctl daemon-reload
systemctl stop shakyd.service

echo "== every run of shakyd"
check "no error watching for a sensor" sh -c "! journalctl -u shakyd.service --no-pager | grep -q 'cannot watch'"
check "it looked for an accelerometer" sh -c "journalctl -u shakyd.service --no-pager | grep -q 'no accelerometer found'"
check "no seccomp or memory protection kill" sh -c \
    "! journalctl -u shakyd.service --no-pager | grep -qiE 'SIGSYS|core-dump|Main process exited, code=(killed|dumped)'"

echo "== a daemon that cannot start: after a few tries it stays failed, and the socket with it"
# Started by a client's connection, it fails at once and restarts every 2 s; the start limit (5 in a minute) stops
# that, shakyd.socket fails too and closes, and the waiting client gets an error instead of hanging. Another client
# is refused at once.
mkdir -p /etc/systemd/system/shakyd.service.d
printf '[Service]\nExecStart=\nExecStart=/bin/false\n' >/etc/systemd/system/shakyd.service.d/sandbox-broken.conf
systemctl daemon-reload
systemctl reset-failed shakyd.service
timeout 60 shaky status >/dev/null 2>&1 &
client=$!
socket_failed() { [ "$(systemctl show shakyd.socket -p ActiveState --value)" = failed ]; }
check "shakyd.socket fails within 30 s" wait_for 30 socket_failed
echo "shakyd.service: $(systemctl show shakyd.service -p ActiveState -p Result -p NRestarts | paste -sd ' ')"
echo "shakyd.socket: $(systemctl show shakyd.socket -p ActiveState -p Result | paste -sd ' ')"
check "because the service hit its start limit" \
    test "$(systemctl show shakyd.socket -p Result --value)" = service-start-limit-hit
check "the service stays failed, not restarting" \
    test "$(systemctl show shakyd.service -p ActiveState --value)" = failed
client_status=0
wait "$client" || client_status=$?
check "the client that started it got an error, not a hang (exit $client_status)" \
    sh -c "[ $client_status != 0 ] && [ $client_status != 124 ]"
started_at=$(date +%s%N)
refused_status=0
timeout 10 shaky status >/dev/null 2>&1 || refused_status=$?
took=$((($(date +%s%N) - started_at) / 1000000))
check "a new client is refused at once (exit $refused_status after $took ms)" \
    sh -c "[ $refused_status != 0 ] && [ $refused_status != 124 ] && [ $took -lt 2000 ]"
rm -r /etc/systemd/system/shakyd.service.d
systemctl daemon-reload
systemctl reset-failed shakyd.service shakyd.socket
systemctl start shakyd.socket
answers() { shaky status >/dev/null 2>&1; } # the saved game: it exits 0 once the daemon answers
check "fixed, reset-failed and started again, it answers with the saved game" wait_for 10 answers
systemctl stop shakyd.service

echo "== a damaged database at boot: set aside, and the party goes on with a new one"
# As a card's failing blocks leave it: not a database any more. The daemon is started by a client's connection, as
# after a boot; it must come up rather than fail at every start.
owner=$(stat -c %U:%G /var/lib/shaky)
rm -f /var/lib/shaky/shaky.sqlite-wal /var/lib/shaky/shaky.sqlite-shm
for _ in $(seq 200); do echo "not a database any more"; done >/var/lib/shaky/shaky.sqlite
chown "$owner" /var/lib/shaky/shaky.sqlite
fresh() { shaky status 2>&1 | grep -q "there is no game"; } # a new database holds no saved game
check "it starts on a new database" wait_for 15 fresh
check "the damaged file is set aside beside it, as it was" \
    sh -c 'grep -q "not a database any more" /var/lib/shaky/damaged-database-*.sqlite'
check "shaky settings tells the host where it went" \
    sh -c 'shaky settings | grep -q "set aside as /var/lib/shaky/damaged-database-"'
check "the built-in packs are there" sh -c 'shaky pack list | grep -q "Animals .* built-in"'
check "a new game plays" \
    sh -c 'shaky new --team Owls --team Foxes --questions 1 --seed 3 >/dev/null && shaky next >/dev/null'
check "the journal says what was lost" \
    sh -c "journalctl -u shakyd.service --no-pager | grep -q 'the database was damaged and is set aside'"
systemctl stop shakyd.service

echo "== shakyd's journal"
journalctl -u shakyd.service -u shakyd.socket --no-pager -o short-monotonic
echo "== systemd-analyze security shakyd.service"
systemd-analyze security shakyd.service --no-pager | tail -3
echo "RESULT: $passed passed, $failed failed"
systemctl poweroff --no-block
