# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/install.sh - `make install` into a DESTDIR puts the
# command, both libraries (SONAME libvmsift.so.0), the header, vmsift.pc
# and the gzipped manual page where Debian/GNU conventions put them; a
# program built with `pkg-config --cflags --libs vmsift` against the
# installed tree opens and dumps a small vmcore; `make uninstall` takes
# everything away again.  Sourced by tests/run.

inst_dir=$work/install
inst_root=$inst_dir/root
inst_prefix=/usr

# The files `make install PREFIX=/usr` must leave (relative to DESTDIR).
inst_files=(
	usr/sbin/vmsift
	usr/lib/libvmsift.a
	usr/lib/libvmsift.so.0
	usr/lib/libvmsift.so
	usr/include/vmsift.h
	usr/lib/pkgconfig/vmsift.pc
	usr/share/man/man8/vmsift.8.gz
	usr/share/vmsift/secrets.conf
	usr/share/vmsift/secrets-dwarf.conf
)

inst_pkgconfig() {
	PKG_CONFIG_PATH=$inst_root$inst_prefix/lib/pkgconfig \
	PKG_CONFIG_SYSROOT_DIR=$inst_root pkg-config "$@"
}

t_install_files() {
	local f ver
	rm -rf "$inst_dir" && mkdir -p "$inst_dir"
	make -s -C "$top" install DESTDIR="$inst_root" PREFIX=$inst_prefix || return 1
	for f in "${inst_files[@]}"; do
		[ -e "$inst_root/$f" ] || { echo "missing $f"; return 1; }
	done
	[ -x "$inst_root/usr/sbin/vmsift" ] || { echo "vmsift not executable"; return 1; }
	[ "$(readlink "$inst_root/usr/lib/libvmsift.so")" = libvmsift.so.0 ] ||
		{ echo "libvmsift.so is not a symlink to libvmsift.so.0"; return 1; }
	readelf -d "$inst_root/usr/lib/libvmsift.so.0" | grep -q 'SONAME.*\[libvmsift\.so\.0\]' ||
		{ echo "libvmsift.so.0 lacks SONAME libvmsift.so.0"; readelf -d "$inst_root/usr/lib/libvmsift.so.0" | grep -i soname; return 1; }
	[ "$(stat -c %a "$inst_root/usr/include/vmsift.h")" = 644 ] || { echo "header mode"; return 1; }
	gzip -t "$inst_root/usr/share/man/man8/vmsift.8.gz" || return 1
	ver=$(sed -n 's/^#define VMSIFT_VERSION_STRING "\(.*\)"/\1/p' "$top/include/vmsift.h")
	[ -n "$ver" ] || { echo "no VMSIFT_VERSION_STRING in vmsift.h"; return 1; }
	"$inst_root/usr/sbin/vmsift" -v | grep -qx "vmsift: version $ver" ||
		{ echo "the installed vmsift is not version $ver"; return 1; }
	inst_pkgconfig --modversion vmsift | grep -qx "$ver" ||
		{ echo "vmsift.pc version differs from the header's"; return 1; }
	grep -q "^libdir=$inst_prefix/lib$" "$inst_root/usr/lib/pkgconfig/vmsift.pc" ||
		{ echo "vmsift.pc libdir is not $inst_prefix/lib"; cat "$inst_root/usr/lib/pkgconfig/vmsift.pc"; return 1; }
}
run_test "install: make install DESTDIR PREFIX=/usr puts every file in place" t_install_files

