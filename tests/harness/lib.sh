# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the real-kernel harness (sourced, not run).
#
# Everything a run needs is cached under $VMSIFT_CACHE (default
# tests/work/cache): the Debian kernel package, its extracted tree with
# modules.dep, the static workload program.  A second run reuses all of it.

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$HARNESS_DIR/../.." && pwd)
VMSIFT_CACHE=${VMSIFT_CACHE:-$REPO_ROOT/tests/work/cache}
HOST_PY=/usr/bin/python3          # Debian's python: has kdumpfile and drgn
APT_TIMEOUT=${APT_TIMEOUT:-300}   # seconds for any one apt-get call
QEMU_ENV=${QEMU:-}
QEMU=${QEMU:-qemu-system-x86_64}

# set_arch x86_64|arm64|riscv64|ppc64le|s390x: the guest's architecture (--arch).
# Sets QEMU, the Debian kernel flavour and package architecture (and its
# GNU triplet, for the cross compiler and the sysroot's library folders),
# the serial console and the capture kernel's extra command line;
# machine_args gives the machine.
ARCH=x86_64 DEBARCH=amd64 KFLAVOUR=amd64 CONSOLE=ttyS0 CAPTURE_EXTRA=irqpoll
TRIPLET=x86_64-linux-gnu STATIC_SUFFIX=
set_arch() {
	case $1 in
	x86_64|amd64)
		ARCH=x86_64 DEBARCH=amd64 KFLAVOUR=amd64 CONSOLE=ttyS0 CAPTURE_EXTRA=irqpoll
		TRIPLET=x86_64-linux-gnu STATIC_SUFFIX=
		QEMU=${QEMU_ENV:-qemu-system-x86_64} ;;
	arm64|aarch64)
		ARCH=arm64 DEBARCH=arm64 KFLAVOUR=arm64 CONSOLE=ttyAMA0 CAPTURE_EXTRA=
		TRIPLET=aarch64-linux-gnu STATIC_SUFFIX=aarch64
		QEMU=${QEMU_ENV:-qemu-system-aarch64} ;;
	ppc64le|ppc64el)
		# -M pseries: the console is the hypervisor's (hvc0).
		ARCH=ppc64le DEBARCH=ppc64el KFLAVOUR=powerpc64le CONSOLE=hvc0 CAPTURE_EXTRA=
		TRIPLET=powerpc64le-linux-gnu STATIC_SUFFIX=ppc64le
		QEMU=${QEMU_ENV:-qemu-system-ppc64} ;;
	riscv64)
		# bookworm has no riscv64: kernel and busybox come from trixie,
		# read through a private source list (see set_flavour).
		ARCH=riscv64 DEBARCH=riscv64 KFLAVOUR=riscv64 CONSOLE=ttyS0 CAPTURE_EXTRA=
		TRIPLET=riscv64-linux-gnu STATIC_SUFFIX=riscv64
		QEMU=${QEMU_ENV:-qemu-system-riscv64}
		private_apt trixie riscv64 apt-trixie ;;
	s390x)
		# Big-endian; SCLP line-mode console, virtio-ccw disk (built in).
		ARCH=s390x DEBARCH=s390x KFLAVOUR=s390x CONSOLE=ttysclp0 CAPTURE_EXTRA=
		TRIPLET=s390x-linux-gnu STATIC_SUFFIX=s390x
		QEMU=${QEMU_ENV:-qemu-system-s390x} ;;
	*) die "--arch must be x86_64, arm64, riscv64, ppc64le or s390x, not '$1'" ;;
	esac
}

# private_apt SUITE DEBARCH DIR: KAPT_OPTS for a private source list (SUITE,
# DEBARCH only) with its package lists under $VMSIFT_CACHE/DIR, so the
# host's own apt sources and packages are left as they are.
private_apt() {
	local d=$VMSIFT_CACHE/$3
	mkdir -p "$d/lists/partial" "$d/archives/partial"
	echo "deb [arch=$2 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $1 main" \
		> "$d/sources.list"
	KAPT_OPTS="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists=$d/lists -o Dir::Cache=$d -o APT::Architectures::=$2"
}

# set_flavour FLAVOUR: the Debian kernel flavour (--kernel-flavour), after
# set_arch.  arm64-16k (16K pages; 52-bit VA, which the guest's CPU without
# LPA2 runs as 47-bit) is not in bookworm: its kernel comes from
# bookworm-backports, read through a private source list and package lists
# under $VMSIFT_CACHE/apt-bpo (KAPT_OPTS), so the host's own apt sources and
# packages are left as they are.
# FLAVOUR_APPEND: first-kernel command line the flavour needs (arm64-16k:
# no CMA area in the way of crashkernel=, and 2 MiB default huge pages
# for the workload instead of 32 MiB ones).
KAPT_OPTS=${KAPT_OPTS:-} FLAVOUR_APPEND=''
set_flavour() {
	[ -n "$1" ] || return 0
	case $ARCH/$1 in
	x86_64/amd64|arm64/arm64|riscv64/riscv64|ppc64le/powerpc64le|s390x/s390x) KFLAVOUR=$1 ;;
	arm64/arm64-16k)
		KFLAVOUR=$1 FLAVOUR_APPEND="cma=0 default_hugepagesz=2M hugepagesz=2M"
		local d=$VMSIFT_CACHE/apt-bpo
		mkdir -p "$d/lists/partial" "$d/archives/partial"
		echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main" \
			> "$d/sources.list"
		KAPT_OPTS="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null
			-o Dir::State::Lists=$d/lists -o Dir::Cache=$d -o APT::Architectures::=arm64" ;;
	*) die "--kernel-flavour $1 does not go with --arch $ARCH (amd64; arm64 or arm64-16k; riscv64; powerpc64le; s390x)" ;;
	esac
}

# set_ksuite SUITE: take the x86_64 or arm64 kernel (and its -dbg package)
# from another Debian suite than bookworm (--kernel-suite): bullseye
# (5.10), trixie (6.12), trixie-backports (7.x), sid.  Its package lists
# live under $VMSIFT_CACHE/apt-SUITE-DEBARCH (KAPT_OPTS), the host's apt
# sources and packages are left as they are; busybox, kexec-tools and the
# reference makedumpfile stay bookworm's.
KSUITE=''
set_ksuite() {
	[ -n "$1" ] && [ "$1" != bookworm ] || return 0
	case $ARCH in
	x86_64|arm64) ;;
	*) die "--kernel-suite applies to x86_64 and arm64 only, not $ARCH" ;;
	esac
	case $1 in
	bullseye|trixie|trixie-backports|sid) KSUITE=$1 ;;
	*) die "--kernel-suite must be bullseye, bookworm, trixie, trixie-backports or sid, not '$1'" ;;
	esac
	private_apt "$1" "$DEBARCH" "apt-$1-$DEBARCH"
	[ "$ARCH" = x86_64 ] || return 0
	# 6.12 and 7.x under a busy TCG often find the 8254 timer "not
	# connected" and panic ("IO-APIC + timer doesn't work"), the first
	# kernel and the capture kernel alike: skip that check.
	FLAVOUR_APPEND="$FLAVOUR_APPEND no_timer_check"
	CAPTURE_EXTRA="$CAPTURE_EXTRA no_timer_check"
}

