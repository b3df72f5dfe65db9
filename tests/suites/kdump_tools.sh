# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/kdump_tools.sh - vmsift as a Debian package.  Always: the
# packages build with dpkg-buildpackage from a copy of the tree, lintian
# finds no error, and each package holds what it must (tools/build-debs;
# about two minutes).  When the cached Debian 12 root file system of
# tests/harness/kdump-tools-e2e is warm (make e2e-kdump-tools built it;
# about 14 minutes on the shared 2-core host): the end-to-end run under Debian's kdump-tools
# with vmsift's packages.  VMSIFT_NO_QEMU=1 skips that run, visibly.
# Sourced by tests/run.

deb_dir=$work/debs

# deb_has DEB PATH [LINK-TARGET]: DEB holds PATH (a link to LINK-TARGET).
deb_has() {
	local line
	line=$(dpkg-deb -c "$1" | awk -v p="./$2" '$6 == p {print; exit}')
	[ -n "$line" ] || { echo "$(basename "$1") lacks /$2"; return 1; }
	[ -z "${3:-}" ] || [ "${line##* -> }" = "$3" ] ||
		{ echo "$(basename "$1"): /$2 is not a link to $3: $line"; return 1; }
}

# debs_key: a digest of what tools/build-debs packages (the files it
# copies: git's tracked and untracked-but-not-ignored ones, names and
# contents) and of the tools' versions.  The packages of a passed build
# are kept with it in $deb_dir/key: the same key builds nothing again.
debs_key() {
	{
		(cd "$top" && git ls-files -z -c -o --exclude-standard | sort -z |
			xargs -0 sha256sum) &&
		dpkg-query -W dpkg-dev debhelper lintian gcc
	} | sha256sum | cut -c1-16
}

t_debs_build() {
	local ma before key
	key=$(debs_key) || return 1
	if [ "$(cat "$deb_dir/key" 2>/dev/null)" = "$key" ] && ls "$deb_dir"/vmsift_*.deb >/dev/null 2>&1; then
		echo "the packages of this tree (key $key), built and lintian-checked before"
	else
		rm -f "$deb_dir/key"
		before=$(git -C "$top" status --porcelain --ignored -- debian)
		"$top/tools/build-debs" "$deb_dir" || return 1
		[ "$(git -C "$top" status --porcelain --ignored -- debian)" = "$before" ] ||
			{ echo "the build changed files under debian/"; return 1; }
		echo "$key" > "$deb_dir/key"
	fi
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	deb_has "$deb_dir"/vmsift_*.deb usr/sbin/vmsift &&
	deb_has "$deb_dir"/vmsift_*.deb usr/share/man/man8/vmsift.8.gz &&
	deb_has "$deb_dir"/vmsift_*.deb usr/share/vmsift/secrets.conf &&
	deb_has "$deb_dir"/libvmsift0_*.deb "usr/lib/$ma/libvmsift.so.0" &&
	deb_has "$deb_dir"/libvmsift-dev_*.deb usr/include/vmsift.h &&
	deb_has "$deb_dir"/libvmsift-dev_*.deb "usr/lib/$ma/libvmsift.so" libvmsift.so.0 &&
	deb_has "$deb_dir"/libvmsift-dev_*.deb "usr/lib/$ma/pkgconfig/vmsift.pc" &&
	deb_has "$deb_dir"/vmsift-makedumpfile_*.deb usr/bin/makedumpfile ../sbin/vmsift || return 1
	# the package's vmsift runs and is this tree's version
	local x=$work/debs/x
	rm -rf "$x" && dpkg-deb -x "$deb_dir"/vmsift_*.deb "$x" &&
		"$x/usr/sbin/vmsift" -v | grep -qF "version $(sed -n 's/^#define VMSIFT_VERSION_STRING "\(.*\)"/\1/p' "$top/include/vmsift.h")" ||
		{ echo "the packaged vmsift does not report this tree's version"; return 1; }
}

# The packages of t_debs_build when it ran, else the script builds them.
t_kdump_tools_e2e() {
	local debs=()
	ls "$deb_dir"/vmsift_*.deb >/dev/null 2>&1 && debs=(--debs "$deb_dir")
	timeout 1500 "$top/tests/harness/kdump-tools-e2e" "${debs[@]}"
}

run_test "debian: dpkg-buildpackage builds vmsift, libvmsift0, libvmsift-dev, vmsift-makedumpfile, lintian clean" t_debs_build
e2e_name="debian: kdump-tools saves a dump through vmsift's packages (crash, raw /proc/vmcore)"
# --cache-status asks apt for the image's package versions (seconds):
# only when the test is selected.
if [ -n "${VMSIFT_TESTS:-}" ] && ! [[ $e2e_name =~ $VMSIFT_TESTS ]]; then
	:
elif [ "${VMSIFT_NO_QEMU:-0}" = 1 ]; then
	log "# skipped: kdump-tools end-to-end (VMSIFT_NO_QEMU=1)"
elif [ "$("$top/tests/harness/kdump-tools-e2e" --cache-status 2>/dev/null)" != warm ]; then
	log "# skipped: kdump-tools end-to-end: its Debian 12 image is not cached (make e2e-kdump-tools builds it)"
else
	run_test "$e2e_name" t_kdump_tools_e2e
fi
