# SPDX-License-Identifier: GPL-2.0-or-later
# vmsift: build the library, the command-line program and the test tools.
#   make            build lib/libvmsift.a, lib/libvmsift.so and ./vmsift
#   make static     build ./vmsift-static (for capture-kernel initramfs)
#   make check      run the whole test suite (tests/run)
#   make demo       dump the vmcore the repo carries, print the report
#   make sanitize   the ASan+UBSan and TSan runs and the fuzz corpus replay
#                   (part of make check too)
#   make fuzz       fuzz every target longer (TIME=seconds a target)
#   make bench      vmsift against makedumpfile (bench/run; doc/performance.md)

PREFIX  ?= /usr/local
CC      ?= cc
OPT     ?= -O2 -g
include vmsift.mk
# The .pc file's Requires.private: the codecs, and libdw (-x, -g).
PKGS     = $(VMSIFT_PKGS) libdw
CFLAGS  += $(OPT) $(VMSIFT_WARN) $(VMSIFT_STD) -fPIC $(VMSIFT_VISIBILITY) \
           $(VMSIFT_CPPFLAGS)
LDLIBS  += $(VMSIFT_LDLIBS)

LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_OBJ := $(LIB_SRC:.c=.o)
CLI_SRC := $(sort $(wildcard cli/*.c))
CLI_OBJ := $(CLI_SRC:.c=.o)
HDRS    := include/vmsift.h $(wildcard lib/*.h) $(wildcard cli/*.h)
# Everything compiled depends on build/cc.flags: a change of CC, CFLAGS,
# LDFLAGS or LDLIBS (WERROR=1 too) rebuilds it (vmsift.mk).
STAMP   := build/cc.flags
VMSIFT_FLAGS_TEXT = $(CC) $(CROSS_CPPFLAGS) $(CFLAGS) $(CROSS_LDFLAGS) $(LDFLAGS) $(LDLIBS)

all: vmsift lib/libvmsift.so

# The libraries are remade when lib/'s list of files changes (a stamp of
# the list), and afresh: 'ar r' alone would keep the member of a file
# since removed.
build/objs.flags: VMSIFT_FLAGS_TEXT = $(LIB_OBJ)
lib/libvmsift.a: $(LIB_OBJ) build/objs.flags
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# The shared library exports only what include/vmsift.h marks VMSIFT_API
# (-fvisibility=hidden), under the version node of lib/libvmsift.map.
lib/libvmsift.so: $(LIB_OBJ) lib/libvmsift.map $(STAMP) build/objs.flags
	$(CC) -shared -Wl,-soname,libvmsift.so.0 -Wl,--version-script=lib/libvmsift.map \
		-o $@ $(LIB_OBJ) $(LDFLAGS) $(LDLIBS)
	ln -sf libvmsift.so lib/libvmsift.so.0  # its SONAME, for programs run in the tree

%.o: %.c $(HDRS) $(STAMP)
	$(CC) $(CFLAGS) -c -o $@ $<

# vmsift mount (cli/mount.c) links libfuse3 dynamically when pkg-config
# finds it; without it, and in the static builds, mount says it is absent.
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS   := $(shell pkg-config --libs fuse3 2>/dev/null)
ifneq ($(FUSE_LIBS),)
cli/mount.o: CFLAGS += -DVMSIFT_FUSE=1 $(FUSE_CFLAGS)
endif

vmsift: $(CLI_OBJ) lib/libvmsift.a $(STAMP)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) lib/libvmsift.a $(LDFLAGS) $(LDLIBS) $(FUSE_LIBS)

# vmsift-static.ARCH (aarch64, ppc64le, s390x, riscv64): the same, cross-
# compiled with Debian's ARCH-linux-gnu-gcc (powerpc64le-linux-gnu-gcc for
# ppc64le) and linked against the codec libraries of a sysroot that
# tools/cross-sysroot DEBARCH unpacks (apt-get download, dpkg -x) into
# $(VMSIFT_CACHE)/sysroot-DEBARCH: the host needs only the cross compiler
# and its libstdc++ (tools/install-deps), no foreign -dev package.  The
# sysroot's headers and libraries come first, before the host's.  Each
# has its own flags stamp, build/ARCH.flags, so that building it leaves
# the host's alone.  The static builds leave DWARF out (VMSIFT_NO_DWARF, no
# libdw): -x and -g there fail with "built without DWARF (libdw)".
VMSIFT_CACHE  ?= $(VMSIFT_TOP)tests/work/cache
CROSS_ARCHS   := aarch64 ppc64le s390x riscv64
cross_gnu      = $(patsubst ppc64le,powerpc64le,$(1))-linux-gnu
cross_deb      = $(patsubst aarch64,arm64,$(patsubst ppc64le,ppc64el,$(1)))
cross_sysroot  = $(VMSIFT_CACHE)/sysroot-$(call cross_deb,$(1))
define cross_static
vmsift-static.$(1): CC = $(call cross_gnu,$(1))-gcc
vmsift-static.$(1): CROSS_CPPFLAGS = -I$(call cross_sysroot,$(1))/usr/include \
	-I$(call cross_sysroot,$(1))/usr/include/$(call cross_gnu,$(1)) \
	-I$(call cross_sysroot,$(1))/usr/include/lzo
vmsift-static.$(1): CROSS_LDFLAGS = -L$(call cross_sysroot,$(1))/usr/lib/$(call cross_gnu,$(1))
vmsift-static.$(1): $(CLI_SRC) $(LIB_SRC) $(HDRS) build/$(1).flags \
		$(call cross_sysroot,$(1))/.complete
endef
$(foreach a,$(CROSS_ARCHS),$(eval $(call cross_static,$(a))))
vmsift-static.riscv64: COMPAT_SRC = tools/compat/isoc23.c

$(VMSIFT_CACHE)/sysroot-%/.complete: tools/cross-sysroot
	VMSIFT_CACHE=$(VMSIFT_CACHE) tools/cross-sysroot $*

vmsift-static: $(CLI_SRC) $(LIB_SRC) $(HDRS) $(STAMP)
vmsift-static $(CROSS_ARCHS:%=vmsift-static.%):
	$(CC) $(CROSS_CPPFLAGS) $(CFLAGS) -DVMSIFT_NO_DWARF -DVMSIFT_NO_BTF -DVMSIFT_CRYPTO_LINKED \
		-static -o $@ $(CLI_SRC) $(LIB_SRC) $(COMPAT_SRC) $(CROSS_LDFLAGS) $(LDFLAGS) \
		$(filter-out $(VMSIFT_DW_LIBS) -lbpf,$(LDLIBS)) $(VMSIFT_CRYPTO_LIBS) -lz -lstdc++ -lm
# (static snappy is C++; no libbpf in the sysroots, see typeinfo_btf.c; no
# dlopen in a static program: libcrypto linked, lib/crypto.h; -lz again
# after -lcrypto: trixie's static libcrypto, riscv64's, calls zlib)

bench/ceiling: bench/ceiling.c lib/libvmsift.a $(STAMP)
	$(CC) $(CFLAGS) -o $@ bench/ceiling.c lib/libvmsift.a $(LDFLAGS) $(LDLIBS)

# The generator of bench/mkscale's series and of tests/suites/mkbig.sh
tests/gen/mkbig: tests/gen/mkbig.c $(STAMP)
	$(CC) $(CFLAGS) -o $@ tests/gen/mkbig.c

static: vmsift-static

# tests/run builds with WERROR=1 itself; the flags stamp makes that a
# rebuild from clean when the last build had other flags.
check:
	tests/run

demo: vmsift
	tools/demo

sanitize:
	VMSIFT_TESTS='^(sanitize|asan|tsan|fuzz)' tests/run

TIME ?= 600
fuzz:
	$(MAKE) -C tests/fuzz fuzz TIME=$(TIME)

bench: vmsift
	bench/run

# make e2e-kdump-tools: vmsift's Debian packages under Debian 12's own
# kdump-tools in a QEMU guest, then Debian's makedumpfile in the same
# guest (doc/dropin.md's table), then a stub in vmsift's place, which
# must fail the checks (tests/harness/kdump-tools-e2e, doc/testing.md).
e2e-kdump-tools:
	tests/harness/kdump-tools-e2e --tool vmsift
	tests/harness/kdump-tools-e2e --tool makedumpfile
	tests/harness/kdump-tools-e2e --tool stub --expect-fail --debs tests/work/debs

clean:
	rm -f lib/*.o cli/*.o lib/libvmsift.a lib/libvmsift.so lib/libvmsift.so.0 \
		vmsift vmsift-static $(CROSS_ARCHS:%=vmsift-static.%) \
		bench/ceiling tests/gen/mkbig
	rm -rf build

# make install [DESTDIR=...] [PREFIX=/usr]: the command in sbin (where
# makedumpfile lives), the libraries with SONAME libvmsift.so.0, the
# header, vmsift.pc and the manual page.  make uninstall removes them.
BINDIR     ?= $(PREFIX)/sbin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
DATADIR    ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL    ?= install
VERSION    := $(shell sed -n 's/^\#define VMSIFT_VERSION_STRING "\(.*\)"/\1/p' include/vmsift.h)

install: vmsift lib/libvmsift.a lib/libvmsift.so
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man8
	$(INSTALL) -m 755 vmsift $(DESTDIR)$(BINDIR)/vmsift
	$(INSTALL) -m 644 lib/libvmsift.a $(DESTDIR)$(LIBDIR)/libvmsift.a
	$(INSTALL) -m 755 lib/libvmsift.so $(DESTDIR)$(LIBDIR)/libvmsift.so.0
	ln -sf libvmsift.so.0 $(DESTDIR)$(LIBDIR)/libvmsift.so
	$(INSTALL) -m 644 include/vmsift.h $(DESTDIR)$(INCLUDEDIR)/vmsift.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		-e 's|@PKGS@|$(PKGS)|g' lib/vmsift.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/vmsift.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/vmsift.pc
	gzip -9n -c doc/vmsift.8 > $(DESTDIR)$(MANDIR)/man8/vmsift.8.gz
	chmod 644 $(DESTDIR)$(MANDIR)/man8/vmsift.8.gz
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/vmsift  # the shipped erase rules (doc/erase.md)
	$(INSTALL) -m 644 data/erase/secrets.conf $(DESTDIR)$(DATADIR)/vmsift/secrets.conf
	$(INSTALL) -m 644 data/erase/secrets-dwarf.conf $(DESTDIR)$(DATADIR)/vmsift/secrets-dwarf.conf

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vmsift $(DESTDIR)$(LIBDIR)/libvmsift.a \
		$(DESTDIR)$(LIBDIR)/libvmsift.so.0 $(DESTDIR)$(LIBDIR)/libvmsift.so \
		$(DESTDIR)$(INCLUDEDIR)/vmsift.h $(DESTDIR)$(PKGCONFIGDIR)/vmsift.pc \
		$(DESTDIR)$(MANDIR)/man8/vmsift.8.gz \
		$(DESTDIR)$(DATADIR)/vmsift/secrets.conf \
		$(DESTDIR)$(DATADIR)/vmsift/secrets-dwarf.conf

.PHONY: all static check demo sanitize fuzz bench clean install uninstall e2e-kdump-tools
