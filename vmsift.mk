# SPDX-License-Identifier: GPL-2.0-or-later
# vmsift.mk - the build flags and packages, written once.  Included by the
# top Makefile (library, program, static program, bench/ceiling),
# tests/fuzz/Makefile (fuzzers and corpus replay) and tests/unit/Makefile;
# tests/suites/sanitize.sh reads them with `make -s print-VMSIFT_CPPFLAGS`.
# Every build of lib/ therefore sees the same feature macros, includes and
# warnings; only optimisation and instrumentation differ.
#
#   VMSIFT_TOP       the source tree's root, absolute, with a trailing slash
#                    (set from this file's own path)
#   VMSIFT_PKGS      the pkg-config packages of the codec libraries
#   VMSIFT_CPPFLAGS  feature macros and include paths
#   VMSIFT_STD       language standard and threads
#   VMSIFT_VISIBILITY  hidden by default: libvmsift.so exports VMSIFT_API only
#   VMSIFT_WARN      the warning set (-Werror added when WERROR=1)
#   VMSIFT_LDLIBS    the libraries to link (not libcrypto: lib/crypto.c
#                    loads it when encryption needs it)
#   VMSIFT_CRYPTO_LIBS  libcrypto, linked by the static builds only
#                    (-DVMSIFT_CRYPTO_LINKED, lib/crypto.h)
#   VMSIFT_DW_LIBS   elfutils' libdw and libelf (-x, -g: lib/typeinfo_dwarf.c),
#                    part of VMSIFT_LDLIBS; the static builds leave them out

vmsift_goal  := $(.DEFAULT_GOAL)
VMSIFT_TOP   := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))
VMSIFT_PKGS  := zlib lzo2 snappy libzstd libdeflate libcrypto libbpf
VMSIFT_PKG_CFLAGS := $(shell pkg-config --cflags $(VMSIFT_PKGS) 2>/dev/null)
VMSIFT_PKG_LIBS   := $(shell pkg-config --libs $(VMSIFT_PKGS) 2>/dev/null || \
                       echo -lz -llzo2 -lsnappy -lzstd -ldeflate -lcrypto -lbpf)

VMSIFT_CPPFLAGS := -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
                   -I$(VMSIFT_TOP)include -I$(VMSIFT_TOP)lib $(VMSIFT_PKG_CFLAGS)
VMSIFT_STD   := -std=gnu11 -pthread
VMSIFT_VISIBILITY := -fvisibility=hidden
VMSIFT_WARN  := -Wall -Wextra -Wshadow -Wcast-qual -Wstrict-prototypes \
                -Wmissing-prototypes -Wvla -Wformat=2 -Wundef -Wpointer-arith \
                -Wno-missing-field-initializers
ifeq ($(WERROR),1)
VMSIFT_WARN  += -Werror
endif
VMSIFT_DW_LIBS := -ldw -lelf
VMSIFT_CRYPTO_LIBS := -lcrypto
VMSIFT_LDLIBS := $(filter-out $(VMSIFT_CRYPTO_LIBS),$(VMSIFT_PKG_LIBS)) \
                 $(VMSIFT_DW_LIBS) -pthread

# print-VAR: VAR's value, for scripts that build outside make.
print-%:
	@echo $($*)

# A flags stamp: FILE.flags holds the text of VMSIFT_FLAGS_TEXT (each
# Makefile sets it to its compiler, flags and libraries) and is rewritten,
# so newer, only when that text changed.  Objects that depend on it are
# rebuilt when the flags change, e.g. by WERROR=1 after a plain build.
vmsift_sq = $(subst ','\'',$(1))
%.flags: vmsift-force
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(call vmsift_sq,$(VMSIFT_FLAGS_TEXT))' | cmp -s - $@ || \
		printf '%s\n' '$(call vmsift_sq,$(VMSIFT_FLAGS_TEXT))' > $@
vmsift-force:
.PHONY: vmsift-force

# Including this file leaves the includer's default goal as it was.
.DEFAULT_GOAL := $(vmsift_goal)
