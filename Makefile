# unixbench: plain targets, each doing all of its own set-up on a fresh machine.
#
#   make              build ./unixbench, static, for x86_64-unknown-linux-musl
#   make run          build and run the standard benchmark (the index, 1 and N copies)
#   make test         build and run every test of every crate (what .ci/run calls)
#   make check        the fast loop: fmt, clippy, the tests that need nothing installed
#   make aarch64      cross-build ./unixbench-aarch64, static (linked by rust-lld)
#   make i686         build ./unixbench-i686, static, for 32-bit x86 (i686-unknown-linux-musl)
#   make armv7 | armv6 | riscv64 | s390x | mipsel | mips | ppc64le
#                     ./unixbench-ARCH, static, on the pinned nightly
#                     (arches.mk); make test-arches tests them all under qemu-user
#   make dist         every binary into dist/ with SHA256SUMS; make test-repro checks that
#                     the x86_64 build is reproducible
#   make install      install into $(PREFIX)/bin, with the man page unixbench(1) and the bash,
#                     zsh and fish completions under $(PREFIX)/share; LINKS=1 also makes
#                     the applet symlinks
#   make bench C=DIR  our kernels against the C UnixBench programs built in DIR (its pgms/)
#   make graphics     build ./unixbench-graphics (glibc, Xlib/GLX; the 2D and 3D applets)
#   make test-graphics    the graphics tests under Xvfb with Mesa's software GL
#   make bench-graphics [UBGEARS=PATH] [GREPEAT=3 GTIME=2 GROUNDS=3]
#                     each 2D workload against x11perf, ubgears against a C ubgears at PATH
#   make bench-lmbench L=DIR  our lmbench figures against lmbench's programs in DIR

CARGO   ?= cargo
TARGET  := x86_64-unknown-linux-musl
ARM     := aarch64-unknown-linux-musl
X86     := i686-unknown-linux-musl
PREFIX  ?= /usr/local
LINKS   ?= 0

GTARGET := x86_64-unknown-linux-gnu
# The playbook's test runs ansible-core from PyPI in a virtualenv of its own.
VENV    := target/ansible-venv
ANSIBLE := ansible-core==2.19.14
UBGEARS ?= -
GREPEAT ?= 3
GTIME   ?= 2
GROUNDS ?= 3

# The paths of this machine's Rust and cargo homes (the standard library's and the registry
# crates' sources) are named in the binary's panic locations; mapped to fixed names, the bytes of
# a build do not depend on where the tools are (make test-repro). Appended to the target's
# rustflags of .cargo/config.toml (cargo joins the arrays).
remap = --config 'target.$(1).rustflags = ["--remap-path-prefix=$(or $(CARGO_HOME),$(HOME)/.cargo)=/cargo", "--remap-path-prefix=$(or $(RUSTUP_HOME),$(HOME)/.rustup)=/rustup"]'

.PHONY: all run check test test-lane-stable test-lane-arches test-deps test-i686 twin-deps twin-deps-arm aarch64 i686 install bench clean graphics test-graphics bench-graphics bench-lmbench FORCE

all: unixbench

# Adds a rustup target when it is missing (a fresh machine has only the host's).
define need_target
	@rustup target list --installed 2>/dev/null | grep -qx '$(1)' || rustup target add '$(1)'
endef

# The dynamically linked twins of C's execl and spawn (twin/, built by build.rs) are linked by
# the C compiler against each C library family: gcc and Debian's musl-dev for x86_64, and for
# aarch64 the cross gcc, the cross glibc and musl-dev:arm64 (which needs dpkg's arm64
# architecture). Installed as root when missing; elsewhere the build says what is missing.
# (musl's packages are named with their architecture, which stays unambiguous once arm64's are in.)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
X86_TWIN_DEBS := gcc binutils musl:$(DEB_ARCH) musl-dev:$(DEB_ARCH)
ARM_TWIN_DEBS := gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross

twin-deps:
	$(call need_debs,$(X86_TWIN_DEBS))

twin-deps-arm:
	$(call need_debs,$(ARM_TWIN_DEBS))
	@if ! dpkg -s musl-dev:arm64 >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq musl:arm64 musl-dev:arm64; \
		else echo "twin-deps-arm: musl-dev:arm64 is missing (as root: dpkg --add-architecture arm64; apt-get install musl-dev:arm64)" >&2; exit 1; fi; \
	fi

