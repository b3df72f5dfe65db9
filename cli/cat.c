/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cat.c - vmsift cat: bytes of a dump's memory to stdout, by physical
 * address, page frame or kernel virtual address (translated through the
 * dump's own page tables).  A page the dump does not hold is an error
 * naming it, or zeros with --zeros.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "readcmd.h"

enum { CAT_PHYS = 1, CAT_PFN, CAT_VIRT, CAT_ZEROS };

struct cat {
	int kind;                    /* CAT_PHYS, CAT_PFN, CAT_VIRT */
	uint64_t addr, len;
	int has_len;
	int zeros;
	struct read_input in;
};

static void cat_usage(FILE *f)
{
	fprintf(f,
"usage: vmsift cat [options] --phys ADDR[+LEN] DUMP...\n"
"       vmsift cat [options] --pfn PFN DUMP...\n"
"       vmsift cat [options] --virt KADDR[+LEN] DUMP...\n"
"\n"
"Write LEN bytes (default: one page) of the dump's memory to stdout:\n"
"physical memory, one page frame, or the kernel's virtual memory through\n"
"the dump's page tables.  DUMP... is one dump or the files of a split set.\n"
"\n"
"  --zeros          a page the dump does not hold reads as zeros\n"
"                   (default: an error naming it)\n"
"  --cache-size SIZE  decompressed pages kept (bytes; K, M, G suffixes;\n"
"                   default 0: none, each page is read once)\n"
"  --identity FILE  the key of an encrypted dump\n"
"\n"
"Numbers are decimal or 0x-prefixed hex.\n");
}

/* ADDR or ADDR+LEN. */
static int parse_range(struct cat *c, int kind, const char *arg)
{
	char *end;

	if (c->kind)
		return cli_error("give one of --phys, --pfn, --virt");
	c->kind = kind;
	errno = 0;
	c->addr = strtoull(arg, &end, 0);
	if (errno || end == arg || *arg == '-')
		return cli_error("invalid address '%s'", arg);
	if (*end == '+' && kind != CAT_PFN) {
		const char *l = end + 1;

		c->len = strtoull(l, &end, 0);
		if (errno || end == l || *l == '-' || c->len == 0)
			return cli_error("invalid length in '%s'", arg);
		c->has_len = 1;
	}
	if (*end)
		return cli_error("invalid address '%s'", arg);
	return 0;
}

static int parse_cat(struct cat *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "phys", required_argument, NULL, CAT_PHYS },
		{ "pfn", required_argument, NULL, CAT_PFN },
		{ "virt", required_argument, NULL, CAT_VIRT },
		{ "zeros", no_argument, NULL, CAT_ZEROS },
		READ_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, r;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if ((r = read_option(&c->in, opt, optarg, argv)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if (opt == 'h') {
			cat_usage(stdout);
			exit(0);
		}
		if (opt == CAT_ZEROS)
			c->zeros = 1;
		else if (parse_range(c, opt, optarg) < 0)
			return -1;
	}
	if (!c->kind || read_operands(&c->in, argc, argv, 0) < 0)
		return cli_error("vmsift cat needs --phys, --pfn or --virt and "
				 "a dump");
	return 0;
}

static int write_all(const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(STDOUT_FILENO, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return cli_error("cannot write to stdout: %m");
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* N bytes (inside one page) at ADDR into BUF; with --zeros, a page the
 * dump does not hold gives zeros. */
static int read_piece(const struct cat *c, struct vmsift_reader *r,
		      uint64_t addr, uint8_t *buf, size_t n)
{
	int rc = c->kind == CAT_VIRT ? vmsift_read_kvirt(r, addr, buf, n) :
				       vmsift_read_phys(r, addr, buf, n);

	if (rc == 0)
		return 0;
	if (c->zeros && vmsift_reader_status(r) == VMSIFT_E_NO_DATA) {
		memset(buf, 0, n);
		return 0;
	}
	return cli_error("%s", vmsift_reader_error(r));
}

static int copy_out(const struct cat *c, struct vmsift_dumpfile *df)
{
	uint64_t ps = vmsift_dumpfile_page_size(df);
	uint64_t addr = c->kind == CAT_PFN ? c->addr * ps : c->addr;
	uint64_t left = c->has_len ? c->len : ps;
	struct vmsift_reader *r = vmsift_reader_new(df);
	uint8_t *buf = malloc(ps);
	int ret = 0;

	if (!r || !buf)
		ret = cli_error("out of memory");
	if (c->kind == CAT_PFN && c->addr >= vmsift_dumpfile_max_pfn(df))
		ret = cli_error("pfn 0x%" PRIx64 " is past the dump's last, "
				"0x%" PRIx64, c->addr,
				vmsift_dumpfile_max_pfn(df) - 1);
	while (ret == 0 && left) {
		size_t n = (size_t)(ps - (addr & (ps - 1)));

		if (n > left)
			n = (size_t)left;
		ret = read_piece(c, r, addr, buf, n);
		if (ret == 0)
			ret = write_all(buf, n);
		addr += n;
		left -= n;
	}
	free(buf);
	vmsift_reader_free(r);
	return ret;
}

int cmd_cat(int argc, char **argv)
{
	struct cat c = { .in = { .cache_bytes = 0 } };
	struct vmsift_dumpfile *df;
	int ret;

	if (parse_cat(&c, argc, argv) < 0) {
		fprintf(stderr, "Try 'vmsift cat -h' for help.\n");
		return -1;
	}
	if (read_open_dump(&c.in, &df) < 0)
		return -1;
	ret = copy_out(&c, df);
	vmsift_dumpfile_free(df);
	return ret;
}
