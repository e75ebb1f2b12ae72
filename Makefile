# Shaky Words: set up, run, test, install.
#   make setup    install the Debian packages the build and the tests need (uses sudo when not root)
#                 and the python varlink client into .venv
#   make run      build and run a game with no hardware
#   make board    the same demo game, with the board (`shaky board`) above it in tmux
#   make test     format lint, generated code up to date, the whole test suite
#   make generate regenerate Sources/ShakyProtocol/Generated from the .varlink interface files
#   make bench    print benchmark figures
#   make evaluate-detector  score the shake detector on ../shared/traces/dev (plain and cross-validated)
#   make bench-system  shakyd against iio-sensor-proxy on emulated sensors: CPU, wake-ups, reads, memory
#   make bench-callgrind  instructions per sample on the reading path and for trace parsing (valgrind)
#   make check-release  the installed binaries need no Swift toolchain (no RUNPATH, no Swift or libstdc++ in ldd, stripped), no libiio/libsndfile linked
#   make symbol-order  profile shakyd serve (valgrind) and rewrite release/shakyd.order, the release link's function order
#   make test-sandbox  boot a minimal Debian in systemd-nspawn and run the installed shakyd under its units' hardening
#   make install  release build, then install into $(DESTDIR)$(PREFIX) (PREFIX=/usr/local by default)
#   make install-files  install the built tree (after make build-release; sudo works without writing into .build)
#   make uninstall  remove exactly what make install put there

SWIFT        ?= swift
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libiio-dev libevdev-dev libasound2-dev libsndfile1-dev libudev-dev libsqlite3-dev \
                umockdev python3-gi gir1.2-umockdev-1.0 alsa-utils sox python3-venv systemd libncurses-dev tmux \
                groff-base man-db mandoc strace zsh fish

PREFIX         ?= /usr/local
BINDIR         ?= $(PREFIX)/bin
LIBDIR         ?= $(PREFIX)/lib
DATADIR        ?= $(PREFIX)/share
UNITDIR        ?= $(LIBDIR)/systemd/system
SYSUSERSDIR    ?= $(LIBDIR)/sysusers.d
UDEVRULESDIR   ?= $(LIBDIR)/udev/rules.d
MODULESLOADDIR ?= $(LIBDIR)/modules-load.d
MANDIR         ?= $(DATADIR)/man
SHAKYDATADIR   := $(DATADIR)/shaky
MANIFEST       := $(SHAKYDATADIR)/install-manifest
CONFIGURATION  ?= release
# Where the built binaries are; tests pass these so no second swift process runs inside `swift test`.
BIN_PATH        = .build/$(CONFIGURATION)
GENERATE_MANUAL = .build/debug/generate-manual
MANUAL_SECTIONS = .build/debug/manual-sections

.PHONY: setup run board test lint generate check-generated evaluate-detector bench bench-system bench-callgrind bench-soak build-release \
        symbol-order check-release manual install install-files install-stage uninstall fuzz fuzz-build fuzz-brief fuzz-run test-sandbox

setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing: $$missing"; \
	    $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi
	@# The independent Varlink client the protocol tests run (PyPI `varlink`), in a venv of the repository.
	@if ! .venv/bin/python -c 'import varlink' 2>/dev/null; then \
	    echo "Installing the python varlink client into .venv"; \
	    python3 -m venv .venv && .venv/bin/pip install -q varlink; \
	fi

# A whole game with no hardware: a private daemon on the bundled demo trace, and `shaky demo` hosting it.
run:
	$(SWIFT) build --product shakyd
	$(SWIFT) build --product shaky
	@# Waits for a call answered, not for the socket file: that is there from bind(), before listen().
	@bin=$$($(SWIFT) build --show-bin-path); demo=$$(mktemp -d); \
	$$bin/shakyd --socket $$demo/shaky.sock --state-dir $$demo --input demo --log-level warning & daemon=$$!; \
	trap 'kill $$daemon 2>/dev/null; wait $$daemon; rm -rf $$demo' EXIT INT TERM; \
	export SHAKY_SOCKET=$$demo/shaky.sock; \
	for attempt in $$(seq 50); do $$bin/shaky settings >/dev/null 2>&1 && break; sleep 0.2; done; \
	$$bin/shaky demo --replace

