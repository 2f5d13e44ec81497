# AppletKit: `make run` builds and launches the demo host, `make test` builds and runs every test.
# Missing system packages (libncurses-dev, tmux, postgresql for the sync tests, and dbus,
# gnome-keyring, libsecret-1-0 and libsecret-tools for the desktop keyring's tests) are installed
# with apt-get.
#
# The repository holds several packages: the framework (this folder), each example applet
# (Applets/*), and the demo host (Demo). They all build into one scratch folder, .build, so the
# framework is compiled once however many packages use it. SwiftPM caches a scratch folder's
# build plan without noticing which package it was made for (`swift test` then runs another
# package's tests), so every command here asks for a fresh plan: a second or two, no recompiling.

SHELL := /bin/bash
SWIFT ?= swift
ARGS ?=
BUILD := $(CURDIR)/.build
SCRATCH := --scratch-path $(BUILD) --disable-build-manifest-caching
APPLETS := $(sort $(dir $(wildcard Applets/*/Package.swift)))
# apt-get needs root: use sudo when we are not root and it exists.
SUDO := $(shell if [ "$$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then echo sudo; fi)

.PHONY: run build release screens test test-framework test-applets test-demo test-packaging test-fuzz fuzz fuzz-build flaky bench bench-tabs bench-tabs-run bench-idle bench-sync bench-build clean deps test-deps

run: build
	$(BUILD)/debug/appletkit $(ARGS)

# The demo host and, through it, every example applet and the framework.
build: deps
	$(SWIFT) build --package-path Demo $(SCRATCH)

# The demo host as it should ship: optimised, with the Swift runtime linked in (a smaller, faster
# start and less memory than loading the shared Swift libraries): $(BUILD)/release/appletkit.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --package-path Demo $(SCRATCH) --product appletkit
	@echo "make: built $(BUILD)/release/appletkit (release, Swift runtime linked statically)"

test: deps test-deps test-framework test-fuzz test-applets test-demo test-packaging

# The framework's own tests: unit, headless screen and golden-screen tests, SecureState in a real
# desktop keyring, and AppletSync's against a throwaway PostgreSQL server (initdb in a temporary
# folder, a Unix socket).
test-framework: deps test-deps
	$(SWIFT) build --build-tests $(SCRATCH)
	$(SWIFT) test --skip-build $(SCRATCH)

# Each example applet package's tests, as its author would run them.
test-applets: deps
	@set -e; for applet in $(APPLETS); do \
		echo "make: testing $$applet"; \
		$(SWIFT) build --build-tests --package-path $$applet $(SCRATCH); \
		$(SWIFT) test --skip-build --package-path $$applet $(SCRATCH); \
	done

# The demo: its screens, its command line, and the real binary in tmux and on pseudo-terminals.
test-demo: deps test-deps
	$(SWIFT) build --build-tests --package-path Demo $(SCRATCH)
	$(SWIFT) test --skip-build --package-path Demo $(SCRATCH) --skip PackagingTests

# Packages built from outside the repository (by URL, from the generator, the tutorial), after
# everything else: each builds AppletKit again in a folder of its own, which takes a few minutes.
test-packaging: deps test-deps
	$(SWIFT) build --build-tests --package-path Demo $(SCRATCH)
	$(SWIFT) test --skip-build --package-path Demo $(SCRATCH) --filter PackagingTests

# Coverage-guided fuzzing (libFuzzer and AddressSanitizer, both in the toolchain) of every parser
# that reads what a user may have been sent: keymaps, session files, state files, terminal input
# (Fuzz/, built into .build-fuzz). `make test` replays every regression input and runs FUZZ_RUNS
# inputs per target from a fixed seed; `make fuzz` runs each target FUZZ_SECONDS (see Scripts/fuzz.sh).
FUZZ_RUNS ?= 20000
FUZZ_SECONDS ?= 300
fuzz-build: deps
	$(SWIFT) build --package-path Fuzz --scratch-path $(CURDIR)/.build-fuzz --disable-build-manifest-caching \
		--sanitize fuzzer --sanitize address -Xswiftc -use-ld=lld

test-fuzz: fuzz-build
	FUZZ_RUNS=$(FUZZ_RUNS) Scripts/fuzz.sh short

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) Scripts/fuzz.sh long

# The screens in README.md and Docs/*.md, drawn again from their scenes (Demo/Sources/DemoScreens:
# each tab and overlay on fixtures, the same on every machine). make test checks they are current.
screens: deps
	$(SWIFT) build --package-path Demo $(SCRATCH) --product appletkit-screens
	$(BUILD)/debug/appletkit-screens README.md Docs/*.md

# Finds flaky tests before CI does: the suites that drive real terminals (the demo's end-to-end and
# reliability suites, the framework's pseudo-terminal suites) RUNS times on one build, then every
# test that failed at least once, with its messages. BUSY=1 keeps the other cores busy meanwhile;
# CLEAN=1 builds from nothing first (in .build-flaky). See Scripts/flaky.sh.
RUNS ?= 10
flaky: deps test-deps
	RUNS=$(RUNS) SWIFT=$(SWIFT) Scripts/flaky.sh

# Release-build benchmarks (ordo-one/benchmark) printing figures; see Benchmarks/.
# Each figure is printed beside a reference measured in the same run; a ratio over its budget
# prints OVER BUDGET, which fails this target. Each benchmark target runs on its own, so one over
# its budget (the harness may then skip the targets after it) still leaves every figure printed.
# The tabs benchmark (bench-tabs) runs last.
BENCH_TARGETS := StoreBenchmarks UIBenchmarks NavigationBenchmarks LogicBenchmarks
bench: deps
	@rm -f Benchmarks/.bench-output.txt
	@cd Benchmarks && for target in $(BENCH_TARGETS); do \
		set -o pipefail; \
		$(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress --target $$target 2>&1 | tee -a .bench-output.txt \
			|| echo "make: BENCHMARK FAILED: $$target exited with an error (see above)" | tee -a .bench-output.txt; \
	done
	@$(MAKE) --no-print-directory bench-tabs-run
	@$(MAKE) --no-print-directory bench-idle
	@$(MAKE) --no-print-directory bench-sync-run
	@$(MAKE) --no-print-directory bench-build
	@if grep -q "OVER BUDGET\|BENCHMARK FAILED" Benchmarks/.bench-output.txt $(TABS_OUTPUT) $(IDLE_OUTPUT) $(SYNC_OUTPUT) $(BUILD_OUTPUT); then echo "make: a benchmark is over its budget or failed (see above)"; exit 1; fi

# The same three-tab app in plain C on ncursesw (Benchmarks/Tabs/tabs.c) and on AppletKit
# (Benchmarks/Tabs/AppletKit), driven side by side on pseudo-terminals by one driver that waits for
# each key's effect on the parsed screen; see Benchmarks/Tabs/README.md. Everything is built into
# Benchmarks' own build folders (never committed): the C program into Benchmarks/.build/tabs, the
# Swift products in release into Benchmarks/.build, and AppletKit once more with the Swift runtime
# linked statically into Benchmarks/.build-static (TABS_STATIC=0 leaves that column out).
TABS_DIR := Benchmarks/.build/tabs
TABS_OUTPUT := $(TABS_DIR)/output.txt
TABS_CFLAGS := -O2
TABS_STATIC ?= 1
TABS_SWIFT := $(SWIFT) build -c release --package-path Benchmarks --disable-build-manifest-caching
TABS_SWIFT_STATIC := $(TABS_SWIFT) --scratch-path Benchmarks/.build-static --static-swift-stdlib

bench-tabs: deps bench-tabs-run
	@if grep -q "OVER BUDGET" $(TABS_OUTPUT); then echo "make: the tabs benchmark is over its budget (see OVER BUDGET above)"; exit 1; fi

# Builds and measures; prints the table (and keeps it in $(TABS_OUTPUT)) without judging it.
bench-tabs-run: deps
	@mkdir -p $(TABS_DIR)
	$(CC) $(TABS_CFLAGS) -Wall -o $(TABS_DIR)/tabs-c Benchmarks/Tabs/tabs.c -lncursesw
	$(TABS_SWIFT) --product tabs-appletkit
	$(TABS_SWIFT) --product tabs-driver
	@if [ "$(TABS_STATIC)" = 1 ]; then echo "$(TABS_SWIFT_STATIC) --product tabs-appletkit"; $(TABS_SWIFT_STATIC) --product tabs-appletkit; fi
	$(TABS_SWIFT_STATIC) --product tabs-floor
	@set -o pipefail; Benchmarks/.build/release/tabs-driver \
		--c $(TABS_DIR)/tabs-c --appletkit Benchmarks/.build/release/tabs-appletkit \
		$(if $(filter 1,$(TABS_STATIC)),--appletkit-static Benchmarks/.build-static/release/tabs-appletkit) \
		--floor Benchmarks/.build-static/release/tabs-floor \
		--c-build "$(CC) $(TABS_CFLAGS) tabs.c -lncursesw ($$($(TABS_DIR)/tabs-c --version), $$($(CC) --version | head -1))" \
		--swift-build "swift build -c release ($$($(SWIFT) --version 2>/dev/null | head -1))" \
		--static-build "swift build -c release --static-swift-stdlib" \
		| tee $(TABS_OUTPUT)

# At rest: the C program, the AppletKit tabs app and the demo (release, as users build it) each
# left alone on every tab; wake-ups, CPU and bytes written, read from /proc and the terminal.
# OVER BUDGET marks a still tab that woke, used CPU or wrote.
IDLE_OUTPUT := $(TABS_DIR)/idle.txt
IDLE_SECONDS ?= 5
bench-idle: deps
	@mkdir -p $(TABS_DIR)
	$(CC) $(TABS_CFLAGS) -Wall -o $(TABS_DIR)/tabs-c Benchmarks/Tabs/tabs.c -lncursesw
	$(TABS_SWIFT) --product tabs-appletkit
	$(TABS_SWIFT) --product tabs-driver
	$(SWIFT) build -c release --package-path Demo --scratch-path Benchmarks/.build-demo --disable-build-manifest-caching --product appletkit
	@set -o pipefail; Benchmarks/.build/release/tabs-driver --idle --seconds $(IDLE_SECONDS) \
		--c $(TABS_DIR)/tabs-c --appletkit Benchmarks/.build/release/tabs-appletkit \
		--demo Benchmarks/.build-demo/release/appletkit | tee $(IDLE_OUTPUT)

# SyncState across machines (Benchmarks/Sync): a throwaway PostgreSQL server (fsync on), two
# instances, 200 changes; each change's time from a set in one to the other's value, p50 and p99,
# beside the server's SELECT 1 and NOTIFY round trips in the same run. OVER BUDGET past the ratio.
SYNC_OUTPUT := $(TABS_DIR)/sync.txt
bench-sync: deps test-deps bench-sync-run
	@if grep -q "OVER BUDGET\|BENCHMARK FAILED" $(SYNC_OUTPUT); then echo "make: the sync benchmark is over its budget or failed (see above)"; exit 1; fi

bench-sync-run: deps test-deps
	@mkdir -p $(TABS_DIR)
	$(TABS_SWIFT) --product sync-bench
	@set -o pipefail; Benchmarks/.build/release/sync-bench | tee $(SYNC_OUTPUT) \
		|| echo "make: BENCHMARK FAILED: sync-bench exited with an error (see above)" | tee -a $(SYNC_OUTPUT)

# A newcomer's first build (Scripts/bench-build.sh): a package made by `appletkit new-applet`,
# cold and after one edit, beside a package on swift-argument-parser alone, built one after the
# other in the same run; the cold ratio has a budget. Run it on a machine doing nothing else.
BUILD_OUTPUT := $(TABS_DIR)/build.txt
bench-build: deps
	@mkdir -p $(TABS_DIR)
	$(SWIFT) build --package-path Demo $(SCRATCH) --product appletkit
	@Scripts/bench-build.sh $(BUILD)/debug/appletkit $(BUILD_OUTPUT) \
		|| echo "make: BENCHMARK FAILED: bench-build exited with an error (see above)" | tee -a $(BUILD_OUTPUT)

clean:
	rm -rf .build .build-* .build-fuzz Benchmarks/.build Benchmarks/.build-static Benchmarks/.build-demo Demo/.build $(addsuffix .build,$(APPLETS))

# ncursesw's headers and library (Debian: libncurses-dev).
deps:
	@if [ ! -e /usr/include/ncursesw/ncurses.h ] && [ ! -e /usr/include/ncurses.h ]; then \
		echo "make: the ncursesw headers (libncurses-dev) are missing; installing them with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libncurses-dev \
			|| { echo "make: could not install libncurses-dev; install it by hand (apt-get install libncurses-dev)"; exit 1; }; \
	fi

# The end-to-end tests drive the real binary inside tmux. The tests of SecureState in the desktop
# keyring start gnome-keyring on a private session bus (Scripts/test-keyring.sh: dbus-run-session,
# dbus-send), look into it with secret-tool, and load libsecret at run time as apps do (secret-tool
# brings libsecret-1-0 with it). Without recommends: gnome-keyring's would change the PAM setup.
# The sync tests start throwaway PostgreSQL servers (initdb, pg_ctl, postgres, psql under
# /usr/lib/postgresql/*/bin).
KEYRING_PACKAGES := dbus gnome-keyring libsecret-1-0 libsecret-tools
test-deps:
	@if ! command -v tmux >/dev/null 2>&1; then \
		echo "make: tmux is missing (the end-to-end tests need it); installing it with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux \
			|| { echo "make: could not install tmux; install it by hand (apt-get install tmux)"; exit 1; }; \
	fi
	@if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v dbus-send >/dev/null 2>&1 \
			|| ! command -v gnome-keyring-daemon >/dev/null 2>&1 || ! command -v secret-tool >/dev/null 2>&1; then \
		echo "make: the desktop keyring ($(KEYRING_PACKAGES)) is missing (the SecureState tests need it); installing it with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(KEYRING_PACKAGES) \
			|| { echo "make: could not install $(KEYRING_PACKAGES); install them by hand (apt-get install $(KEYRING_PACKAGES))"; exit 1; }; \
	fi
	@if ! ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
		echo "make: PostgreSQL's server programs are missing (the sync tests start a throwaway server); installing postgresql with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql \
			|| { echo "make: could not install postgresql; install it by hand (apt-get install postgresql)"; exit 1; }; \
	fi