# A client program: open a vmcore, dump it at -d 1 with zlib, free.
inst_write_client() {
	cat > "$inst_dir/client.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <vmsift.h>

int main(int argc, char **argv)
{
	struct vmsift_options o = { .struct_size = sizeof(o),
				    .dump_level = VMSIFT_DL_ZERO,
				    .codec = VMSIFT_CODEC_ZLIB, .threads = 2 };
	struct vmsift *vs;
	int fd, ret;

	if (argc != 3)
		return 2;
	vs = vmsift_new();
	if (!vs)
		return 1;
	if (vmsift_open(vs, "/nonexistent/vmcore") == 0 || !*vmsift_error(vs)) {
		fprintf(stderr, "opening a missing file did not fail\n");
		return 1;
	}
	if (vmsift_open(vs, argv[1]) < 0) {
		fprintf(stderr, "%s\n", vmsift_error(vs));
		return 1;
	}
	fd = open(argv[2], O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return 1;
	ret = vmsift_dump(vs, &o, fd, argv[2]);
	if (ret < 0)
		fprintf(stderr, "%s\n", vmsift_error(vs));
	close(fd);
	vmsift_free(vs);
	printf("vmsift %s: %s\n", VMSIFT_VERSION_STRING, ret < 0 ? "failed" : "ok");
	return ret < 0;
}
EOF
}

inst_vmcore() {
	local v=$inst_dir/vmcores/good.vmcore
	if [ ! -f "$v" ]; then
		mkdir -p "$inst_dir/vmcores"
		$PY "$top/tests/tools/mkbad.py" "$inst_dir/vmcores" >/dev/null || return 1
	fi
	echo "$v"
}

# Shared: linked against libvmsift.so.0 (NEEDED), run with the DESTDIR's
# library directory on LD_LIBRARY_PATH.
t_install_client_shared() {
	local flags vm out=$inst_dir/client-shared.dump
	[ -f "$inst_root/usr/lib/pkgconfig/vmsift.pc" ] || { echo "not installed"; return 1; }
	flags=$(inst_pkgconfig --cflags --libs vmsift) || return 1
	echo "pkg-config: $flags"
	inst_write_client
	# shellcheck disable=SC2086
	cc -Wall -Werror -o "$inst_dir/client-shared" "$inst_dir/client.c" $flags || return 1
	readelf -d "$inst_dir/client-shared" | grep -q 'NEEDED.*\[libvmsift\.so\.0\]' ||
		{ echo "client does not need libvmsift.so.0"; return 1; }
	vm=$(inst_vmcore) || return 1
	rm -f "$out"
	LD_LIBRARY_PATH=$inst_root/usr/lib "$inst_dir/client-shared" "$vm" "$out" || return 1
	LD_LIBRARY_PATH=$inst_root/usr/lib ldd "$inst_dir/client-shared" | grep -q "$inst_root/usr/lib/libvmsift.so.0" ||
		{ echo "not run against the installed library"; return 1; }
	$check pages "$vm" "$out"
}
run_test "install: a pkg-config client links libvmsift.so.0 and dumps a vmcore" t_install_client_shared

# Static: the installed libvmsift.a with pkg-config --static's libraries.
t_install_client_static() {
	local cflags libs vm out=$inst_dir/client-static.dump
	[ -f "$inst_root/usr/lib/libvmsift.a" ] || { echo "not installed"; return 1; }
	cflags=$(inst_pkgconfig --cflags vmsift) || return 1
	libs=$(inst_pkgconfig --static --libs vmsift) || return 1
	echo "pkg-config --static: $libs"
	libs=${libs//-lvmsift/}
	inst_write_client
	# shellcheck disable=SC2086
	cc -Wall -Werror -o "$inst_dir/client-static" "$inst_dir/client.c" $cflags \
		"$inst_root/usr/lib/libvmsift.a" $libs || return 1
	readelf -d "$inst_dir/client-static" | grep -q 'libvmsift' &&
		{ echo "static client still needs libvmsift.so"; return 1; }
	vm=$(inst_vmcore) || return 1
	rm -f "$out"
	"$inst_dir/client-static" "$vm" "$out" || return 1
	$check pages "$vm" "$out"
}
run_test "install: a client links the installed libvmsift.a with pkg-config --static" t_install_client_static

# The installed manual page renders, warning-free, and names the command.
t_install_man() {
	local page=$inst_root/usr/share/man/man8/vmsift.8.gz warn
	[ -f "$page" ] || { echo "not installed"; return 1; }
	warn=$(groff -t -man -Tutf8 -ww "$top/doc/vmsift.8" 2>&1 >/dev/null)
	[ -z "$warn" ] || { echo "groff warnings:"; echo "$warn"; return 1; }
	MANWIDTH=80 MANPAGER=cat man -l "$page" 2>&1 | grep -Eq "vmsift +- +save +a +Linux +kernel +crash +dump" ||
		{ echo "man -l does not render the page"; MANWIDTH=80 man -l "$page" 2>&1 | head; return 1; }
	MANWIDTH=80 MANPAGER=cat man -l "$page" 2>/dev/null | grep -q "^EXIT STATUS"
}
if command -v man >/dev/null && command -v groff >/dev/null; then
	run_test "install: man -l renders the installed vmsift(8), groff -ww is silent" t_install_man
else
	log "# install: man or groff missing (Debian: man-db groff-base): man -l check skipped"
fi

# Every option in cli/main.c's table and getopt string is in vmsift(8).
t_man_options() {
	local name missing=0 shorts c
	for name in $(sed -n 's/^[[:space:]]*{ "\([a-z_-]*\)",.*/\1/p' "$top/cli/main.c"); do
		grep -q -- "\\\\-\\\\-${name//-/\\\\-}" "$top/doc/vmsift.8" ||
			{ echo "vmsift.8 lacks --$name"; missing=1; }
	done
	shorts=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$top/cli/main.c" | tr -d ':')
	[ -n "$shorts" ] || { echo "getopt string not found in cli/main.c"; return 1; }
	for ((i = 0; i < ${#shorts}; i++)); do
		c=${shorts:i:1}
		grep -q -- "\\\\-$c\\b" "$top/doc/vmsift.8" ||
			{ echo "vmsift.8 lacks -$c"; missing=1; }
	done
	[ $missing = 0 ]
}
run_test "install: vmsift(8) documents every option of cli/main.c" t_man_options

t_uninstall() {
	local left
	[ -d "$inst_root" ] || { echo "not installed"; return 1; }
	make -s -C "$top" uninstall DESTDIR="$inst_root" PREFIX=$inst_prefix || return 1
	left=$(find "$inst_root" ! -type d)
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
}
run_test "install: make uninstall removes every installed file" t_uninstall

# libvmsift.so exports the public API and nothing else: every function
# include/vmsift.h declares carries VMSIFT_API and is exported under the
# version node VMSIFT_0, and no other symbol is (no internal vs_*).
t_exports() {
	local so=$top/lib/libvmsift.so declared exported undeclared
	make -s -C "$top" lib/libvmsift.so || return 1
	undeclared=$(grep -E '^[a-z][^;(]*\bvmsift_[a-z0-9_]+\(' "$top/include/vmsift.h" |
		grep -v '^typedef')
	[ -z "$undeclared" ] || { echo "declared without VMSIFT_API:"; echo "$undeclared"; return 1; }
	declared=$(grep -oE '^VMSIFT_API [^(]*\bvmsift_[a-z0-9_]+\(' "$top/include/vmsift.h" |
		grep -oE 'vmsift_[a-z0-9_]+\($' | tr -d '(' | sort)
	[ -n "$declared" ] || { echo "no VMSIFT_API declaration in vmsift.h"; return 1; }
	exported=$(nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | sort)
	if [ "$(sed 's/@@VMSIFT_0$//' <<<"$exported")" != "$declared" ]; then
		echo "exported symbols differ from vmsift.h's declarations (< header, > library):"
		diff <(echo "$declared") <(sed 's/@@VMSIFT_0$//' <<<"$exported")
		return 1
	fi
	if grep -v '@@VMSIFT_0$' <<<"$exported"; then
		echo "symbols above lack the version node VMSIFT_0"
		return 1
	fi
}
run_test "install: libvmsift.so exports exactly vmsift.h's functions, version VMSIFT_0" t_exports
