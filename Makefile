# Shaky Words: set up, run, test, install.
#   make setup    install the Debian packages the build and the tests need (uses sudo when not root)
#   make run      build and run a game with no hardware
#   make test     format lint + the whole test suite
#   make bench    print benchmark figures

SWIFT        ?= swift
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libiio-dev libevdev-dev libasound2-dev libsndfile1-dev libsystemd-dev libudev-dev libsqlite3-dev \
                umockdev python3-gi gir1.2-umockdev-1.0 alsa-utils sox python3-venv

.PHONY: setup run test lint bench

setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing: $$missing"; \
	    $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

run:
	$(SWIFT) run shaky demo

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests

test: lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench:
	$(SWIFT) run -c release shaky-bench
