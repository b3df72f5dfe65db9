/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the vmsift command: makedumpfile's command line over
 * libvmsift.  Parses options, opens files, prints messages and the
 * report; everything else is the library's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "vmsift.h"

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ "message-level", required_argument, NULL, OPT_MESSAGE_LEVEL },
	{ "show-stats", no_argument, NULL, OPT_SHOW_STATS },
	{ "non-mmap", no_argument, NULL, OPT_NON_MMAP },
	{ "read-path", required_argument, NULL, OPT_READ_PATH },
	{ "num-threads", required_argument, NULL, OPT_NUM_THREADS },
	{ "cyclic-buffer", required_argument, NULL, OPT_CYCLIC_BUFFER },
	{ "work-dir", required_argument, NULL, OPT_WORK_DIR },
	{ "compression-level", required_argument, NULL, OPT_LEVEL },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "reassemble", no_argument, NULL, OPT_REASSEMBLE },
	{ "xen-syms", required_argument, NULL, OPT_UNSUPPORTED },
	{ "xen-vmcoreinfo", required_argument, NULL, OPT_UNSUPPORTED },
	{ "xen_phys_start", required_argument, NULL, OPT_UNSUPPORTED },
	{ "vtop", required_argument, NULL, OPT_UNSUPPORTED },
	{ "dump-dmesg", no_argument, NULL, OPT_DUMP_DMESG },
	{ "partial-dmesg", no_argument, NULL, OPT_PARTIAL_DMESG },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "erase-ignore-missing", no_argument, NULL, OPT_ERASE_IGNORE_MISSING },
	{ "diskset", required_argument, NULL, OPT_UNSUPPORTED },
	{ "eppic", required_argument, NULL, OPT_UNSUPPORTED },
	{ "mem-usage", no_argument, NULL, OPT_MEM_USAGE },
	{ "exact-zero", no_argument, NULL, OPT_EXACT_ZERO },
	{ "splitblock-size", required_argument, NULL, OPT_SPLITBLOCK_SIZE },
	{ "check-params", no_argument, NULL, OPT_CHECK_PARAMS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "extension", required_argument, NULL, OPT_UNSUPPORTED },
	{ "encrypt-to", required_argument, NULL, OPT_ENCRYPT_TO },
	{ "encrypt-to-file", required_argument, NULL, OPT_ENCRYPT_TO_FILE },
	{ "identity", required_argument, NULL, OPT_IDENTITY },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmsift [-c|-l|-p|-z] [-E] [-d LEVEL] [-f] [-i VMCOREINFO]\n"