# apt_lists: the private package lists of KAPT_OPTS, fetched once.
apt_lists() {
	[ -n "$KAPT_OPTS" ] || return 0
	local d
	d=$(sed -n 's/.*Dir::State::Lists=\([^ ]*\).*/\1/p' <<< "$KAPT_OPTS" | head -n1)
	ls "$d"/*_Packages* >/dev/null 2>&1 && return 0
	log "apt-get update of the private source list ($d)"
	# shellcheck disable=SC2086
	timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS update -q >&2 ||
		die "step 'apt lists': apt-get update of $d failed (no network to the apt registry?)"
}

# apt_closure_root ROOT WHAT PKGS...: PKGS and every package they depend
# on, downloaded through KAPT_OPTS's private source list (private_apt
# first) with apt-get --download-only over an empty package status (the
# host's apt state is left alone), unpacked with dpkg -x into ROOT (made
# again from nothing); lib, lib64 and bin link to usr/ where a package
# has none.  WHAT names the step in a failure.  Under the cache's fetch
# lock (the caller's cache_locked).
apt_closure_root() {
	local root=$1 what=$2 d=$1.apt deb l
	shift 2
	apt_lists
	rm -rf "$d"
	mkdir -p "$d/archives/partial" "$d/state"
	: > "$d/state/status"
	log "downloading $* and their dependencies"
	# shellcheck disable=SC2086
	timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS -o Dir::Cache::archives="$d/archives" \
		-o Dir::State::status="$d/state/status" -o APT::Install-Recommends=0 \
		-o Debug::NoLocking=1 -y -q --download-only install "$@" >&2 ||
		die "step '$what': apt-get --download-only $* failed (no network to the apt registry?)"
	rm -rf "$root"
	mkdir -p "$root"
	for deb in "$d"/archives/*.deb; do
		dpkg -x "$deb" "$root"
	done
	for l in lib lib64 bin; do
		[ -e "$root/$l" ] || ln -s "usr/$l" "$root/$l"
	done
	rm -rf "$d"
}

# machine_args PAGING: QEMU's machine and CPU arguments for the guest.
# arm64: -cpu max without LPA2 (Debian's 6.1 kernel has 48-bit VA, 4K pages);
# pauth-impdef=on only makes TCG faster.  ARM64_LPA2=on (--lpa2) gives the
# CPU LPA2, so that a VA_BITS=52 kernel (arm64-16k) runs with 52-bit VA;
# without it that kernel falls back to 47 bits (16K) or 48 (4K).
machine_args() {
	case $ARCH in
	x86_64) echo "-cpu $(cpu_flag "$1")" ;;
	arm64)
		[ "$1" = 4 ] || die "--paging applies to x86_64 only (arm64 here: 4 levels, 4K pages, 48-bit VA)"
		echo "-M virt -cpu max,lpa2=${ARM64_LPA2:-off},pauth-impdef=on" ;;
	riscv64)
		# QEMU's default rv64 CPU and OpenSBI firmware; the kernel picks
		# the widest satp mode the CPU has.
		[ "$1" = 4 ] || die "--paging applies to x86_64 only (riscv64: the kernel picks its satp mode)"
		echo "-M virt -bios $RISCV64_BIOS" ;;
	ppc64le)
		# -cpu POWER9 runs the radix MMU (the kernel's default there),
		# POWER8 the hash MMU (PPC64_MMU, --mmu).
		[ "$1" = 4 ] || die "--paging applies to x86_64 only (ppc64le: --mmu radix|hash)"
		case ${PPC64_MMU:-radix} in
		radix) echo "-M pseries -cpu POWER9" ;;
		hash) echo "-M pseries -cpu POWER8" ;;
		*) die "--mmu must be radix or hash, not '$PPC64_MMU'" ;;
		esac ;;
	s390x)
		# -cpu max: TCG's model (no EDAT in QEMU 7.2: no huge pages).
		[ "$1" = 4 ] || die "--paging applies to x86_64 only (s390x: the kernel picks its region-table levels)"
		echo "-M s390-ccw-virtio -cpu max" ;;
	esac
}

# The known secrets of kdump-test --secrets (tests/suites/btf.sh greps the
# raw vmcore for them and checks the shipped erase rules against them):
# a dm-crypt key (32 bytes, AES-256), a user key's payload and a logon
# key's, each ASCII so a grep finds it, each handed to the guest only as
# hex.
SECRET_DM_KEY='vmsift dm-crypt secret key 0042!'
SECRET_USER_KEY='vmsift user-key payload 7f3a9c51'
SECRET_LOGON_KEY='vmsift logon-key payload 5e1d08b2'
# kTLS (workload -S): the client socket's AES-GCM-256 keys, 32 bytes each
SECRET_KTLS_TX_KEY='vmsift kTLS tx key 32 bytes 0042'
SECRET_KTLS_RX_KEY='vmsift kTLS rx key 32 bytes 0042'
# dm-crypt's other modes (workload -X, -E, -A): aes-xts-plain64, whose
# 64-byte key is a data key then a tweak key (32 bytes each, named apart
# so that a grep tells the two AES key schedules apart); aes-cbc-essiv:
# sha256; aes-xts-plain64 again once aesni_intel is loaded (the AES-NI
# driver behind simd and cryptd, as x86 hardware has it)
SECRET_DM_XTS_KEY1='vmsift dm-crypt xts data key 042'
SECRET_DM_XTS_KEY2='vmsift dm-crypt xts tweak key 42'
SECRET_DM_ESSIV_KEY='vmsift dm-crypt essiv key 0042!!'
SECRET_DM_AESNI_KEY1='vmsift aes-ni xts data key 0042!'
SECRET_DM_AESNI_KEY2='vmsift aes-ni xts tweak key 0042'
# made after aesni_intel is loaded too (workload -V, -G): an
# aes-cbc-essiv:sha256 mapping (essiv over AES-NI's cbc) and a second kTLS
# connection (AES-NI's generic-gcm-aesni), each with keys of its own
SECRET_DM_ESSIV_NI_KEY='vmsift aes-ni essiv key 0042!!!!'
SECRET_KTLS_NI_TX_KEY='vmsift aes-ni kTLS tx key 0042!!'
SECRET_KTLS_NI_RX_KEY='vmsift aes-ni kTLS rx key 0042!!'
# kTLS's other ciphers (workload -C, before the late modules: gcm.ko,
# ccm.ko and chacha20poly1305.ko's templates over aes-generic and
# chacha20-generic; -D, after them: AES-NI's GCM, ccm over AES-NI's ctr
# and cipher, rfc7539 over chacha20-simd): a connection per cipher, keys
# of the cipher's size (AES-128: 16 bytes; ChaCha20: 32)
SECRET_KTLS_GCM128_TX_KEY='vmsift g128 TX 1'
SECRET_KTLS_GCM128_RX_KEY='vmsift g128 RX 1'
SECRET_KTLS_CCM_TX_KEY='vmsift ccm TX 01'
SECRET_KTLS_CCM_RX_KEY='vmsift ccm RX 01'
SECRET_KTLS_CHACHA_TX_KEY='vmsift kTLS chacha20 tx key 0042'
SECRET_KTLS_CHACHA_RX_KEY='vmsift kTLS chacha20 rx key 0042'
SECRET_KTLS_GCM128_NI_TX_KEY='vmsift g128 TX 2'
SECRET_KTLS_GCM128_NI_RX_KEY='vmsift g128 RX 2'
SECRET_KTLS_CCM_NI_TX_KEY='vmsift ccm TX 02'
SECRET_KTLS_CCM_NI_RX_KEY='vmsift ccm RX 02'
SECRET_KTLS_CHACHA_NI_TX_KEY='vmsift kTLS chacha simd tx 0042!'
SECRET_KTLS_CHACHA_NI_RX_KEY='vmsift kTLS chacha simd rx 0042!'
# an fscrypt-provisioning key's raw key (workload -F; 64 bytes, what
# AES-256-XTS contents encryption takes)
SECRET_FSCRYPT_KEY='vmsift fscrypt-provisioning raw key, 64 bytes for AES-256-XTS 42'
# the master key (a user key "vmsift:kmk") of the encrypted key
# "vmsift:encrypted" (workload -N), whose own 32 bytes are random
SECRET_KMK_KEY='vmsift encrypted-key master 0042'
# dm-crypt with authenticated encryption (workload -I, -M; each over a
# dm-integrity device): capi:authenc(hmac(sha256),xts(aes))-random, whose
# 96-byte key is the xts key (data, tweak) then the HMAC key, and
# capi:gcm(aes)-random (AES-256); and aes-lrw-benbi (-O), the AES key then
# LRW's 16-byte tweak key
SECRET_DM_AUTHENC_XTS1='vmsift authenc xts data key 0042'
SECRET_DM_AUTHENC_XTS2='vmsift authenc xts tweak key 042'
SECRET_DM_AUTHENC_MAC='vmsift authenc hmac-sha256 key42'
SECRET_DM_GCM_KEY='vmsift dm-crypt gcm(aes) key 042'
SECRET_DM_LRW_KEY1='vmsift dm-crypt lrw aes key 0042'
SECRET_DM_LRW_KEY2='vmsift lrw tweak'
# keyring payloads of module key types (workload -Y, -Q, -J): an
# asymmetric key's PKCS#8 private key bytes (pkcs8_key_parser keeps them
# as struct public_key's key), an rxrpc key's rxkad session key (8 bytes)
# and ticket, a ceph key (AES-128)
SECRET_PKCS8_KEY='vmsift PKCS#8 private key bytes 0042'
SECRET_RXRPC_SESSION_KEY='vmsRxK42'
SECRET_RXRPC_TICKET='vmsift rxrpc rxkad ticket 0042!!'
SECRET_CEPH_KEY='vmsift ceph 0042'
# dm-crypt's AEAD modes made with other drivers (workload -B before the
# late modules, -Z after them: AES-NI's generic-gcm-aesni and
# rfc4106-gcm-aesni, authenc over AES-NI's xts and cbc, rfc7539 over
# chacha20-generic and over chacha-x86_64's chacha20-simd): keys of their
# own, rfc4106's an AES-256 key then a 4-byte salt, authenc's the AES
# key(s) then the HMAC key
SECRET_DM_GCM_NI_KEY='vmsift aes-ni dm gcm(aes) key 42'
SECRET_DM_RFC4106_NI_KEY='vmsift aes-ni rfc4106 key 0042!!'
SECRET_DM_RFC4106_NI_SALT='vs42'
SECRET_DM_AUTHENC_NI_XTS1='vmsift ni authenc xts data 0042!'
SECRET_DM_AUTHENC_NI_XTS2='vmsift ni authenc xts tweak 0042'
SECRET_DM_AUTHENC_NI_MAC='vmsift ni authenc xts hmac 0042!'
SECRET_DM_AUTHENC_CBC_NI_KEY='vmsift ni authenc cbc aes 0042!!'
SECRET_DM_AUTHENC_CBC_NI_MAC='vmsift ni authenc cbc hmac 0042!'
SECRET_DM_CHACHA_KEY='vmsift dm rfc7539 chacha20 key42'
SECRET_DM_CHACHA_NI_KEY='vmsift dm chacha20-simd key 042!'
# IPsec SAs (workload -x before the late modules, -y after: ESP with
# AEAD rfc4106(gcm(aes)), an AES-256 key then a 4-byte salt, and with
# hmac(sha256) and cbc(aes), each key 32 bytes)
SECRET_XFRM_GCM_KEY='vmsift xfrm rfc4106 aes key 042!'
SECRET_XFRM_GCM_SALT='xS42'
SECRET_XFRM_CBC_KEY='vmsift xfrm cbc(aes) key 0042!!!'
SECRET_XFRM_HMAC_KEY='vmsift xfrm hmac(sha256) key 042'
SECRET_XFRM_GCM_NI_KEY='vmsift ni xfrm rfc4106 key 0042!'
SECRET_XFRM_GCM_NI_SALT='xN42'
SECRET_XFRM_CBC_NI_KEY='vmsift ni xfrm cbc(aes) key 042!'
SECRET_XFRM_HMAC_NI_KEY='vmsift ni xfrm hmac key 0042!!!!'
secret_hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# secret_ktls_args: workload's -C and -D options for the ciphers above
secret_ktls_args() {
	local s o c k tx rx
	for s in C:gcm128:GCM128 C:ccm128:CCM C:chacha:CHACHA \
		D:gcm128:GCM128_NI D:ccm128:CCM_NI D:chacha:CHACHA_NI; do
		IFS=: read -r o c k <<< "$s"
		tx=SECRET_KTLS_${k}_TX_KEY rx=SECRET_KTLS_${k}_RX_KEY
		printf ' -%s %s:%s:%s' "$o" "$c" "$(secret_hex "${!tx}")" "$(secret_hex "${!rx}")"
	done
}
# secret_more_args: workload's -I, -M, -O, -Y, -Q, -J, -B, -Z, -x and -y
# options for the secrets above
secret_more_args() {
	printf ' -I %s -M %s -O %s -Y %s -Q %s:%s -J %s' \
		"$(secret_hex "$SECRET_DM_AUTHENC_XTS1$SECRET_DM_AUTHENC_XTS2$SECRET_DM_AUTHENC_MAC")" \
		"$(secret_hex "$SECRET_DM_GCM_KEY")" \
		"$(secret_hex "$SECRET_DM_LRW_KEY1$SECRET_DM_LRW_KEY2")" \
		"$(secret_hex "$SECRET_PKCS8_KEY")" \
		"$(secret_hex "$SECRET_RXRPC_SESSION_KEY")" "$(secret_hex "$SECRET_RXRPC_TICKET")" \
		"$(secret_hex "$SECRET_CEPH_KEY")"
	printf ' -B chacha:%s -Z gcm:%s -Z rfc4106:%s -Z authenc-xts:%s -Z authenc-cbc:%s -Z chacha:%s' \
		"$(secret_hex "$SECRET_DM_CHACHA_KEY")" \
		"$(secret_hex "$SECRET_DM_GCM_NI_KEY")" \
		"$(secret_hex "$SECRET_DM_RFC4106_NI_KEY$SECRET_DM_RFC4106_NI_SALT")" \
		"$(secret_hex "$SECRET_DM_AUTHENC_NI_XTS1$SECRET_DM_AUTHENC_NI_XTS2$SECRET_DM_AUTHENC_NI_MAC")" \
		"$(secret_hex "$SECRET_DM_AUTHENC_CBC_NI_KEY$SECRET_DM_AUTHENC_CBC_NI_MAC")" \
		"$(secret_hex "$SECRET_DM_CHACHA_NI_KEY")"
	printf ' -x rfc4106:%s -x cbc:%s -y rfc4106:%s -y cbc:%s' \
		"$(secret_hex "$SECRET_XFRM_GCM_KEY$SECRET_XFRM_GCM_SALT")" \
		"$(secret_hex "$SECRET_XFRM_CBC_KEY$SECRET_XFRM_HMAC_KEY")" \
		"$(secret_hex "$SECRET_XFRM_GCM_NI_KEY$SECRET_XFRM_GCM_NI_SALT")" \
		"$(secret_hex "$SECRET_XFRM_CBC_NI_KEY$SECRET_XFRM_HMAC_NI_KEY")"
}

# harness_modules: the modules the initramfs loads (and their
# dependencies): the data disk's, and qemu_fw_cfg for -device vmcoreinfo,
# which -M pseries has no fw_cfg for.
harness_modules() {
	case $ARCH in
	ppc64le) echo virtio_pci virtio_blk ext4 crc32c_generic ;;
	s390x) echo virtio_blk ext4 crc32c_generic ;;  # virtio-ccw is built in
	*) echo qemu_fw_cfg virtio_pci virtio_blk ext4 crc32c_generic ;;
	esac
}

log()  { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "$(date +%T)" "$*" >&2; exit 1; }

# need_cmd CMD PACKAGE: install PACKAGE with apt-get when CMD is missing.
need_cmd() {
	local cmd=$1 pkg=$2
	command -v "$cmd" >/dev/null 2>&1 && return 0
	[ -x "/usr/sbin/$cmd" ] || [ -x "/sbin/$cmd" ] && return 0
	log "installing $pkg (for $cmd)"
	if ! timeout "$APT_TIMEOUT" apt-get install -y -q --no-install-recommends "$pkg" >&2; then
		timeout "$APT_TIMEOUT" apt-get update -q >&2 || true
		timeout "$APT_TIMEOUT" apt-get install -y -q --no-install-recommends "$pkg" >&2 ||
			die "step 'host packages': cannot install $pkg (needed for $cmd); no network to the apt registry?"
	fi
	command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] ||
		die "step 'host packages': $pkg installed but $cmd still missing"
}

# need_file FILE PACKAGE: same, for a file (a library, a python module path).
need_file() {
	local file=$1 pkg=$2
	[ -e "$file" ] && return 0
	log "installing $pkg (for $file)"
	timeout "$APT_TIMEOUT" apt-get install -y -q --no-install-recommends "$pkg" >&2 ||
		{ timeout "$APT_TIMEOUT" apt-get update -q >&2 || true
		  timeout "$APT_TIMEOUT" apt-get install -y -q --no-install-recommends "$pkg" >&2; } ||
		die "step 'host packages': cannot install $pkg (needed for $file); no network to the apt registry?"
	[ -e "$file" ] || die "step 'host packages': $pkg installed but $file still missing"
}

need_host_tools() {
	export PATH=$PATH:/usr/sbin:/sbin
	local qemu_pkg
	case $ARCH in
	x86_64) qemu_pkg=qemu-system-x86 ;;
	arm64) qemu_pkg=qemu-system-arm ;;
	ppc64le) qemu_pkg=qemu-system-ppc ;;
	*) qemu_pkg=qemu-system-misc ;;
	esac
	need_cmd "$QEMU" "$qemu_pkg"
	[ "$ARCH" = riscv64 ] && fetch_riscv64_qemu
	if [ "$ARCH" != x86_64 ]; then
		# The cross compiler and its libc for the static tools, qemu-user
		# for the reference makedumpfile of $DEBARCH.
		need_cmd "$TRIPLET-gcc" "gcc-$TRIPLET"
		need_file "/usr/$TRIPLET/lib/libc.a" "libc6-dev-$DEBARCH-cross"
		need_cmd "qemu-$STATIC_SUFFIX-static" qemu-user-static
		need_cmd readelf binutils
	fi
	# apt-get download PKG:DEBARCH needs the architecture known to dpkg
	# (riscv64's packages come through a private trixie source instead).
	# grep reads all of dpkg's output (no -q): dpkg writes a line at a
	# time, and under pipefail an early exit of grep -q on the first line
	# kills dpkg's next write with SIGPIPE and fails the test (seen in CI).
	case $DEBARCH in
	arm64|ppc64el|s390x)
		dpkg --print-foreign-architectures | grep -x "$DEBARCH" >/dev/null ||
			die "step 'host packages': the $DEBARCH architecture is not enabled (run tools/install-deps, or dpkg --add-architecture $DEBARCH && apt-get update)" ;;
	esac
	need_cmd busybox busybox-static
	need_cmd cpio cpio
	need_cmd depmod kmod
	need_cmd mkfs.ext4 e2fsprogs
	need_cmd debugfs e2fsprogs
	need_cmd zstd zstd
	need_cmd gcc gcc
	need_file /usr/lib/x86_64-linux-gnu/libc.a libc6-dev
	need_file "$HOST_PY" python3
	# ldd fails on a static binary; Debian's plain busybox package is dynamic.
	if ldd "$(command -v busybox)" >/dev/null 2>&1; then
		timeout "$APT_TIMEOUT" apt-get install -y -q busybox-static >&2 ||
			die "step 'host packages': busybox is dynamically linked and busybox-static cannot be installed"
	fi
}

# kernel_version: the version linux-image-amd64 depends on, or $KERNEL_VERSION.
# Without apt metadata (no network) fall back to the newest cached kernel.
kernel_version() {
	if [ -n "${KERNEL_VERSION:-}" ]; then echo "$KERNEL_VERSION"; return; fi
	local v f=$KFLAVOUR
	# shellcheck disable=SC2086
	v=$(apt-cache $KAPT_OPTS depends "linux-image-$f:$DEBARCH" 2>/dev/null |
		sed -n "s/^ *Depends: linux-image-\(.*-$f\)\(:$DEBARCH\)\{0,1\}\$/\1/p" | grep -v unsigned | head -n1)
	if [ -z "$v" ]; then
		# shellcheck disable=SC2086
		timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS update -q >&2 || true
		# shellcheck disable=SC2086
		v=$(apt-cache $KAPT_OPTS depends "linux-image-$f:$DEBARCH" 2>/dev/null |
			sed -n "s/^ *Depends: linux-image-\(.*-$f\)\(:$DEBARCH\)\{0,1\}\$/\1/p" | grep -v unsigned | head -n1)
	fi
	if [ -z "$v" ]; then
		v=$(ls -d "$VMSIFT_CACHE"/kernel-*-"$f"/ 2>/dev/null | sed 's,.*/kernel-,,; s,/$,,' | sort -V | tail -n1)
		[ -n "$v" ] && log "apt metadata unavailable; using cached kernel $v"
	fi
	[ -n "$v" ] || die "step 'kernel version': cannot resolve linux-image-$f's kernel (no apt metadata, nothing cached)"
	echo "$v"
}

