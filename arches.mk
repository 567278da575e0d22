# The CPUs that the stable toolchain serves no musl standard library for, each a static musl
# binary from `make ARCH` as ./unixbench-ARCH. Included by the Makefile.
#
#   make armv7 | armv6 | riscv64 | s390x | mipsel | mips | ppc64le
#                                            one binary
#   make arches                              all of them
#   make test-arches                         every target's tests under qemu-user (make test
#                                            runs the same for TEST_ARCHES, and checks that
#                                            CHECK_ARCHES compile)
#
# They are built by one pinned, dated nightly (here and nowhere else) with rust-src, which builds
# the standard library for the target (-Zbuild-std, aborting), and linked by Debian's cross gcc
# against musl (.cargo/config.toml says how). musl comes from Debian's musl-dev:ARCH where Debian
# has one, else it is built here from Debian's musl source package with the cross gcc, into
# target/musl/; nothing of musl is kept in the tree.
NIGHTLY := nightly-2026-10-29

ARCHES      := armv7 armv6 riscv64 s390x mipsel mips ppc64le
# make test builds and tests these; make test-arches every one (one 32-bit, one big-endian).
TEST_ARCHES := armv7 armv6 riscv64 s390x
# make test checks that these compile (no link, nothing run), so that every CPU make dist ships
# is built by make test in some form: MIPS has no 64-bit atomics, which broke it unseen once.
CHECK_ARCHES := mipsel mips ppc64le
# The unit tests, as a debug build under qemu-user, in make test and make test-arches. They
# unwind, with the cross gcc's libgcc_eh: not for armv6 (Debian's armhf libgcc is ARMv7 code).
# mips's is hard-float code, which saves FPU registers: qemu runs them as a 24Kf, which has one
# (ld warns of the soft- and hard-float mix; the unwinder passes no float between them). mips
# rather than mipsel: 32-bit, big-endian and without 64-bit atomics at once.
UNIT_ARCHES      := armv7 s390x
UNIT_ARCHES_ALL  := armv7 riscv64 s390x mips ppc64le

# Per target: rustc's triple, Debian's cross gcc prefix, where musl comes from (deb:DIR for
# Debian's musl-dev, src:CFLAGS to build it), the musl-dev package, qemu-user and its CPU.
armv7_TRIPLE   := armv7-unknown-linux-musleabihf
armv7_GCC      := arm-linux-gnueabihf-
armv7_MUSL     := deb:/usr/lib/arm-linux-musleabihf
armv7_DEBS     := gcc-arm-linux-gnueabihf musl-dev:armhf
armv7_QEMU     := qemu-arm-static
armv7_CPU      := max
# The dynamically linked twins of execl and spawn (crates/twin): what building them needs.
armv7_TWINS    := twin-deps-armv7

# ARMv6 with VFPv2, hard float (the Raspberry Pi 1 and Zero): Debian's armhf is ARMv7, so its
# musl and libgcc are not for it. musl is built for ARMv6 in ARM state; libgcc is left out
# (compiler-builtins, built with std, has what the code calls).
armv6_TRIPLE   := arm-unknown-linux-musleabihf
armv6_GCC      := arm-linux-gnueabihf-
armv6_MUSL     := src:-march=armv6 -mfpu=vfp -mfloat-abi=hard -marm
armv6_DEBS     := gcc-arm-linux-gnueabihf
armv6_QEMU     := qemu-arm-static
armv6_CPU      := arm1176

# Debian 12 has no riscv64 musl-dev (riscv64 is not one of its release architectures).
riscv64_TRIPLE := riscv64gc-unknown-linux-musl
riscv64_GCC    := riscv64-linux-gnu-
riscv64_MUSL   := src:
riscv64_DEBS   := gcc-riscv64-linux-gnu
riscv64_QEMU   := qemu-riscv64-static
riscv64_CPU    := rv64
riscv64_TWINS  := twin-deps-riscv64

# Big-endian, 64-bit.
s390x_TRIPLE   := s390x-unknown-linux-musl
s390x_GCC      := s390x-linux-gnu-
s390x_MUSL     := deb:/usr/lib/s390x-linux-musl
s390x_DEBS     := gcc-s390x-linux-gnu musl-dev:s390x
s390x_QEMU     := qemu-s390x-static
s390x_CPU      := max

