#!/usr/bin/env bash
# `make test-sandbox`'s first part: an upgrade as the README describes it, with nothing stopped. `make install-files`
# into a fresh DESTDIR (PREFIX=/usr), the installed shakyd started from there, then `make install-files` again over
# the running daemon, after making the tree look like an older version's: its manifest lists a file this version no
# longer installs, and a folder was given a mode of its own. The second install must replace the running binary
# (unlinked, not written into: "Text file busy"), leave the daemon running on its old copy, remove the dropped file,
# keep the folder's mode and write a manifest of exactly the installed files. Prints each check and fails unless
# every check passed.
#
# usage: upgrade-test.sh    (from the checkout, after make build-release; make's command-line variables, such as
#                           BIN_PATH=, reach the installs through MAKEFLAGS)
set -euo pipefail
make=${MAKE:-make}
dest=$(mktemp -d)
run=$(mktemp -d)
daemon=
cleanup() {
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
    rm -rf "$dest" "$run"
}
trap cleanup EXIT
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
install_files() { "$make" -s --no-print-directory install-files DESTDIR="$dest" PREFIX=/usr; }
manifest=$dest/usr/share/shaky/install-manifest

echo "== upgrade: make install-files over a running shakyd"
install_files >/dev/null
"$dest/usr/bin/shakyd" serve --socket "$run/shaky.sock" --state-dir "$run/state" --input none --sound-device none \
    --buzzers none --shakers none 2>"$run/shakyd.log" &
daemon=$!
for _ in $(seq 50); do [ -S "$run/shaky.sock" ] && break; sleep 0.2; done
answers() { # with no game yet `shaky status` exits 1 with the daemon's answer: that it answers is what counts
    local answer
    answer=$(SHAKY_SOCKET=$run/shaky.sock "$dest/usr/bin/shaky" status 2>&1) || true
    grep -q "there is no game" <<<"$answer"
}
check "the installed shakyd answers" answers
old=$(stat -c %i "$dest/usr/bin/shakyd")
# What an older version left behind, and a mode an administrator chose.
echo /usr/share/shaky/packs/dropped-by-this-version.json >>"$manifest"
echo '{}' >"$dest/usr/share/shaky/packs/dropped-by-this-version.json"
chmod 0750 "$dest/usr/share/man"

check "make install-files succeeds while it runs" install_files
check "the binary was replaced by a new file" test "$(stat -c %i "$dest/usr/bin/shakyd")" != "$old"
check "the daemon still runs, on its old copy" sh -c "kill -0 $daemon && readlink /proc/$daemon/exe | grep -q '(deleted)'"
check "and still answers" answers
check "the file the previous manifest listed and this version does not install is gone" \
    test ! -e "$dest/usr/share/shaky/packs/dropped-by-this-version.json"
check "the manifest lists exactly the installed files" \
    sh -c "cd '$dest' && find . -type f | sed 's|^\\.||' | LC_ALL=C sort | cmp -s - '$manifest'"
check "an existing folder keeps its mode" test "$(stat -c %a "$dest/usr/share/man")" = 750
check "a folder the install made is 0755" test "$(stat -c %a "$dest/usr/share/shaky/packs")" = 755

echo "RESULT: $passed passed, $failed failed"
[ "$failed" = 0 ]