# cache_locked FUNCTION ARGS...: FUNCTION (a fetch into $VMSIFT_CACHE)
# under the cache's fetch lock, so that two suites that tests/run runs
# side by side never download or unpack the same package at once (the
# second finds it done).  Nested calls hold the one lock.  FUNCTION runs
# as a plain command, so a caller's set -e still stops at its failures.
CACHE_LOCK_DEPTH=0
cache_locked() {
	local rc
	if [ "$CACHE_LOCK_DEPTH" = 0 ]; then
		mkdir -p "$VMSIFT_CACHE"
		exec {CACHE_LOCK_FD}>"$VMSIFT_CACHE/.fetch.lock"
		flock "$CACHE_LOCK_FD"
	fi
	CACHE_LOCK_DEPTH=$((CACHE_LOCK_DEPTH + 1))
	"$@"
	rc=$?
	CACHE_LOCK_DEPTH=$((CACHE_LOCK_DEPTH - 1))
	[ "$CACHE_LOCK_DEPTH" != 0 ] || exec {CACHE_LOCK_FD}>&-
	return $rc
}

# fetch_kernel VER: download (once) and extract linux-image-VER into the cache;
# sets KDIR (extracted root), VMLINUZ and MODDIR.  (Debian's arm64 vmlinuz
# is a plain Image, which both QEMU and kexec -p take.)
fetch_kernel() { cache_locked fetch_kernel_locked "$@"; }
fetch_kernel_locked() {
	local ver=$1 deb p
	KDIR=$VMSIFT_CACHE/kernel-$ver
	VMLINUZ=$KDIR/boot/vmlinuz-$ver
	MODDIR=$KDIR/lib/modules/$ver
	# Debian's riscv64 kernel is boot/vmlinux-VER (an EFI-stub Image QEMU
	# boots); its ppc64el kernel too (an ELF vmlinux, which QEMU's SLOF-less
	# -kernel and kexec -p both take).
	[ "$ARCH" != riscv64 ] && [ "$ARCH" != ppc64le ] || VMLINUZ=$KDIR/boot/vmlinux-$ver
	[ -f "$KDIR/.complete" ] && return 0
	mkdir -p "$VMSIFT_CACHE/debs"
	deb=$(kernel_deb "linux-image-$ver")
	# From 7.x Debian's linux-image-VER is an empty package depending on
	# linux-binary-VER (the kernel) and linux-modules-VER.
	if ! dpkg-deb -c "$deb" | grep '/boot/vmlinu' >/dev/null; then
		deb="$deb $(kernel_deb "linux-binary-$ver") $(kernel_deb "linux-modules-$ver")"
	fi
	rm -rf "$KDIR"
	mkdir -p "$KDIR"
	for p in $deb; do
		log "extracting $(basename "$p")"
		dpkg -x "$p" "$KDIR"
	done
	# 7.x: linux-binary-VER has it as usr/lib/modules/VER/vmlinuz.
	[ -f "$VMLINUZ" ] || [ ! -f "$KDIR/usr/lib/modules/$ver/vmlinuz" ] ||
		{ mkdir -p "$KDIR/boot" && ln -s "../usr/lib/modules/$ver/vmlinuz" "$VMLINUZ"; }
	# trixie's packages are merged-/usr: modules under usr/lib/modules.
	[ -d "$KDIR/lib" ] || [ ! -d "$KDIR/usr/lib/modules" ] || ln -s usr/lib "$KDIR/lib"
	depmod -b "$KDIR" "$ver"
	touch "$KDIR/.complete"
}