# 32-bit MIPS, little- and big-endian (OpenWrt routers), soft float as rustc's targets are (most
# router CPUs have no FPU): Debian's musl-dev:mipsel and libgcc are hard-float, whose ABI passes
# doubles in FPU registers, so musl is built soft-float and libgcc left out (compiler-builtins
# has the soft-float routines). Debian 12 has no big-endian mips architecture at all. qemu's
# 24Kc is a MIPS32r2 core without an FPU. No 64-bit atomics (base::sys::signal::Count64).
mipsel_TRIPLE  := mipsel-unknown-linux-musl
mipsel_GCC     := mipsel-linux-gnu-
mipsel_MUSL    := src:-msoft-float
mipsel_DEBS    := gcc-mipsel-linux-gnu
mipsel_QEMU    := qemu-mipsel-static
mipsel_CPU     := 24Kc

mips_TRIPLE    := mips-unknown-linux-musl
mips_GCC       := mips-linux-gnu-
mips_MUSL      := src:-msoft-float
mips_DEBS      := gcc-mips-linux-gnu
mips_QEMU      := qemu-mips-static
mips_CPU       := 24Kc
mips_UNIT_CPU  := 24Kf

# POWER8 and later, little-endian (rustc's baseline for the target).
ppc64le_TRIPLE := powerpc64le-unknown-linux-musl
ppc64le_GCC    := powerpc64le-linux-gnu-
ppc64le_MUSL   := deb:/usr/lib/powerpc64le-linux-musl
ppc64le_DEBS   := gcc-powerpc64le-linux-gnu musl-dev:ppc64el
ppc64le_QEMU   := qemu-ppc64le-static
ppc64le_CPU    := power8
ppc64le_TWINS  := twin-deps-ppc64le

# s390x and 32-bit MIPS, the largest of these binaries, are linked by the nightly's own lld (through
# its gcc-ld wrapper, as x86_64's is by the stable toolchain's), which folds functions of identical
# code into one (--icf=all), where GNU ld has no such folding: 9.8 KB on s390x, 8.5 KB of mipsel's
# .text. On MIPS, .cargo/mips-no-pdr.ld drops the C library's .pdr sections, which GNU ld leaves
# out of an executable and lld would keep. The other CPUs, well within their bound, stay with GNU ld.
NIGHTLY_GCC_LD = $(shell rustup run $(NIGHTLY) rustc --print sysroot)/lib/rustlib/$(shell rustup run $(NIGHTLY) rustc -vV | sed -n 's/^host: //p')/bin/gcc-ld
NIGHTLY_LLD = "-Clink-arg=-B$(NIGHTLY_GCC_LD)", "-Clink-arg=-fuse-ld=lld", "-Clink-arg=-Wl,--icf=all"
s390x_LINK  = --config 'target.$(s390x_TRIPLE).rustflags = [$(NIGHTLY_LLD)]'
mipsel_LINK = --config 'target.$(mipsel_TRIPLE).rustflags = [$(NIGHTLY_LLD), "-Clink-arg=-Wl,-T,.cargo/mips-no-pdr.ld"]'
mips_LINK   = --config 'target.$(mips_TRIPLE).rustflags = [$(NIGHTLY_LLD), "-Clink-arg=-Wl,-T,.cargo/mips-no-pdr.ld"]'

empty :=
space := $(empty) $(empty)
# The nightly's builds have a directory of their own: make test runs them beside the stable
# toolchain's, and cargo locks a build directory for the whole of a build.
NTARGET := target/nightly
NCARGO := CARGO_TARGET_DIR=$(NTARGET) rustup run $(NIGHTLY) cargo
# std is built for the target: aborting, and with its `optimize_for_size` feature, which picks
# std's smaller implementations (its sorts above all; no timed loop sorts, and every result is
# the same). That is 90 KB on MIPS and POWER, which the features of this stop had pushed past
# 1 MiB (mipsel 1,089,156 bytes without it, 993,248 with it).
BUILD_STD := -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size

.PHONY: dist test-repro repro-check test-arches-part test-arches-deps twin-deps-armv7 twin-deps-riscv64 twin-deps-ppc64le arches test-arches nightly musl-src $(ARCHES) $(addprefix test-,$(ARCHES)) $(addprefix musl-,$(ARCHES))

arches: $(addprefix unixbench-,$(ARCHES))

