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

echo "== hotplug: the udev monitor's netlink socket is allowed"
check "no error watching for a sensor" sh -c "! journalctl -u shakyd.service --no-pager | grep -q 'cannot watch'"
check "it looked for an accelerometer" sh -c "journalctl -u shakyd.service --no-pager | grep -q 'no accelerometer found'"

echo "== stop: the game is saved"
systemctl stop shakyd.service
check "the log says the game is saved" sh -c "journalctl -u shakyd.service --no-pager | grep -q 'the game is saved'"
check "no seccomp or memory protection kill" sh -c \
    "! journalctl -u shakyd.service --no-pager | grep -qiE 'SIGSYS|core-dump|Main process exited, code=(killed|dumped)'"

echo "== shakyd's journal"
journalctl -u shakyd.service -u shakyd.socket --no-pager -o short-monotonic
echo "== systemd-analyze security shakyd.service"
systemd-analyze security shakyd.service --no-pager | tail -3
echo "RESULT: $passed passed, $failed failed"
systemctl poweroff --no-block