# kernel_deb PACKAGE: the cached .deb of PACKAGE (an exact kernel
# package name, from KAPT_OPTS's suite when set), downloaded once.
kernel_deb() {
	local deb
	deb=$(ls "$VMSIFT_CACHE"/debs/"$1"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		apt_lists
		log "downloading $1"
		# shellcheck disable=SC2086
		(cd "$VMSIFT_CACHE/debs" && timeout 1800 apt-get $KAPT_OPTS download -q "$1:$DEBARCH" >&2) ||
			die "step 'kernel download': apt-get download $1 failed (no network to the apt registry?)"
		deb=$(ls "$VMSIFT_CACHE"/debs/"$1"_*.deb | head -n1)
	fi
	echo "$deb"
}

# fetch_dbg_vmlinux VER: the -dbg package's vmlinux (858 MB download for
# 6.1, 1.0 GB for 6.12, 1.2 GB for 7.3; once).  A kernel of another suite
# needs set_arch x86_64 and set_ksuite SUITE first.
DBG_MODULE_FILES="drivers/md/dm-mod.ko drivers/md/dm-crypt.ko net/tls/tls.ko
	crypto/gcm.ko crypto/xts.ko crypto/ecb.ko crypto/essiv.ko crypto/cryptd.ko
	crypto/crypto_simd.ko arch/x86/crypto/aesni-intel.ko crypto/ctr.ko
	crypto/ccm.ko crypto/chacha20poly1305.ko crypto/authenc.ko crypto/lrw.ko
	crypto/seqiv.ko crypto/echainiv.ko net/rxrpc/rxrpc.ko net/ceph/libceph.ko"
fetch_dbg_vmlinux() { cache_locked fetch_dbg_vmlinux_locked "$@"; }
fetch_dbg_vmlinux_locked() {
	local ver=$1 deb dir=$VMSIFT_CACHE/dbg-$1 path
	DBG_VMLINUX=$dir/vmlinux-$ver
	[ -f "$DBG_VMLINUX" ] && return 0
	mkdir -p "$VMSIFT_CACHE/debs" "$dir"
	deb=$(kernel_deb "linux-image-$ver-dbg")
	# 7.x has it as usr/lib/debug/lib/modules/VER/vmlinux, the boot path
	# a symbolic link to it: both are taken, the link followed.
	log "extracting vmlinux-$ver from $(basename "$deb")"
	rm -rf "$dir/x"
	mkdir -p "$dir/x"
	# In the same pass, the modules' debug files the suites read (DWARF of
	# dm-mod, dm-crypt, tls, gcm and the crypto templates and drivers the
	# secrets rules compare: erase_modules.sh, btf.sh); a package
	# without one of them still gives the vmlinux (tar's status is not
	# the test: the vmlinux's presence is).
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/x" --wildcards \
		"./usr/lib/debug/boot/vmlinux-$ver" "./usr/lib/debug/lib/modules/$ver/vmlinux*" \
		$(for m in $DBG_MODULE_FILES; do echo "./usr/lib/debug/lib/modules/$ver/kernel/$m"; done) ||
		log "extracting from $(basename "$deb"): some member is missing (the modules' debug files are optional)"
	path=$(readlink -f "$dir/x/usr/lib/debug/boot/vmlinux-$ver")
	[ -f "$path" ] || die "step 'debug kernel': no usr/lib/debug/boot/vmlinux-$ver in $(basename "$deb")"
	mv "$path" "$DBG_VMLINUX.tmp"
	if [ -d "$dir/x/usr/lib/debug/lib/modules/$ver/kernel" ]; then
		mkdir -p "$dir/usr/lib/debug/lib/modules/$ver"
		cp -r "$dir/x/usr/lib/debug/lib/modules/$ver/kernel" "$dir/usr/lib/debug/lib/modules/$ver/"
	fi
	rm -rf "$dir/x"
	mv "$DBG_VMLINUX.tmp" "$DBG_VMLINUX"
}

# build_workload: the static workload program, rebuilt when its source changes.
build_workload() {
	local cc=gcc
	WORKLOAD_BIN=$VMSIFT_CACHE/workload
	[ "$ARCH" = arm64 ] && WORKLOAD_BIN=$VMSIFT_CACHE/workload.arm64 cc=aarch64-linux-gnu-gcc
	[ "$ARCH" = riscv64 ] && WORKLOAD_BIN=$VMSIFT_CACHE/workload.riscv64 cc=riscv64-linux-gnu-gcc
	[ "$ARCH" = ppc64le ] && WORKLOAD_BIN=$VMSIFT_CACHE/workload.ppc64le cc=powerpc64le-linux-gnu-gcc
	[ "$ARCH" = s390x ] && WORKLOAD_BIN=$VMSIFT_CACHE/workload.s390x cc=s390x-linux-gnu-gcc
	if [ ! -x "$WORKLOAD_BIN" ] || [ "$HARNESS_DIR/workload.c" -nt "$WORKLOAD_BIN" ]; then
		mkdir -p "$VMSIFT_CACHE"
		$cc -O2 -Wall -Wextra -static -o "$WORKLOAD_BIN.tmp" "$HARNESS_DIR/workload.c" ||
			die "step 'workload build': $cc -static failed"
		mv "$WORKLOAD_BIN.tmp" "$WORKLOAD_BIN"
	fi
}

# copy_with_libs ROOT BINARY NAME: put BINARY at ROOT/bin/NAME with every
# shared library ldd lists (and the dynamic loader) at the same path in ROOT.
copy_with_libs() {
	local root=$1 bin=$2 name=$3 lib
	install -D -m 755 "$bin" "$root/bin/$name"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# DEB_PKGS_<debarch>: the packages of a Debian architecture the guest and
# the host-side reference need (busybox-static, kexec-tools, makedumpfile
# and the libraries they link), fetched with apt-get download and unpacked
# into one sysroot, DEB_ROOT (fetch_deb_root).
DEB_PKGS_arm64="busybox-static kexec-tools makedumpfile libc6 zlib1g liblzo2-2 libdw1 libelf1
	libbz2-1.0 liblzma5 libzstd1 libxenmisc4.17 libxencall1 libxendevicemodel1
	libxenevtchn1 libxenforeignmemory1 libxengnttab1 libxenhypfs1 libxenstore4
	libxentoolcore1 libxentoollog1 libyajl2 libext2fs2 libcom-err2 libfdt1 libuuid1"
DEB_PKGS_ppc64el="busybox-static kexec-tools makedumpfile libc6 zlib1g liblzo2-2 libdw1 libelf1
	libbz2-1.0 liblzma5 libzstd1"
# s390x builds makedumpfile without Xen; its kernels cannot kdump, so no
# kexec-tools.
DEB_PKGS_s390x="busybox-static makedumpfile libc6 zlib1g liblzo2-2 libdw1 libelf1
	libbz2-1.0 liblzma5 libzstd1"

# relink_inside DIR: DIR's absolute symlinks (libc6's lib64/ld64.so.2 ->
# /lib/powerpc64le-linux-gnu/ld64.so.2) made relative, into DIR.  qemu-user
# -L DIR opens the interpreter DIR/lib64/ld64.so.2, and an absolute link
# from there leads to the host's /lib, which has the target only where
# libc6:DEBARCH is installed (this host has libc6:arm64, not :ppc64el).
relink_inside() {
	local l t
	find "$1" -type l -lname '/*' -print0 | while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		ln -sfn "$(realpath -ms --relative-to="$(dirname "$l")" "$1$t")" "$l"
	done
}

# fetch_deb_root: download (once) DEB_PKGS_$DEBARCH and unpack them into
# DEB_ROOT ($VMSIFT_CACHE/$DEBARCH-root), its symlinks relative.
fetch_deb_root() { cache_locked fetch_deb_root_locked "$@"; }
fetch_deb_root_locked() {
	local p pkgs debdir=$VMSIFT_CACHE/debs-$DEBARCH deb missing=
	DEB_ROOT=$VMSIFT_CACHE/$DEBARCH-root
	if [ -f "$DEB_ROOT/.complete" ]; then
		# a root unpacked before relink_inside was
		[ -f "$DEB_ROOT/.relinked" ] || { relink_inside "$DEB_ROOT" && touch "$DEB_ROOT/.relinked"; }
		return 0
	fi
	eval "pkgs=\${DEB_PKGS_$DEBARCH:-}"
	[ -n "$pkgs" ] || die "step '$DEBARCH packages': no package list DEB_PKGS_$DEBARCH in lib.sh"
	mkdir -p "$debdir"
	for p in $pkgs; do
		ls "$debdir/${p}_"*_"$DEBARCH".deb >/dev/null 2>&1 || missing="$missing $p:$DEBARCH"
	done
	if [ -n "$missing" ]; then
		log "downloading$missing"
		# shellcheck disable=SC2086
		(cd "$debdir" && timeout "$APT_TIMEOUT" apt-get download -q $missing >&2 2>/dev/null) ||
			die "step '$DEBARCH packages': apt-get download$missing failed ($DEBARCH architecture not enabled, or no network to the apt registry?)"
	fi
	rm -rf "$DEB_ROOT"
	mkdir -p "$DEB_ROOT"
	for deb in "$debdir"/*_"$DEBARCH".deb; do
		dpkg -x "$deb" "$DEB_ROOT"
	done
	relink_inside "$DEB_ROOT"
	touch "$DEB_ROOT/.relinked" "$DEB_ROOT/.complete"
}

# fetch_riscv64_qemu: bookworm's QEMU 7.2 riscv64 virt machine adds its
# fw_cfg too late for -device vmcoreinfo ("requires fw_cfg with DMA"), so
# the guest runs under bookworm-backports' qemu-system-riscv (10.0, built
# against bookworm's libraries) and its opensbi, downloaded once and
# unpacked under $VMSIFT_CACHE/qemu-riscv64 (the host's packages are left
# as they are).  $QEMU, when set, is used instead, with RISCV64_BIOS
# (default: QEMU's own OpenSBI).
fetch_riscv64_qemu() {
	local d=$VMSIFT_CACHE/qemu-riscv64 deb opts
	if [ -n "$QEMU_ENV" ]; then RISCV64_BIOS=${RISCV64_BIOS:-default}; return 0; fi
	QEMU=$d/root/usr/bin/qemu-system-riscv64
	RISCV64_BIOS=$d/root/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
	[ -f "$d/.complete" ] && return 0
	mkdir -p "$d/apt/lists/partial" "$d/apt/archives/partial" "$d/debs"
	echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main" \
		> "$d/apt/sources.list"
	opts="-o Dir::Etc::SourceList=$d/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists=$d/apt/lists -o Dir::Cache=$d/apt -o APT::Architectures::=amd64"
	if ! ls "$d"/debs/qemu-system-riscv_*.deb "$d"/debs/opensbi_*.deb >/dev/null 2>&1; then
		log "downloading bookworm-backports' qemu-system-riscv and opensbi"
		# shellcheck disable=SC2086
		timeout "$APT_TIMEOUT" apt-get $opts update -q >&2 ||
			die "step 'riscv64 QEMU': apt-get update (bookworm-backports) failed"
		# shellcheck disable=SC2086
		(cd "$d/debs" && timeout "$APT_TIMEOUT" apt-get $opts download -q \
			"qemu-system-riscv/bookworm-backports" "opensbi/bookworm-backports" >&2) ||
			die "step 'riscv64 QEMU': apt-get download qemu-system-riscv opensbi (bookworm-backports) failed"
	fi
	rm -rf "$d/root"
	mkdir -p "$d/root"
	for deb in "$d"/debs/*.deb; do dpkg -x "$deb" "$d/root"; done
	if [ ! -x "$QEMU" ] || [ ! -f "$RISCV64_BIOS" ]; then
		die "step 'riscv64 QEMU': no qemu-system-riscv64 or fw_dynamic.bin in the backports packages"
	fi
	touch "$d/.complete"
}

# RISCV64_DEBS: trixie's riscv64 packages the guest and the host-side
# reference need (busybox-static, makedumpfile and the libraries they
# link), unpacked with kexec-tools into one sysroot, RISCV64_ROOT.
# trixie has no kexec-tools:riscv64; sid's (2.0.32, which needs libc6
# >= 2.38) runs on trixie's libc.
RISCV64_DEBS="busybox-static makedumpfile libc6 libgcc-s1 zlib1g liblzo2-2 libdw1t64
	libelf1t64 libbz2-1.0 liblzma5 libzstd1"

# fetch_riscv64_root: download (once) RISCV64_DEBS through KAPT_OPTS
# (set_arch riscv64) and kexec-tools:riscv64 through a private sid source
# list, and unpack them into RISCV64_ROOT (merged-/usr: lib -> usr/lib).
fetch_riscv64_root() {
	local p debdir=$VMSIFT_CACHE/debs-riscv64 deb missing='' trixie_opts=$KAPT_OPTS
	RISCV64_ROOT=$VMSIFT_CACHE/riscv64-root
	[ -f "$RISCV64_ROOT/.complete" ] && return 0
	mkdir -p "$debdir"
	for p in $RISCV64_DEBS; do
		ls "$debdir/${p}_"*_riscv64.deb >/dev/null 2>&1 || missing="$missing $p:riscv64"
	done
	if [ -n "$missing" ]; then
		# trixie's package lists (set_arch riscv64's private_apt), fetched
		# here when nothing (kernel_version) has fetched them yet.
		if ! ls "$VMSIFT_CACHE"/apt-trixie/lists/*_Packages* >/dev/null 2>&1; then
			log "apt-get update of trixie riscv64"
			# shellcheck disable=SC2086
			timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS update -q >&2 ||
				die "step 'riscv64 packages': apt-get update (trixie riscv64) failed"
		fi
		log "downloading$missing (trixie)"
		# shellcheck disable=SC2086
		(cd "$debdir" && timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS download -q $missing >&2) ||
			die "step 'riscv64 packages': apt-get download$missing failed (no network to the apt registry?)"
	fi
	if ! ls "$debdir"/kexec-tools_*_riscv64.deb >/dev/null 2>&1; then
		private_apt sid riscv64 apt-sid
		if ! ls "$VMSIFT_CACHE"/apt-sid/lists/*_Packages* >/dev/null 2>&1; then
			log "apt-get update of sid riscv64 (for kexec-tools)"
			# shellcheck disable=SC2086
			timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS update -q >&2 ||
				die "step 'riscv64 packages': apt-get update (sid riscv64) failed"
		fi
		log "downloading kexec-tools:riscv64 (sid)"
		# shellcheck disable=SC2086
		(cd "$debdir" && timeout "$APT_TIMEOUT" apt-get $KAPT_OPTS download -q kexec-tools:riscv64 >&2) ||
			die "step 'riscv64 packages': apt-get download kexec-tools:riscv64 (sid) failed"
		KAPT_OPTS=$trixie_opts
	fi
	rm -rf "$RISCV64_ROOT"
	mkdir -p "$RISCV64_ROOT"
	for deb in "$debdir"/*_riscv64.deb; do
		dpkg -x "$deb" "$RISCV64_ROOT"
	done
	for p in lib bin sbin; do
		[ -e "$RISCV64_ROOT/$p" ] || ln -s "usr/$p" "$RISCV64_ROOT/$p"
	done
	for p in usr/bin/busybox usr/sbin/kexec usr/bin/makedumpfile; do
		[ -x "$RISCV64_ROOT/$p" ] || die "step 'riscv64 packages': no $p in $RISCV64_ROOT"
	done
	touch "$RISCV64_ROOT/.complete"
}

# deb_lib NAME: the path, inside DEB_ROOT, of the shared library NAME (the
# dynamic loader's default directories).
deb_lib() {
	local d
	for d in /lib/$TRIPLET /usr/lib/$TRIPLET /lib /usr/lib /lib64 /usr/lib64; do
		if [ -e "$DEB_ROOT$d/$1" ]; then echo "$d/$1"; return 0; fi
	done
	return 1
}

# copy_with_libs_deb ROOT BINARY NAME: copy_with_libs for a binary of
# DEB_ROOT (another architecture's): its interpreter and every library it
# needs, recursively (readelf's NEEDED), at their paths in ROOT.
copy_with_libs_deb() {
	local root=$1 bin=$2 name=$3 todo lib path interp seen=' '
	install -D -m 755 "$bin" "$root/bin/$name"
	interp=$(readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	if [ -n "$interp" ]; then
		mkdir -p "$root$(dirname "$interp")"
		cp -L "$DEB_ROOT$interp" "$root$interp" ||
			die "step '$DEBARCH initramfs': no $interp in $DEB_ROOT"
	fi
	todo=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	while :; do
		# shellcheck disable=SC2086
		set -- $todo
		[ $# -gt 0 ] || break
		lib=$1; shift; todo=$*
		case $seen in *" $lib "*) continue ;; esac
		seen="$seen$lib "
		path=$(deb_lib "$lib") ||
			die "step '$DEBARCH initramfs': $(basename "$bin") needs $lib, not in $DEB_ROOT (add its package to DEB_PKGS_$DEBARCH)"
		mkdir -p "$root$(dirname "$path")"
		cp -L "$DEB_ROOT$path" "$root$path"
		todo="$todo $(readelf -d "$DEB_ROOT$path" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
	done
}

# copy_with_libs_riscv64 ROOT BINARY NAME: copy_with_libs_deb for a
# riscv64 binary of RISCV64_ROOT (fetch_riscv64_root).
copy_with_libs_riscv64() {
	DEB_ROOT=$RISCV64_ROOT copy_with_libs_deb "$@"
}

# initramfs_tree ROOT MODULE...: busybox, the modules and their dependencies
# (in load order in ROOT/modules.order), the workload.  /init is the caller's.
initramfs_tree() {
	local root=$1 m; shift
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt,modules,etc}
	if [ "$ARCH" = arm64 ] || [ "$ARCH" = ppc64le ] || [ "$ARCH" = s390x ]; then
		fetch_deb_root
		cp "$DEB_ROOT/bin/busybox" "$root/bin/busybox"
	elif [ "$ARCH" = riscv64 ]; then
		fetch_riscv64_root
		cp "$RISCV64_ROOT/usr/bin/busybox" "$root/bin/busybox"
	else
		cp "$(command -v busybox)" "$root/bin/busybox"
	fi
	for m in sh mount umount mkdir cat echo sleep insmod poweroff reboot sync ls dd \
		grep sed head tail cp rm sysctl dmesg date uname mknod find wc tr awk; do
		ln -sf busybox "$root/bin/$m"
	done
	: > "$root/modules.order"
	# A module a newer kernel no longer has (7.x: crc32c_generic, its
	# CRC32C now built in) is left out.
	local mods=()
	for m in "$@"; do
		if modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" >/dev/null 2>&1; then
			mods+=("$m")
		else
			log "no module $m in $KVER: left out"
		fi
	done
	modprobe -d "$KDIR" -S "$KVER" --show-depends -a "${mods[@]}" | awk '$1 == "insmod" && !seen[$2]++ {print $2}' |
	while read -r m; do
		case $m in
		*.ko.xz)   # 6.12 compresses its modules; busybox insmod wants them plain
			xz -dc "$m" > "$root/modules/$(basename "$m" .xz)"
			echo "/modules/$(basename "$m" .xz)" >> "$root/modules.order" ;;
		*)
			cp "$m" "$root/modules/"
			echo "/modules/$(basename "$m")" >> "$root/modules.order" ;;
		esac
	done
	install -m 755 "$WORKLOAD_BIN" "$root/bin/workload"
}

# pack_cpio ROOT OUT: a newc cpio of ROOT (uncompressed: TCG boots it faster).
pack_cpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$2"
}

# make_data_disk IMG SIZE_MB CACHE_MB: an ext4 image whose /data holds
# CACHE_MB of patterned files for the guest to read into its page cache.
make_data_disk() {
	local img=$1 size=$2 cache_mb=$3 src=$1.src i
	rm -rf "$src" "$img"
	mkdir -p "$src/data" "$src/out"
	for i in $(seq 1 "$cache_mb"); do
		{ yes "vmsift harness page cache file $i, a line of patterned text" || true; } |
			head -c 1048576 > "$src/data/file$i"
	done
	truncate -s "${size}M" "$img"
	mkfs.ext4 -q -F -L vmsift -d "$src" "$img" >&2 || die "step 'disk image': mkfs.ext4 failed"
	rm -rf "$src"
}

# QEMU process handling.  start_qemu runs QEMU in the background with the
# serial console in $SERIAL_LOG; the EXIT trap kills it whatever happens.
QEMU_PID=
stop_qemu() {
	if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
		kill "$QEMU_PID" 2>/dev/null || true
		sleep 1
		kill -9 "$QEMU_PID" 2>/dev/null || true
	fi
	if [ -n "$QEMU_PID" ]; then wait "$QEMU_PID" 2>/dev/null || true; fi
	QEMU_PID=
}
trap stop_qemu EXIT
set -o errtrace   # the ERR report below also for failures inside functions
trap 'printf "[%s] ERROR: command failed (%s line %s): %s\n" "$(date +%T)" "${BASH_SOURCE[0]##*/}" "$LINENO" "$BASH_COMMAND" >&2' ERR
trap 'exit 130' INT TERM

start_qemu() {
	: > "$SERIAL_LOG"
	echo "$QEMU $*" > "${SERIAL_LOG%.log}.cmdline"
	"$QEMU" -accel tcg -display none -vga none -monitor none \
		-serial "file:$SERIAL_LOG" -no-reboot "$@" \
		> "${SERIAL_LOG%.log}.qemu-stderr" 2>&1 &
	QEMU_PID=$!
}

# wait_line PATTERN SECONDS STEP: wait until the serial log has a line matching
# PATTERN (grep -E).  Fails naming STEP when the time runs out, when QEMU exits
# first, or when the guest reports "HARNESS: FAIL".
wait_line() {
	local pat=$1 secs=$2 step=$3 t0=$SECONDS
	while ! grep -qaE "$pat" "$SERIAL_LOG"; do
		if grep -qa 'HARNESS: FAIL' "$SERIAL_LOG"; then
			die "step '$step': the guest reported: $(grep -a 'HARNESS: FAIL' "$SERIAL_LOG" | head -n1 | tr -d '\r'); serial log: $SERIAL_LOG"
		fi
		if ! kill -0 "$QEMU_PID" 2>/dev/null; then
			die "step '$step': QEMU exited before '$pat' (qemu stderr: ${SERIAL_LOG%.log}.qemu-stderr); serial log: $SERIAL_LOG"
		fi
		if [ $((SECONDS - t0)) -ge "$secs" ]; then
			die "step '$step': no '$pat' after ${secs}s; serial log: $SERIAL_LOG"
		fi
		sleep 0.5
	done
}

# wait_qemu_exit SECONDS STEP
wait_qemu_exit() {
	local secs=$1 step=$2 t0=$SECONDS
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		if grep -qa 'HARNESS: FAIL' "$SERIAL_LOG"; then
			die "step '$step': the guest reported: $(grep -a 'HARNESS: FAIL' "$SERIAL_LOG" | head -n1 | tr -d '\r'); serial log: $SERIAL_LOG"
		fi
		[ $((SECONDS - t0)) -lt "$secs" ] ||
			die "step '$step': QEMU still running after ${secs}s; serial log: $SERIAL_LOG"
		sleep 0.5
	done
	wait "$QEMU_PID" 2>/dev/null || true
	QEMU_PID=
}

# fresh_dir DIR: empty DIR for a run; refuses to wipe a folder that holds
# something other than an earlier run (it must contain serial.log).
fresh_dir() {
	if [ -e "$1" ] && [ -n "$(ls -A "$1" 2>/dev/null)" ] && [ ! -e "$1/serial.log" ]; then
		die "$1 exists and is not a folder of an earlier run (no serial.log); not wiping it"
	fi
	rm -rf "$1"
	mkdir -p "$1"
}

# cpu_flag PAGING: the -cpu argument for 4- or 5-level paging under TCG.
cpu_flag() {
	case $1 in
	4) echo "max,la57=off" ;;
	5) echo "max" ;;
	*) die "paging must be 4 or 5, not '$1'" ;;
	esac
}