"              [--non-mmap] [--num-threads N] [--message-level N]\n"
"              [--show-stats] VMCORE DUMPFILE\n"
"       vmsift -F [options] VMCORE > STREAM\n"
"       vmsift -R DUMPFILE < STREAM\n"
"       vmsift --split [options] VMCORE DUMPFILE1 DUMPFILE2 [...]\n"
"       vmsift --reassemble DUMPFILE1 DUMPFILE2 [...] DUMPFILE\n"
"       vmsift --dump-dmesg [--partial-dmesg] [-f] VMCORE LOGFILE\n"
"       vmsift -g VMCOREINFO -x VMLINUX\n"
"       vmsift --mem-usage VMCORE\n"
"       vmsift mount [options] DUMP... MOUNTPOINT   (vmsift mount -h)\n"
"       vmsift umount MOUNTPOINT\n"
"       vmsift cat --phys ADDR[+LEN]|--pfn PFN|--virt KADDR[+LEN] DUMP...\n"
"\n"
"Save a Linux crash dump (makedumpfile's command line).\n"
"\n"
"  -c, -l, -p, -z   compress pages with zlib, lzo, snappy or zstd\n"
"  -E               write an ELF core file instead of kdump-compressed\n"
"  -F               write makedumpfile's flattened stream to stdout\n"
"  -R               rebuild DUMPFILE from a flattened stream on stdin\n"
"  --split          write N kdump files, each a pfn range, in one pass\n"
"  --splitblock-size KB  the unit that balances --split (default 1 GiB)\n"
"  --reassemble     merge split files into the file a direct dump gives\n"
"  --config FILE    erase the kernel data FILE's rules name (doc/erase.md)\n"
"  --erase-ignore-missing  skip a --config rule naming what the kernel lacks\n"
"  -d LEVEL         exclude pages: 1 zero, 2 non-private cache,\n"
"                   4 private cache, 8 user data, 16 free (sum, 0-31)\n"
"  -e               leave out the struct pages of excluded pages\n"
"  -f               overwrite an existing DUMPFILE\n"
"  -L SIZE          write at most SIZE bytes (K, M, G, T suffixes); a dump\n"
"                   cut there is kept, marked incomplete, unless -d lists\n"
"                   another level to retry with (-d 1,31)\n"
"  -b ORDER         accepted for compatibility (write cache size)\n"
"  -i VMCOREINFO    take VMCOREINFO from this text file\n"
"  -x VMLINUX       take what VMCOREINFO lacks from this debug vmlinux\n"
"  -g VMCOREINFO    with -x: write the vmlinux's VMCOREINFO text, then exit\n"
"  --non-mmap       read VMCORE with read(), never mmap()\n"
"  --read-path auto|windows|runs  how kept pages are read: windows, one\n"
"                   read() a run; auto: runs on a file, windows on /proc\n"
"  --num-threads N  worker threads (default: CPUs online)\n"
"  --compression-level N  codec level (zlib 1-12, zstd -7-22; default 1)\n"
"  --message-level N  1 progress, 2 common, 4 error, 8 debug, 16 report\n"
"  --show-stats     print the report of excluded pages\n"
"  --dry-run        do everything but write the dump\n"
"  --check-params   check the command line, then exit\n"
"  --dump-dmesg     write the kernel's log buffer to LOGFILE as text\n"
"  --partial-dmesg  with --dump-dmesg: only since the last 'dmesg --clear'\n"
"  --mem-usage      page types, and the dump's size per level and codec\n"
"  --exact-zero     with --mem-usage: count the zero pages, reading every\n"
"                   page kept at -d 31 (on a vmcore they are estimated)\n"
"  --cyclic-buffer KB, --work-dir DIR  accepted for compatibility\n"
"  --encrypt-to RECIPIENT  encrypt the dump to this age public key (age1...;\n"
"                   repeatable): an age file of the flattened stream\n"
"  --encrypt-to-file FILE  the same, one recipient a line\n"
"  --identity FILE  read an encrypted dump with this age identity file\n"
"  -D               debug messages\n"
"  -h, -v           this help; version and built-in codecs\n"
"\n"
"Exit status: 0 on success, 1 on failure, 2 when -x names another\n"
"kernel's vmlinux.\n");
}

static void version(void)
{
	printf("vmsift: version %s\n", vmsift_version());
	printf("compiled in: zlib lzo snappy zstd\n");
}

static int parse_number(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_read_path(struct cli *c, const char *arg)
{
	static const char *const names[] = {
		[VMSIFT_READ_AUTO] = "auto",
		[VMSIFT_READ_WINDOWS] = "windows",
		[VMSIFT_READ_RUNS] = "runs",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			c->opts.read_path = (enum vmsift_read_path)i;
			return 0;
		}
	}
	return cli_error("invalid read path '%s' (auto, windows or runs)", arg);
}

static int set_codec(struct cli *c, enum vmsift_codec codec)
{
	c->opts.codec = codec;  /* the last one wins, as in makedumpfile */
	return 0;
}