# The demo game with the room's board: the board on top, the scripted host below, in a tmux of its own.
board:
	$(SWIFT) build --product shakyd
	$(SWIFT) build --product shaky
	@bin=$$($(SWIFT) build --show-bin-path); demo=$$(mktemp -d); \
	$$bin/shakyd --socket $$demo/shaky.sock --state-dir $$demo --input demo --log-level warning & daemon=$$!; \
	trap 'kill $$daemon 2>/dev/null; wait $$daemon; rm -rf $$demo' EXIT INT TERM; \
	export SHAKY_SOCKET=$$demo/shaky.sock; \
	for attempt in $$(seq 50); do $$bin/shaky settings >/dev/null 2>&1 && break; sleep 0.2; done; \
	env -u TMUX tmux -S $$demo/tmux.sock -f /dev/null new-session "$$bin/shaky board" \; \
	    split-window -v -l 10 "$$bin/shaky demo --replace; echo; echo 'Demo over. Press Enter, then q on the board.'; read line"

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests

# The Varlink contract: Sources/ShakyProtocol/Interfaces/*.varlink is the one source; the Swift generated from
# it is committed (reviewable, no generator run in a Pi's build) and `make test` fails when it is stale.
INTERFACES    := $(wildcard Sources/ShakyProtocol/Interfaces/*.varlink)
GENERATED_DIR := Sources/ShakyProtocol/Generated
GENERATE       = $(SWIFT) run -j 1 varlink-generate --namespace ShakyAPI

generate:
	$(GENERATE) --output $(GENERATED_DIR) $(INTERFACES)
	$(SWIFT) format --in-place --configuration .swift-format --recursive $(GENERATED_DIR)

check-generated:
	@fresh=$$(mktemp -d); trap 'rm -rf $$fresh' EXIT; \
	$(GENERATE) --output $$fresh $(INTERFACES) && $(SWIFT) format --in-place --configuration .swift-format --recursive $$fresh && \
	diff -ru $(GENERATED_DIR) $$fresh || { echo "$(GENERATED_DIR) is stale: run make generate"; exit 1; }

# The crash and load suites drive real daemons hard, and the device matrix replays many emulated sensors (and a
# game's buttons) in real time; each runs on its own after the rest, so its load cannot starve the timing of the other tests that also run
# daemons, clients and umockdev replays. The suites carry the tags `heavy` and `deviceMatrix`, but `swift test`
# 6.3 selects only by name (`--filter tag:heavy` is taken as a pattern and matches nothing), so they are named here.
HEAVY_SUITES  := CrashTests|LoadTests|DescriptorExhaustionTests|ConnectBurstTests|FullDiskTests|ReadOnlyFileSystemTests
DEVICE_MATRIX := UmockdevDeviceMatrixTests|BuzzerGameTests

# At most TEST_WIDTH tests run at once. Swift Testing otherwise starts every test together: on CI's 2 cores dozens of
# debug daemons, clients and terminals then start at the same moment, while the tests that compute hold the 2 threads
# Swift's tasks share, and tests that wait for a daemon's answer or a program's exit pass their deadlines. With 6 at
# once the suite takes a few seconds longer and keeps its deadlines with both cores busy elsewhere as well.
TEST_WIDTH ?= 6
TEST := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build

test: lint check-generated
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(TEST) --skip '$(HEAVY_SUITES)|$(DEVICE_MATRIX)'
	$(TEST) --filter '$(HEAVY_SUITES)'
	$(TEST) --filter '$(DEVICE_MATRIX)'
	$(MAKE) fuzz-brief

# Fuzzing: shaky-fuzz built with AddressSanitizer and coverage into .build/fuzz, linked with libFuzzer's driver
# (clang's runtime shipped with the toolchain). `make fuzz` runs every target FUZZ_SECONDS each, growing the corpus in
# .build/fuzz/corpus/TARGET from Tests/Fuzz/Corpus/TARGET, from an optimized build (release, with assertions kept:
# -assert-config Debug): it stops on a trap, a failed assertion or a memory error as a debug build does, runs each
# input in about 0.7 of a debug build's time, and takes twice as long to build from scratch. `make fuzz-brief` (the
# last step of `make test`) runs each target FUZZ_BRIEF_SECONDS from a debug build: for a brief run the quicker build
# wins. Inputs are at most FUZZ_MAX_LEN bytes: every frame, pack, trace and file the targets read is exercised well
# below that, and bigger inputs only cost time. A crash stops the run and leaves its input as .build/fuzz/crash-*: fix
# the bug, then commit the input to Tests/Fuzz/Corpus/TARGET so that the test suite replays it. Leak detection is off
# (the varlink target keeps one in-process daemon for thousands of inputs), and so are ASan's allocation stacks
# (malloc_context_size=0: recording one on every allocation costs a tenth of the time; rerun a crash without it to
# see them) and Swift's backtracer (ASan stops it while it prints a Swift trap). The sanitized build is of shaky-fuzz
# and what it links only (no test targets), with FUZZ_JOBS jobs: CI has its 2 cores to itself.
FUZZ_TARGETS       := varlink pack-import trace config snapshot
FUZZ_SECONDS       ?= 600
FUZZ_BRIEF_SECONDS ?= 30
# The sanitized build's configuration for `make fuzz` (and `make fuzz-build`), and for `make fuzz-brief`.
FUZZ_CONFIGURATION       ?= release
FUZZ_BRIEF_CONFIGURATION ?= debug
FUZZ_ASSERTIONS     = $(if $(filter release,$(FUZZ_CONFIGURATION)),-Xswiftc -assert-config -Xswiftc Debug)
FUZZ_MAX_LEN       ?= 4096
FUZZ_BUILD         := .build/fuzz
# Jobs for the sanitized build (FUZZ_JOBS=1 on a machine shared with other builds).
FUZZ_JOBS          ?= 2
FUZZER_LIBRARY      = $(firstword $(wildcard $(dir $(realpath $(shell which $(SWIFT))))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(shell uname -m).a))

fuzz-build:
	@test -n "$(FUZZER_LIBRARY)" || { echo "libFuzzer (libclang_rt.fuzzer_no_main) is not in this Swift toolchain"; exit 1; }
	$(SWIFT) build -c $(FUZZ_CONFIGURATION) -j $(FUZZ_JOBS) --build-path $(FUZZ_BUILD) --product shaky-fuzz \
	    --sanitize=address \
	    -Xswiftc -sanitize-coverage=edge,trace-cmp,pc-table,inline-8bit-counters $(FUZZ_ASSERTIONS) -Xswiftc -DFUZZING \
	    -Xlinker $(FUZZER_LIBRARY) -Xlinker -lstdc++

fuzz:
	$(MAKE) fuzz-build fuzz-run SECONDS=$(FUZZ_SECONDS)

fuzz-brief:
	$(MAKE) fuzz-build fuzz-run FUZZ_CONFIGURATION=$(FUZZ_BRIEF_CONFIGURATION) SECONDS=$(FUZZ_BRIEF_SECONDS)

fuzz-run:
	@for target in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$target && \
	    echo "fuzzing $$target for $(SECONDS) s" && \
	    ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0 SWIFT_BACKTRACE=enable=no \
	    $(FUZZ_BUILD)/$(FUZZ_CONFIGURATION)/shaky-fuzz $$target -max_total_time=$(SECONDS) -max_len=$(FUZZ_MAX_LEN) \
	        -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_funcs=0 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/ \
	        $(FUZZ_BUILD)/corpus/$$target Tests/Fuzz/Corpus/$$target 2>$(FUZZ_BUILD)/$$target.log \
	    || { tail -60 $(FUZZ_BUILD)/$$target.log; exit 1; }; \
	    grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' $(FUZZ_BUILD)/$$target.log; \
	done

# The shake detector scored like unseen recordings score it: plain, leave-one-group-out cross-validated,
# on softer shakes and after a calibration (needs the labelled traces in ../shared/traces and numpy).
evaluate-detector:
	$(SWIFT) build -c release --product shakyd
	python3 Tests/DetectorEvaluation/cross_validate.py --shakyd .build/release/shakyd

bench: static-libstdc++
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product shaky-bench
	.build/release/shaky-bench $(BENCH_ARGS)

# Side by side with iio-sensor-proxy in one umockdev testbed (installs what it needs when missing).
# BENCH_SYSTEM_ARGS passes options, e.g. BENCH_SYSTEM_ARGS='--runs 3 --seconds 10 --only iio-buffer-100'.
bench-system: build-release
	/usr/bin/python3 Tests/Benchmarks/bench-system.py --shakyd $(BIN_PATH)/shakyd $(BENCH_SYSTEM_ARGS)

# A long party: thousands of games in a row with watchers coming and going, and what stays and what grows (resident
# memory split into heap and file pages, descriptors, threads, the database). BENCH_SOAK_ARGS, e.g. '--games 500'.
bench-soak: build-release
	.venv/bin/python Tests/Benchmarks/bench-soak.py --shakyd $(BIN_PATH)/shakyd $(BENCH_SOAK_ARGS)

# Instructions per sample (valgrind's callgrind, noise-free) on the reading path and for trace parsing. Counted on
# the release build in place, whose symbols name the functions counted (the installed binary is stripped).
# BENCH_CALLGRIND_ARGS passes options, e.g. BENCH_CALLGRIND_ARGS='--only trace --samples 100000'.
bench-callgrind: build-release
	/usr/bin/python3 Tests/Benchmarks/bench-callgrind.py --shakyd $(BIN_PATH)/shakyd $(BENCH_CALLGRIND_ARGS)

# The installed binaries carry the Swift runtime inside (--static-swift-stdlib), so a Pi needs none installed, and the
# C++ runtime it is written against (libstdc++) too: only the parts it calls come in, where the shared library's
# loading and start-up touch about 1.4 MiB (0.9 MiB more resident with the demo trace or evdev). The static runtime
# asks for `-lstdc++`; lld takes a library from the first -L folder that has it, so a folder holding only
# libstdc++.a (libstdc++-12-dev, which the Swift toolchain needs anyway) makes that static.
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
STATIC_FLAGS   := --static-swift-stdlib -Xlinker -L$(STATIC_CXX_DIR)
# Resident memory of the release binaries (README, "Against iio-sensor-proxy"): every Swift function in a section of
# its own (-function-sections), linked by the toolchain's lld in the order of release/shakyd.order (the functions
# shakyd runs, first, so that they share few pages; `make symbol-order` regenerates it) after the functions without
# a symbol, which no ordering file can name (release/private-functions-first.ld), relative relocations
# packed (DT_RELR, glibc 2.36) and no symbol table exported that nothing looks up (the static runtime's link
# arguments ask for -export-dynamic).
SYMBOL_ORDER   := release/shakyd.order
PRIVATE_FIRST  := release/private-functions-first.ld
RELEASE_FLAGS  := $(STATIC_FLAGS) -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
                  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
                  -Xlinker --symbol-ordering-file=$(CURDIR)/$(SYMBOL_ORDER) -Xlinker --no-warn-symbol-ordering \
                  -Xlinker --script=$(CURDIR)/$(PRIVATE_FIRST)

.PHONY: static-libstdc++
static-libstdc++:
	@archive=$$(clang -print-file-name=libstdc++.a); \
	if [ ! -f "$$archive" ]; then echo "libstdc++.a not found: apt install libstdc++-12-dev"; exit 1; fi; \
	mkdir -p $(STATIC_CXX_DIR) && ln -sf "$$archive" $(STATIC_CXX_DIR)/libstdc++.a

build-release: static-libstdc++
	@# A new function order changes no flag, so SwiftPM would not link again by itself.
	@for tool in shakyd shaky; do \
	    if [ $(SYMBOL_ORDER) -nt $(BIN_PATH)/$$tool ] || [ $(PRIVATE_FIRST) -nt $(BIN_PATH)/$$tool ]; then \
	        rm -f $(BIN_PATH)/$$tool; fi; done
	$(SWIFT) build -c $(CONFIGURATION) $(RELEASE_FLAGS) --product shakyd
	$(SWIFT) build -c $(CONFIGURATION) $(RELEASE_FLAGS) --product shaky
	$(SWIFT) build --product generate-manual
	$(SWIFT) build --product manual-sections
	$(MAKE) manual

# The functions shakyd runs, hottest first, from a profile of `shakyd serve` under valgrind's callgrind in a umockdev
# testbed (start-up, a game on buffered IIO, polled IIO and evdev with watchers, shakes and hints, the host's pack,
# settings, sensor and button calls), then those that only the same runs at full speed enter
# (Tests/Benchmarks/entry-breakpoints.c); commit the file. Renamed functions only lose their place, so an old file
# still links. Installs valgrind, umockdev and gcc when missing.
symbol-order: build-release
	/usr/bin/python3 Tests/Benchmarks/symbol-order.py --shakyd $(BIN_PATH)/shakyd --output $(SYMBOL_ORDER)
	$(MAKE) build-release

# The installed binaries need no Swift toolchain: no RUNPATH but $ORIGIN, no Swift library nor libstdc++ in `ldd`, stripped;
# libiio and libsndfile are not linked (loaded at first need); prints their sizes.
check-release:
	@for tool in shakyd shaky; do \
	    bin=$(DESTDIR)$(BINDIR)/$$tool; test -x $$bin || { echo "$$bin: not installed (make install)"; exit 1; }; \
	    if readelf -d $$bin | grep -E 'RUNPATH|RPATH' | grep -v '\[\$$ORIGIN\]'; then \
	        echo "$$bin: has a RUNPATH outside its own folder"; exit 1; fi; \
	    if ldd $$bin | grep -iE 'swift|Foundation|dispatch|BlocksRuntime'; then \
	        echo "$$bin: links the Swift runtime"; exit 1; fi; \
	    if ldd $$bin | grep 'libstdc++'; then echo "$$bin: links libstdc++ (see STATIC_FLAGS)"; exit 1; fi; \
	    if readelf -d $$bin | grep NEEDED | grep -E 'libiio|libsndfile'; then \
	        echo "$$bin: links libiio or libsndfile, which shakyd loads only when its input or sound needs them"; exit 1; fi; \
	    if readelf -S $$bin | grep -q '\.symtab'; then echo "$$bin: not stripped"; exit 1; fi; \
	    echo "$$bin: $$(stat -c %s $$bin) bytes, $$(ldd $$bin | wc -l) shared libraries, no Swift runtime"; \
	done

# First an upgrade over a running daemon (Tests/Sandbox/upgrade-test.sh: `make install-files` twice into a scratch
# DESTDIR, the second time while the first install's shakyd runs). Then the installed daemon under the units' real
# sandbox: `make install-files` into a staging tree, then a minimal Debian (debootstrap, cached in SANDBOX_BASE)
# booted with systemd-nspawn starts it from shakyd.socket and plays a game, then sees a device re-plugged through
# udev's netlink events, and not with PrivateNetwork=yes (Tests/Sandbox/sandbox-check.sh says what is checked).
# Takes 1-2 minutes once the base system and the release build exist; not part of `make test` (it needs the network
# for debootstrap the first time).
SANDBOX_STAGE := .build/sandbox-stage
SANDBOX_PACKAGES := systemd-container debootstrap
test-sandbox: build-release
	@missing=$$(for p in $(SANDBOX_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get install -y $$missing; fi
	Tests/Sandbox/upgrade-test.sh
	rm -rf $(SANDBOX_STAGE)
	$(MAKE) install-files DESTDIR=$(abspath $(SANDBOX_STAGE)) PREFIX=/usr
	$(SUDO) Tests/Sandbox/sandbox-test.sh $(SANDBOX_STAGE)

# Man pages from the argument parsers (swift-argument-parser's generate-manual tool), then manual-sections makes
# the FILES, ENVIRONMENT, EXIT STATUS and EXAMPLES a command's discussion holds real sections, gives each
# subcommand's page its program's EXIT STATUS and a SEE ALSO to it, and leaves nothing for `groff -ww` or
# `mandoc -T lint` to warn about.
MANUAL_DIR     ?= .build/manual
manual:
	test -x $(GENERATE_MANUAL) || $(SWIFT) build --product generate-manual
	test -x $(MANUAL_SECTIONS) || $(SWIFT) build --product manual-sections
	@for tool in shakyd shaky; do test -x $(BIN_PATH)/$$tool || { echo "$(BIN_PATH)/$$tool is not built: run make build-release first, or make manual CONFIGURATION=debug after swift build"; exit 1; }; done
	rm -rf $(MANUAL_DIR) && mkdir -p $(MANUAL_DIR)
	@# generate-manual drops every character beyond ASCII (Hà Nội, m/s², “…”): it reads each program's help through
	@# a script that runs `manual-sections --ascii-dump-help`, which marks them in ASCII for manual-sections to restore.
	@set -e; scripts=$$(mktemp -d); trap 'rm -rf "$$scripts"' EXIT; \
	for tool in shakyd shaky; do \
	    printf '#!/bin/sh\nexec "%s" --ascii-dump-help "%s"\n' "$(abspath $(MANUAL_SECTIONS))" "$(abspath $(BIN_PATH))/$$tool" \
	        >$$scripts/$$tool; \
	    chmod +x $$scripts/$$tool; \
	    echo "$(GENERATE_MANUAL) $(BIN_PATH)/$$tool --multi-page -o $(MANUAL_DIR)"; \
	    $(GENERATE_MANUAL) $$scripts/$$tool --multi-page -o $(MANUAL_DIR); \
	done
	@# `shaky help` and `shakyd help` are --help by another name: their pages would say nothing else.
	rm -f $(MANUAL_DIR)/shaky.help.1 $(MANUAL_DIR)/shakyd.help.1
	$(MANUAL_SECTIONS) $(MANUAL_DIR)/*.1

# `make install` as root builds as root; `make build-release` as yourself, then `sudo make install-files`,
# keeps the build yours.
install: build-release
	$(MAKE) install-files

# Stage the whole tree in a temporary folder (never under .build: `sudo make install-files` leaves nothing of root's
# in a build that is yours), then install it into $(DESTDIR) file by file and record every file in $(MANIFEST), so
# that uninstall removes exactly what was installed. Each file is unlinked and written anew (`install`), so the
# binaries of a running shakyd and board are replaced rather than written into ("Text file busy"), and the running
# processes keep their old copies until they restart; a folder that is missing is made 0755, one that exists keeps
# its owner and mode. Files the previous install's manifest lists that this one does not (dropped by a newer
# version) are removed. Until the new files are all in place the manifest lists both installs' files, so an
# install that stops halfway can still be uninstalled. It builds nothing (as root that would leave root's files in
# .build): the binaries and the man page tools must be there, from `make build-release`, or it says so and stops.
# The make that stages in the recipe below: named through a variable, so that `make -n install-files` only prints
# that recipe (a line naming $(MAKE) itself would run under -n, and install for real after its dry sub-makes).
STAGE_MAKE = $(MAKE) --no-print-directory
install-files:
	@for file in $(BIN_PATH)/shakyd $(BIN_PATH)/shaky $(GENERATE_MANUAL) $(MANUAL_SECTIONS); do \
	    test -x $$file || { echo "$$file is not built: run make build-release first (as yourself, then sudo make install-files)"; exit 1; }; \
	done
	@set -e; work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; \
	$(STAGE_MAKE) manual MANUAL_DIR=$$work/manual; \
	$(STAGE_MAKE) install-stage STAGE=$$work/tree MANUAL_DIR=$$work/manual; \
	export LC_ALL=C; \
	{ (cd $$work/tree && find . -type f | sed 's|^\.||'); echo $(MANIFEST); } | sort -u >$$work/manifest; \
	: >$$work/previous; \
	if [ -f $(DESTDIR)$(MANIFEST) ]; then sort -u $(DESTDIR)$(MANIFEST) >$$work/previous; fi; \
	mkdir -p $(DESTDIR)/; \
	(cd $$work/tree && find . -mindepth 1 -type d | sed 's|^\.||' | sort) | while read -r dir; do \
	    [ -d "$(DESTDIR)$$dir" ] || install -d -m 0755 "$(DESTDIR)$$dir"; \
	done; \
	sort -u $$work/previous $$work/manifest >$$work/both; \
	install -m 0644 $$work/both $(DESTDIR)$(MANIFEST); \
	while read -r file; do \
	    [ "$$file" = $(MANIFEST) ] && continue; \
	    install -m $$(stat -c %a "$$work/tree$$file") "$$work/tree$$file" "$(DESTDIR)$$file"; \
	done <$$work/manifest; \
	comm -23 $$work/previous $$work/manifest | while read -r file; do \
	    if [ -f "$(DESTDIR)$$file" ] || [ -L "$(DESTDIR)$$file" ]; then \
	        rm -f "$(DESTDIR)$$file"; echo "removed $(DESTDIR)$$file (the previous install's, no longer installed)"; \
	    fi; \
	done; \
	install -m 0644 $$work/manifest $(DESTDIR)$(MANIFEST); \
	echo "installed $$(wc -l <$$work/manifest) files into $(DESTDIR)$(PREFIX) (listed in $(DESTDIR)$(MANIFEST))"

# The installed tree laid out under $(STAGE) (a fresh folder install-files makes), with the man pages of MANUAL_DIR.
install-stage:
	@test -n "$(STAGE)" || { echo "install-stage: STAGE= names the folder to stage in (make install-files makes one)"; exit 1; }
	install -d $(STAGE)$(BINDIR) $(STAGE)$(UNITDIR) $(STAGE)$(SYSUSERSDIR) $(STAGE)$(UDEVRULESDIR) \
	    $(STAGE)$(MODULESLOADDIR) \
	    $(STAGE)$(SHAKYDATADIR)/sounds $(STAGE)$(SHAKYDATADIR)/packs $(STAGE)$(SHAKYDATADIR)/traces \
	    $(STAGE)$(MANDIR)/man1 \
	    $(STAGE)$(DATADIR)/bash-completion/completions $(STAGE)$(DATADIR)/zsh/site-functions \
	    $(STAGE)$(DATADIR)/fish/vendor_completions.d
	bin=$(BIN_PATH) && \
	install -m 0755 -s $$bin/shakyd $$bin/shaky $(STAGE)$(BINDIR)/ && \
	for tool in shaky shakyd; do \
	    $$bin/$$tool --generate-completion-script bash > $(STAGE)$(DATADIR)/bash-completion/completions/$$tool && \
	    $$bin/$$tool --generate-completion-script zsh > $(STAGE)$(DATADIR)/zsh/site-functions/_$$tool && \
	    $$bin/$$tool --generate-completion-script fish > $(STAGE)$(DATADIR)/fish/vendor_completions.d/$$tool.fish && \
	    chmod 0644 $(STAGE)$(DATADIR)/bash-completion/completions/$$tool $(STAGE)$(DATADIR)/zsh/site-functions/_$$tool \
	        $(STAGE)$(DATADIR)/fish/vendor_completions.d/$$tool.fish \
	    || exit 1; \
	done
	sed 's|@bindir@|$(BINDIR)|g' systemd/shakyd.service > $(STAGE)$(UNITDIR)/shakyd.service
	sed 's|@bindir@|$(BINDIR)|g' systemd/shaky-board.service > $(STAGE)$(UNITDIR)/shaky-board.service
	chmod 0644 $(STAGE)$(UNITDIR)/shakyd.service $(STAGE)$(UNITDIR)/shaky-board.service
	install -m 0644 systemd/shakyd.socket $(STAGE)$(UNITDIR)/
	install -m 0644 systemd/shaky.sysusers $(STAGE)$(SYSUSERSDIR)/shaky.conf
	install -m 0644 udev/70-shaky.rules $(STAGE)$(UDEVRULESDIR)/
	install -m 0644 systemd/shaky.modules-load $(STAGE)$(MODULESLOADDIR)/shaky.conf
	install -m 0644 systemd/shakyd.conf $(STAGE)$(SHAKYDATADIR)/shakyd.conf.example
	install -m 0644 sounds/*.wav sounds/README.md $(STAGE)$(SHAKYDATADIR)/sounds/
	install -m 0644 Sources/ShakyStore/BuiltinPacks/*.json $(STAGE)$(SHAKYDATADIR)/packs/
	install -m 0644 Sources/ShakyDaemon/Demo/demo-shakes.csv $(STAGE)$(SHAKYDATADIR)/traces/
	install -m 0644 $(MANUAL_DIR)/*.1 $(STAGE)$(MANDIR)/man1/

uninstall:
	@test -f $(DESTDIR)$(MANIFEST) || { echo "nothing to uninstall: no $(DESTDIR)$(MANIFEST)"; exit 1; }
	while read -r file; do rm -f "$(DESTDIR)$$file"; done < $(DESTDIR)$(MANIFEST)
	-rmdir --ignore-fail-on-non-empty $(DESTDIR)$(SHAKYDATADIR)/sounds $(DESTDIR)$(SHAKYDATADIR)/packs \
	    $(DESTDIR)$(SHAKYDATADIR)/traces \
	    $(DESTDIR)$(SHAKYDATADIR)
