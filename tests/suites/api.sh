# tests/suites/api.sh - the public API's contract, through small C programs
# in tests/unit built against lib/libvmsift.a: the status beside each
# failure, and the read interface.  Sourced by tests/run.

unit_dir=$top/tests/unit
api_dir=$work/api
mkdir -p "$api_dir"

t_api_build() {
	make -s -C "$top" WERROR=1 lib/libvmsift.a &&
		make -s -C "$unit_dir" WERROR=1 test_status
}

# t_status_nospace INPUT: a dump onto a disk that fills up says NO_SPACE.
t_status_nospace() {
	local in=$1 shim=$api_dir/writefail.so
	cc -shared -fPIC -O2 -o "$shim" "$top/tests/faults/writefail.c" -ldl || return 1
	LD_PRELOAD=$shim WRITEFAIL_AT=40 "$unit_dir/test_status" nospace "$in" "$api_dir/nospace"
}

# t_version: the library's run-time version, the header's, the manual's
# and the CLI's -v are one.
t_version() {
	local hdr man cli
	hdr=$(sed -n 's/^#define VMSIFT_VERSION_STRING "\(.*\)"/\1/p' "$top/include/vmsift.h")
	man=$(sed -n 's/^\.TH .*"vmsift \([^"]*\)".*/\1/p' "$top/doc/vmsift.8")
	cli=$(vmsift -v | sed -n 's/^vmsift: version //p')
	echo "header '$hdr', manual '$man', -v '$cli'"
	[ -n "$hdr" ] && [ "$hdr" = "$man" ] && [ "$hdr" = "$cli" ]
}

api_in=${vmcores[0]:-}
run_test "api: one version in the header, the manual and -v" t_version
run_test "api: build the unit programs" t_api_build
if [ -n "$api_in" ]; then
	run_test "api: status NO_SPACE on a full disk" t_status_nospace "$api_in"
	run_test "api: status CANCELLED after vmsift_cancel" \
		"$unit_dir/test_status" cancel "$api_in" "$api_dir/cancel"
	run_test "api: status BAD_INPUT for cut inputs" \
		"$unit_dir/test_status" truncated "$api_in" "$api_dir"
	run_test "api: status INVALID for bad calls" \
		"$unit_dir/test_status" invalid "$api_in" "$api_dir/invalid"
	run_test "api: version, options struct_size, open by fd" \
		"$unit_dir/test_status" contract "$api_in" "$api_dir/contract"
fi
