# AppletKit: `make run` builds and launches the demo host, `make test` builds and runs every test.
# Missing system packages (libncurses-dev, pkg-config, tmux) are installed with apt-get.

SWIFT ?= swift
ARGS ?=
# apt-get needs root: use sudo when we are not root and it exists.
SUDO := $(shell if [ "$$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then echo sudo; fi)

.PHONY: run build test bench clean deps test-deps

run: build
	./.build/debug/appletkit $(ARGS)

build: deps
	$(SWIFT) build

test: deps test-deps
	$(SWIFT) build
	$(SWIFT) test

# Release-build benchmarks (ordo-one/benchmark) printing figures; see Benchmarks/.
bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress --target StoreBenchmarks --target UIBenchmarks

clean:
	rm -rf .build .build-* Benchmarks/.build

# ncursesw headers and library, found through pkg-config (Debian: libncurses-dev).
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists ncursesw; then \
		echo "make: ncursesw (libncurses-dev) or pkg-config is missing; installing them with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libncurses-dev pkg-config \
			|| { echo "make: could not install libncurses-dev; install it by hand (apt-get install libncurses-dev pkg-config)"; exit 1; }; \
	fi

# The end-to-end tests drive the real binary inside tmux.
test-deps:
	@if ! command -v tmux >/dev/null 2>&1; then \
		echo "make: tmux is missing (the end-to-end tests need it); installing it with apt-get..."; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux \
			|| { echo "make: could not install tmux; install it by hand (apt-get install tmux)"; exit 1; }; \
	fi