static int parse_option(struct cli *c, int opt, const char *arg)
{
	long v;

	switch (opt) {
	case 'c': return set_codec(c, VMSIFT_CODEC_ZLIB);
	case 'l': return set_codec(c, VMSIFT_CODEC_LZO);
	case 'p': return set_codec(c, VMSIFT_CODEC_SNAPPY);
	case 'z': return set_codec(c, VMSIFT_CODEC_ZSTD);
	case 'E': c->opts.format = VMSIFT_FORMAT_ELF; return 0;
	case 'e': c->opts.exclude_vmemmap = 1; return 0;
	case 'F': c->opts.flattened = 1; return 0;
	case 'R': c->rebuild = 1; return 0;
	case 'f': c->force = 1; return 0;
	case 'i': c->vmcoreinfo = arg; return 0;
	case 'x': c->vmlinux = arg; return 0;
	case 'g': c->gen_vmcoreinfo = arg; return 0;
	case 'D': c->message_level |= ML_DEBUG; return 0;
	case 'd': return cli_parse_dump_level(c, arg);
	case 'h': c->help = 1; return 0;
	case 'v': c->version = 1; return 0;
	case OPT_NON_MMAP: c->opts.no_mmap = 1; return 0;
	case OPT_READ_PATH: return parse_read_path(c, arg);
	case OPT_CHECK_PARAMS: c->check_params = 1; return 0;
	case OPT_SPLIT: c->split = 1; return 0;
	case OPT_REASSEMBLE: c->reassemble = 1; return 0;
	case OPT_SPLITBLOCK_SIZE:
		if (parse_number(arg, 1, 1L << 40, &v) < 0)
			return cli_error("invalid splitblock size '%s' (KiB)", arg);
		c->opts.splitblock_size = (uint64_t)v << 10;
		return 0;
	case OPT_DRY_RUN: c->opts.dry_run = 1; return 0;
	case OPT_CONFIG: c->opts.erase_config = arg; return 0;
	case OPT_ERASE_IGNORE_MISSING: c->opts.erase_ignore_missing = 1; return 0;
	case OPT_MEM_USAGE: c->mem_usage = 1; return 0;
	case OPT_EXACT_ZERO: c->exact_zero = 1; return 0;
	case 'L':
		if (cli_parse_size(arg, &c->opts.size_limit) < 0)
			return cli_error("invalid size limit '%s' (bytes, or "
					 "with a K, M, G, T, P or E suffix)", arg);
		return 0;
	case 'b':
		/* makedumpfile's write cache of 2^ORDER pages: vmsift's
		 * buffers are sized on their own; checked and accepted. */
		if (parse_number(arg, 0, 20, &v) < 0)
			return cli_error("invalid block order '%s' (0-20)", arg);
		return 0;
	case OPT_SHOW_STATS: c->message_level |= ML_REPORT; return 0;
	case OPT_DUMP_DMESG: c->dump_dmesg = 1; return 0;
	case OPT_ENCRYPT_TO: return cli_add_recipient(c, arg);
	case OPT_ENCRYPT_TO_FILE: return cli_add_recipients_file(c, arg);
	case OPT_IDENTITY: c->identity = arg; return 0;
	case OPT_PARTIAL_DMESG: c->partial_dmesg = 1; return 0;
	case OPT_CYCLIC_BUFFER:
	case OPT_WORK_DIR:
		return 0;  /* no bitmap buffers or files to size: accepted */
	case OPT_MESSAGE_LEVEL:
		if (parse_number(arg, 0, 31, &v) < 0)
			return cli_error("invalid message level '%s' (0-31)", arg);
		c->message_level = (unsigned)v | (c->message_level & ML_DEBUG);
		return 0;
	case OPT_NUM_THREADS:
		if (parse_number(arg, 1, 4096, &v) < 0)
			return cli_error("invalid thread count '%s'", arg);
		c->opts.threads = (unsigned)v;
		return 0;
	case OPT_LEVEL:
		if (parse_number(arg, -131072, 22, &v) < 0)
			return cli_error("invalid compression level '%s'", arg);
		c->opts.codec_level = (int)v;
		return 0;
	default:
		return -1;
	}
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	int opt, idx = 0;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "b:cDd:eEFfg:hi:lL:pRvXx:z",
				  long_opts, &idx)) != -1) {
		if (opt == OPT_UNSUPPORTED)
			return cli_error("option '--%s' is not implemented yet",
					 long_opts[idx].name);
		if (opt < 128 && strchr("X", opt))
			return cli_error("option '-%c' is not implemented yet",
					 opt);
		if (opt == '?') {
			if (optopt)
				return cli_error("unknown option '-%c' or "
						 "missing argument", optopt);
			return cli_error("unknown option '%s'",
					 argv[optind - 1]);
		}
		if (parse_option(c, opt, optarg) < 0)
			return -1;
	}
	c->args = argv + optind;
	c->nargs = argc - optind;
	return 0;
}

static int dispatch(struct cli *c)
{
	if (c->gen_vmcoreinfo)
		return cli_gen_vmcoreinfo(c);
	if (c->rebuild)
		return cli_rebuild(c);
	if (c->reassemble)
		return cli_reassemble(c);
	if (c->split)
		return cli_exit_status(c, cli_split(c));
	if (c->dump_dmesg || c->partial_dmesg)
		return cli_exit_status(c, cli_dump_dmesg(c));
	if (c->mem_usage)
		return cli_exit_status(c, cli_mem_usage(c));
	return cli_exit_status(c, cli_dump(c));
}

int main(int argc, char **argv)
{
	struct cli c = { .message_level = ML_DEFAULT };
	int ret;
	int status;

	if (cli_subcommand(argc, argv, &status))
		return status;
	vmsift_options_init(&c.opts);
	if (parse_args(&c, argc, argv) < 0) {
		fprintf(stderr, "Try 'vmsift -h' for help.\n");
		cli_free_recipients(&c);
		return 1;
	}
	if (c.help) {
		usage(stdout);
		return 0;
	}
	if (c.version) {
		version();
		return 0;
	}
	ret = cli_check_encryption(&c) < 0 ? 1 : dispatch(&c);
	cli_free_recipients(&c);
	return ret;
}