# The standard library is built from source for this binary, for size (docs/SIZE.md): aborting,
# with std's `optimize_for_size` feature (its smaller sorts and formatting), and with no file
# and line in panic messages (a panic is a bug either way; its message still prints). The
# compiler is the same stable one, so no timed loop's code moves (bench/disasm.py); with no
# Debug formatting (-Zfmt-debug=none: no output of ours prints a value's Debug form); its unstable
# build options are taken by RUSTC_BOOTSTRAP, here and nowhere else. The sources come with
# rustup's rust-src component, added when missing. The `std` crate itself is built at opt-level
# "z", as the cold crates are: its code is the file system, the environment, I/O and the runtime,
# none of it in a timed loop (bench/disasm.py finds the kernels' and lmbench's timed loops
# unchanged). `core` and `alloc` stay at the profile's 3: their generic code, optimised as MIR
# when they are built, is instantiated inside the timed loops (bw_mem's write loop moved with them).
# (The x86 and aarch64 builds on the stable toolchain, and arches.mk's on the nightly.)
std_for_size = -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
	--config 'target.$(1).rustflags = ["-Zlocation-detail=none", "-Zfmt-debug=none"]' \
	--config 'profile.release.package.std.opt-level = "z"'
# The x86_64 binary is linked by the toolchain's own lld (through its gcc-ld wrapper), which
# folds functions of identical code into one (--icf=all) and keeps read-only data in the text
# segment (--no-rosegment, as -z noseparate-code does for GNU ld): 8 KB (docs/SIZE.md).
GCC_LD = $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin/gcc-ld
lld_icf = --config 'target.$(1).rustflags = ["-Clink-arg=-B$(GCC_LD)", "-Clink-arg=-fuse-ld=lld", \
	"-Clink-arg=-Wl,--icf=all", "-Clink-arg=-Wl,--no-rosegment"]'
# aarch64 is linked by rust-lld called directly, which takes the linker's options bare (no -Wl,):
# the same measures as x86_64's link (.cargo/config.toml): functions of identical code folded,
# no unwind tables (the script beside the config: a panic=abort binary without an unwinder never
# reads them) nor their lookup table, no build id. 118 KB of unwind tables were left in before.
lld_arm = --config 'target.$(1).rustflags = ["-Clink-arg=--icf=all", "-Clink-arg=--no-eh-frame-hdr", \
	"-Clink-arg=-T.cargo/no-unwind-tables.ld", "-Clink-arg=--build-id=none"]'
need_rust_src = @rustup component list --installed 2>/dev/null | grep -q '^rust-src' || rustup component add rust-src

unixbench: twin-deps FORCE
	$(call need_target,$(TARGET))
	$(need_rust_src)
	RUSTC_BOOTSTRAP=1 $(CARGO) build --release --locked --target $(TARGET) $(call std_for_size,$(TARGET)) $(call lld_icf,$(TARGET)) $(call remap,$(TARGET))
	cp target/$(TARGET)/release/unixbench $@
	@echo "$@: $$(wc -c < $@) bytes"

# Installs the Debian packages named when any is missing (graphics needs headers, Xvfb, Mesa);
# not as root, says in one line what is missing.
define need_debs
	@missing=; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "missing Debian packages:$$missing (as root: apt-get install$$missing)" >&2; exit 1; fi; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

unixbench-graphics: twin-deps FORCE
	$(call need_debs,libx11-dev libxrender-dev libxft-dev libgl-dev)
	$(call need_target,$(GTARGET))
	$(CARGO) build --release --locked --features graphics --target $(GTARGET)
	cp target/$(GTARGET)/release/unixbench $@

graphics: unixbench-graphics

# xvfb-run -a picks a free display and stops the server afterwards. The test program is the main
# phase's (tests/it/graphics.rs tests the build it is given).
test-graphics: unixbench-graphics
	$(call need_debs,xvfb xauth libgl1-mesa-dri xfonts-base fonts-dejavu-core)
	$(CARGO) clippy --locked --workspace --features graphics --all-targets -- -D warnings
	UNIXBENCH_GRAPHICS_BIN=$(CURDIR)/unixbench-graphics LIBGL_ALWAYS_SOFTWARE=1 \
		xvfb-run -a -s '-screen 0 1280x1024x24 -nolisten tcp' \
		$(CARGO) test --locked --test it graphics -- --test-threads=1