# The pinned nightly and its standard library's source, once.
nightly:
	@rustup toolchain list 2>/dev/null | grep -q '^$(NIGHTLY)' || \
		rustup toolchain install $(NIGHTLY) --profile minimal --component rust-src
	@rustup component list --toolchain $(NIGHTLY) --installed 2>/dev/null | grep -q '^rust-src' || \
		rustup component add rust-src --toolchain $(NIGHTLY)

# Installs Debian packages named with an architecture (musl-dev:armhf), adding the
# architecture to dpkg first. As root; elsewhere says what is missing.
define need_multiarch
	@missing=; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "missing Debian packages:$$missing (install them as root)" >&2; exit 1; fi; \
		for p in $$missing; do case $$p in *:*) a=$${p#*:}; \
			dpkg --print-foreign-architectures | grep -qx $$a || dpkg --add-architecture $$a;; esac; done; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

# The twins link against each C library family with the cross gcc: the cross glibc, and musl's
# libc.so (Debian's musl-dev:armhf and :ppc64el; for riscv64 the one built here).
twin-deps-armv7:
	$(call need_multiarch,gcc-arm-linux-gnueabihf libc6-dev-armhf-cross musl-dev:armhf)
twin-deps-riscv64:
	$(call need_multiarch,gcc-riscv64-linux-gnu libc6-dev-riscv64-cross)
twin-deps-ppc64le:
	$(call need_multiarch,gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross musl-dev:ppc64el)

# Debian's musl source package, unpacked once under target/musl/src. apt needs a deb-src line
# for it: when there is none, one is made from the machine's own deb lines (same archive).
MUSL_SRC := target/musl/src/musl
$(MUSL_SRC)/configure:
	$(call need_debs,dpkg-dev)
	@if ! apt-get source --print-uris musl >/dev/null 2>&1; then \
		[ "$$(id -u)" = 0 ] || { echo "no deb-src line for apt to fetch musl's source with" >&2; exit 1; }; \
		for f in /etc/apt/sources.list.d/*.sources; do [ -f "$$f" ] && \
			sed 's/^Types: deb$$/Types: deb-src/' "$$f"; echo; done > /etc/apt/unixbench-deb-src.tmp && \
			mv /etc/apt/unixbench-deb-src.tmp /etc/apt/sources.list.d/unixbench-deb-src.sources; \
		[ -f /etc/apt/sources.list ] && sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/unixbench-deb-src.list; \
		apt-get update -qq; \
	fi
	rm -rf target/musl/src && mkdir -p target/musl/src
	cd target/musl/src && apt-get source --download-only musl 2>/dev/null && dpkg-source -x musl_*.dsc musl

# target/musl/TRIPLE/: crt1.o, crti.o, crtn.o and libc.a, an empty libunwind.a for the release
# link, and eh/libunwind.a (the cross gcc's libgcc_eh, a real unwinder) for the unit tests.
define musl_rules
target/musl/$($(1)_TRIPLE)/libc.a: $(if $(filter src:%,$($(1)_MUSL)),$(MUSL_SRC)/configure)
	$$(call need_multiarch,$($(1)_DEBS))
	rm -rf target/musl/$($(1)_TRIPLE) && mkdir -p target/musl/$($(1)_TRIPLE)/eh
ifneq ($(filter deb:%,$($(1)_MUSL)),)
	cp $(patsubst deb:%,%,$($(1)_MUSL))/crt1.o $(patsubst deb:%,%,$($(1)_MUSL))/crti.o \
		$(patsubst deb:%,%,$($(1)_MUSL))/crtn.o target/musl/$($(1)_TRIPLE)/
	cp $(patsubst deb:%,%,$($(1)_MUSL))/libc.a target/musl/$($(1)_TRIPLE)/libc.a.tmp
else
	rm -rf target/musl/build-$(1) && cp -r $(MUSL_SRC) target/musl/build-$(1)
	cd target/musl/build-$(1) && ./configure --target=$(patsubst %-,%,$($(1)_GCC)) \
		CC=$($(1)_GCC)gcc CFLAGS='$(patsubst src:%,%,$($(1)_MUSL))' $(if $($(1)_TWINS),,--disable-shared) \
		--prefix=/usr >/dev/null && $(MAKE) -s -j2 lib/libc.a lib/crt1.o lib/crti.o lib/crtn.o \
		$(if $($(1)_TWINS),lib/libc.so lib/Scrt1.o)
	cp target/musl/build-$(1)/lib/crt1.o target/musl/build-$(1)/lib/crti.o \
		target/musl/build-$(1)/lib/crtn.o target/musl/$($(1)_TRIPLE)/
ifneq ($($(1)_TWINS),)
	mkdir -p target/musl/$($(1)_TRIPLE)/so
	cp target/musl/build-$(1)/lib/libc.so target/musl/build-$(1)/lib/Scrt1.o \
		target/musl/build-$(1)/lib/crti.o target/musl/build-$(1)/lib/crtn.o target/musl/$($(1)_TRIPLE)/so/
endif
	cp target/musl/build-$(1)/lib/libc.a target/musl/$($(1)_TRIPLE)/libc.a.tmp
endif
	$($(1)_GCC)ar rc target/musl/$($(1)_TRIPLE)/libunwind.a
ifneq ($(filter $(1),$(UNIT_ARCHES_ALL)),)
	cp "$$$$($($(1)_GCC)gcc -print-file-name=libgcc_eh.a)" target/musl/$($(1)_TRIPLE)/eh/libunwind.a
	if $($(1)_GCC)nm target/musl/$($(1)_TRIPLE)/eh/libunwind.a 2>/dev/null | grep -q ' U _dl_find_object'; then \
		$($(1)_GCC)gcc -O2 -ffreestanding -c .cargo/dl_find_object.c -o target/musl/$($(1)_TRIPLE)/eh/dl_find_object.o && \
		$($(1)_GCC)ar r target/musl/$($(1)_TRIPLE)/eh/libunwind.a target/musl/$($(1)_TRIPLE)/eh/dl_find_object.o; fi
endif
	mv target/musl/$($(1)_TRIPLE)/libc.a.tmp $$@

musl-$(1): target/musl/$($(1)_TRIPLE)/libc.a

unixbench-$(1): target/musl/$($(1)_TRIPLE)/libc.a nightly $(if $($(1)_TWINS),$($(1)_TWINS)) FORCE
	$(if $(filter src:%,$($(1)_MUSL)),$(if $($(1)_TWINS),UNIXBENCH_TWIN_MUSL_LIB=$(CURDIR)/target/musl/$($(1)_TRIPLE)/so)) \
		$(NCARGO) build --release --locked --target $($(1)_TRIPLE) $(call std_for_size,$($(1)_TRIPLE)) $(call remap,$($(1)_TRIPLE)) \
		$$($(1)_LINK)
	cp $(NTARGET)/$($(1)_TRIPLE)/release/unixbench $$@

$(1): unixbench-$(1)
endef
$(foreach a,$(ARCHES),$(eval $(call musl_rules,$(a))))

# What the tests of these binaries need: qemu-user, and binfmt_misc entries for each CPU so
# that an emulated program can exec another (the driver execs its kernels, execl itself); the
# entries are Debian's, registered as root when missing (the aarch64 one is test-deps').
QEMU_BINFMT := arm riscv64 s390x mipsel mips ppc64le
test-arches-deps:
	$(call need_debs,qemu-user-static)
	@if [ "$$(id -u)" = 0 ]; then \
		[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true; \
		for q in $(QEMU_BINFMT); do \
			[ -e /proc/sys/fs/binfmt_misc/qemu-$$q ] || [ ! -f /usr/lib/binfmt.d/qemu-$$q.conf ] || \
				cat /usr/lib/binfmt.d/qemu-$$q.conf > /proc/sys/fs/binfmt_misc/register 2>/dev/null || true; \
		done; \
	else echo "test-arches-deps: not root: binfmt_misc entries not registered; the tests that exec say so"; fi

# NAME:QEMU:CPU:PATH, what tests/it/arches.rs reads from UNIXBENCH_ARCHES.
arch_entries = $(foreach a,$(1),$(a):$($(a)_QEMU):$($(a)_CPU):$(CURDIR)/unixbench-$(a))
upper = $(shell echo '$(1)' | tr 'a-z-' 'A-Z_')

# The binaries under qemu-user: static, within 1 MiB less 32 KiB, every kernel, a short index.
test-arches-it-%: test-arches-deps FORCE
	UNIXBENCH_ARCHES='$(call arch_entries,$(subst +, ,$*))' \
		UNIXBENCH_RISCV64_MUSL_SO=$(CURDIR)/target/musl/$(riscv64_TRIPLE)/so/libc.so \
		UNIXBENCH_NO_SKIP=1 $(CARGO) test --locked --test it arches::

# Every crate's unit tests as a debug build for a target, under qemu-user: a 32-bit one finds
# usize overflows (a debug build panics on each), a big-endian one byte-order bugs. They unwind
# (should_panic tests), so they link the cross gcc's unwinder (target/musl/TRIPLE/eh) rather than
# the empty one of the release link, and std is built with its test harness.
.SECONDEXPANSION:
# One test at a time: qemu-user can deadlock or crash in a child forked while another of the
# harness's threads holds one of qemu's own locks (seen on s390x in CI), and the exec tests fork.
unit-%: target/musl/$$($$*_TRIPLE)/libc.a nightly test-arches-deps FORCE
	RUST_TEST_THREADS=1 CARGO_TARGET_$(call upper,$($*_TRIPLE))_RUNNER='$($*_QEMU) -cpu $(or $($*_UNIT_CPU),$($*_CPU))' \
		QEMU_CPU=$(or $($*_UNIT_CPU),$($*_CPU)) \
		$(NCARGO) test --locked --workspace --lib --bins --target $($*_TRIPLE) -Zbuild-std \
		--config 'target.$($*_TRIPLE).rustflags = ["-L", "native=target/musl/$($*_TRIPLE)/eh"]'

# A check build of one target (CHECK_ARCHES): its code compiles, std built for it as the
# binary's is, the twins built where the target has them.
check-arch-%: nightly $$(if $$($$*_TWINS),$$($$*_TWINS)) FORCE
	$(NCARGO) check --locked --target $($*_TRIPLE) -Zbuild-std=std,panic_abort

# make test's part: each binary of TEST_ARCHES under qemu, the unit tests of one 32-bit and
# one big-endian target (UNIT_ARCHES, above), and the check builds of CHECK_ARCHES. make
# test-arches: every target, and the unit tests of UNIT_ARCHES_ALL.
test-arches-part: $(addprefix unixbench-,$(TEST_ARCHES))
	$(MAKE) test-arches-it-$(subst $(space),+,$(TEST_ARCHES)) $(addprefix unit-,$(UNIT_ARCHES)) \
		$(addprefix check-arch-,$(CHECK_ARCHES))

test-arches: $(addprefix unixbench-,$(ARCHES))
	$(MAKE) test-arches-it-$(subst $(space),+,$(ARCHES)) $(addprefix unit-,$(UNIT_ARCHES_ALL))

# Every binary into dist/, named by its CPU, with their SHA-256 sums.
DIST_BINS := unixbench unixbench-aarch64 unixbench-i686 $(addprefix unixbench-,$(ARCHES))
dist: $(DIST_BINS)
	rm -rf dist && mkdir dist
	cp unixbench dist/unixbench-x86_64
	for b in $(filter-out unixbench,$(DIST_BINS)); do cp $$b dist/; done
	cd dist && sha256sum unixbench-* > SHA256SUMS && wc -c unixbench-*

# The build is reproducible: the committed tree, cloned to another path (of another length),
# builds to the same bytes as this tree's ./unixbench. (The paths of a build never reach the
# binary: cargo names the workspace's sources relatively, and the toolchain's and the
# registry's are remapped by the Makefile's `remap`.) Compares the x86_64 binary, which this tree's make test has built.
# (The clone is made outside this tree: cargo would also read this tree's .cargo/config.toml
# from a directory below it, and take every rustflag twice.)
test-repro: unixbench
	$(MAKE) repro-check

# test-repro's check, of the ./unixbench already built (make test builds it once, first).
repro-check:
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/unixbench-repro.XXXXXX") || exit 1; trap 'rm -rf "$$d"' EXIT; \
	git diff --quiet HEAD -- || echo "test-repro: the tree has uncommitted changes; the clone builds HEAD" >&2; \
	git clone -q --no-hardlinks . "$$d/a-clone-at-another-path" && \
	$(MAKE) -C "$$d/a-clone-at-another-path" unixbench && \
	cmp unixbench "$$d/a-clone-at-another-path/unixbench" && \
	echo "test-repro: the same bytes from two trees: $$(sha256sum < unixbench | cut -c1-16)"