bench-graphics: unixbench-graphics
	$(call need_debs,xvfb libgl1-mesa-dri xfonts-base fonts-dejavu-core x11-apps)
	sh bench/graphics.sh ./unixbench-graphics "$(UBGEARS)" $(GREPEAT) $(GTIME) $(GROUNDS)

unixbench-aarch64: twin-deps-arm FORCE
	$(call need_target,$(ARM))
	$(need_rust_src)
	RUSTC_BOOTSTRAP=1 CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=rust-lld \
		$(CARGO) build --release --locked --target $(ARM) $(call std_for_size,$(ARM)) $(call lld_arm,$(ARM)) \
		$(call remap,$(ARM))
	cp target/$(ARM)/release/unixbench $@

aarch64: unixbench-aarch64

unixbench-i686: FORCE
	$(call need_target,$(X86))
	$(need_rust_src)
	RUSTC_BOOTSTRAP=1 $(CARGO) build --release --locked --target $(X86) $(call std_for_size,$(X86))
	cp target/$(X86)/release/unixbench $@

i686: unixbench-i686

# The i686 build on this machine: natively where the kernel runs 32-bit binaries (IA32
# emulation), else skipped with one line. Its unit tests (a debug build: every arithmetic
# overflow of a 32-bit usize panics), and the integration tests where the 32-bit binary can
# differ from x86_64's: its kernels' counts, lmbench's sizes, the limits, and the short index
# in a BusyBox root, which takes the driver through a whole run. (The driver's other modules
# run its same code; the main phase runs them.)
I686_IT := cpu_kernels:: os_kernels:: lmbench:: limits:: rigs::busybox_root
test-i686: unixbench-i686
	@if ./unixbench-i686 --version >/dev/null 2>&1; then \
		echo "i686: unit tests, then the kernels' and driver's integration tests"; \
		$(CARGO) clippy --locked --workspace --target $(X86) --all-targets -- -D warnings && \
		$(CARGO) test --locked --workspace --target $(X86) --lib --bins && \
		UNIXBENCH_BIN=$(CURDIR)/unixbench-i686 $(CARGO) test --locked --test it -- $(I686_IT); \
	else echo "test-i686: skipped: this kernel does not run 32-bit x86 binaries (no IA32 emulation)"; fi

run: unixbench
	./unixbench

# The contributor's fast loop: formatting, lints, and every unit and integration test against
# the debug build. It needs what any build needs, the twins' C compiler and musl (twin-deps,
# installed as root, else named in one line) and Rust's musl target; what a test needs beyond
# that (root, Debian's packages, another CPU) it says in one line that it skipped. make test,
# which installs all of it, lets nothing skip.
check: twin-deps
	$(call need_target,$(TARGET))
	$(CARGO) fmt --all --check
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings
	$(CARGO) test --locked --workspace

# Two lanes side by side (make -j2; cargo holds a build directory's lock for a whole build, so
# the pinned nightly's lane builds in target/nightly and test-repro's clone in its own): the
# stable toolchain's builds and tests, and the other CPUs' with the reproducibility check. Then the
# tests that need the machine to themselves (a CPU hog beside the copies, then none), one at a
# time after every other.
test: test-deps $(VENV)/bin/ansible-playbook
	$(MAKE) -j2 --output-sync=line --no-print-directory test-lane-stable test-lane-arches
	UNIXBENCH_BIN=$(CURDIR)/unixbench UNIXBENCH_NO_SKIP=1 $(CARGO) test --locked --test it -- --ignored --test-threads=1

test-lane-stable: unixbench unixbench-aarch64
	$(CARGO) fmt --all --check
	rustfmt --check --edition 2021 crates/twin/programs/execl.rs crates/twin/programs/spawn.rs
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings
	UNIXBENCH_BIN=$(CURDIR)/unixbench UNIXBENCH_AARCH64_BIN=$(CURDIR)/unixbench-aarch64 \
		UNIXBENCH_ANSIBLE_PLAYBOOK=$(CURDIR)/$(VENV)/bin/ansible-playbook UNIXBENCH_NO_SKIP=1 \
		$(CARGO) test --locked --workspace -- --skip arches::
	$(MAKE) test-i686
	$(MAKE) test-graphics

# The reproducibility check compares with the ./unixbench the other lane builds first.
test-lane-arches: unixbench
	$(MAKE) test-arches-part
	$(MAKE) repro-check

# What the rigs of the tests need from the host: a static BusyBox for the minimal-root rig,
# qemu-user for the aarch64 binary, binfmt_misc so that the emulated driver can exec its
# emulated kernels, arm64's glibc (multiarch: its loader at /lib/ld-linux-aarch64.so.1) so
# that the aarch64 glibc twin of execl and spawn has a loader to run on, and libseccomp's
# Python bindings for the old-kernel rig (its filter answers ENOSYS to the system calls newer
# than 3.2), and chromium, whose headless mode lays out the HTML pages' charts and screenshots
# them into target/screenshots/ (`make test` requires it: UNIXBENCH_NEED_CHROMIUM), and man,
# zsh and fish, which read the manual page and the completions the binary prints. Only as root
# with apt; otherwise those rigs say they were skipped.
test-deps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		need=""; \
		[ -x /bin/busybox ] || need="$$need busybox-static"; \
		command -v qemu-aarch64-static >/dev/null || need="$$need qemu-user-static"; \
		dpkg -s libc6:arm64 >/dev/null 2>&1 || need="$$need libc6:arm64"; \
		dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64; \
		/usr/bin/python3 -c 'import seccomp' 2>/dev/null || need="$$need python3 python3-seccomp"; \
		command -v chromium >/dev/null || need="$$need chromium"; \
		command -v man >/dev/null || need="$$need man-db"; \
		command -v zsh >/dev/null || need="$$need zsh"; \
		command -v fish >/dev/null || need="$$need fish"; \
		if [ -n "$$need" ]; then \
			echo "installing:$$need"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$need >/dev/null; \
		fi; \
		if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ]; then \
			[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true; \
			cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register 2>/dev/null || true; \
		fi; \
	else echo "test-deps: not root or no apt-get: the rigs that need busybox, qemu or root will skip"; fi

# ansible-core for the playbook's test (contrib/ansible/), from PyPI into a local virtualenv.
$(VENV)/bin/ansible-playbook:
	$(call need_debs,python3-venv)
	/usr/bin/python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q '$(ANSIBLE)'

# The manual page and the completions are printed by the binary just built, from its option table.
SHARE   = $(DESTDIR)$(PREFIX)/share
install: unixbench
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(SHARE)/man/man1' '$(SHARE)/bash-completion/completions' \
		'$(SHARE)/zsh/site-functions' '$(SHARE)/fish/vendor_completions.d'
	install -m 0755 unixbench '$(DESTDIR)$(PREFIX)/bin/unixbench'
	./unixbench --man > '$(SHARE)/man/man1/unixbench.1'
	./unixbench --completions bash > '$(SHARE)/bash-completion/completions/unixbench'
	./unixbench --completions zsh > '$(SHARE)/zsh/site-functions/_unixbench'
	./unixbench --completions fish > '$(SHARE)/fish/vendor_completions.d/unixbench.fish'
	if [ '$(LINKS)' = 1 ]; then '$(DESTDIR)$(PREFIX)/bin/unixbench' --install -s '$(DESTDIR)$(PREFIX)/bin'; fi

bench: unixbench
	@[ -n "$(C)" ] || { echo "make bench: set C=DIR, the UnixBench directory whose pgms/ holds the C programs" >&2; exit 2; }
	sh bench/fidelity.sh ./unixbench "$(C)"

clean:
	$(CARGO) clean
	rm -f unixbench unixbench-aarch64 unixbench-i686 unixbench-graphics $(addprefix unixbench-,$(ARCHES))
	rm -rf dist

# Our lmbench figures against lmbench's programs built in DIR (its bin/<arch>/), alternating.
bench-lmbench: unixbench
	@[ -n "$(L)" ] || { echo "make bench-lmbench: set L=DIR, the directory of lmbench's built programs" >&2; exit 2; }
	sh bench/lmbench.sh ./unixbench "$(L)" $(ROUNDS)

# armv7, armv6, riscv64, s390x, mipsel, mips, ppc64le: the pinned nightly, -Zbuild-std and
# Debian's cross gcc and musl (arches.mk).
include arches.mk
