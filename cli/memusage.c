/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memusage.c - the command's --mem-usage mode: makedumpfile's table of
 * page types on any input vmsift reads (an ELF vmcore, a kdump file,
 * x86_64's /proc/kcore on a live system), then the size a kdump-compressed dump
 * would have at levels 1 and 31 with each codec, one line each for
 * scripts.  Called by main.c; uses the public API only.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static void print_table(const struct vmsift_mem_usage *mu)
{
	uint64_t excluded = mu->zero + mu->cache + mu->cache_private +
			    mu->user + mu->free + mu->hwpoison + mu->offline;

	printf("\n");
	printf("TYPE\t\tPAGES\t\t\tEXCLUDABLE\tDESCRIPTION\n");
	printf("----------------------------------------------------------------------\n");
	printf("ZERO\t\t%-16llu\tyes\t\tPages filled with zero%s\n",
	       (unsigned long long)mu->zero,
	       mu->zero_estimated ? " (estimated)" : "");
	printf("NON_PRI_CACHE\t%-16llu\tyes\t\tCache pages without private flag\n",
	       (unsigned long long)mu->cache);
	printf("PRI_CACHE\t%-16llu\tyes\t\tCache pages with private flag\n",
	       (unsigned long long)mu->cache_private);
	printf("USER\t\t%-16llu\tyes\t\tUser process pages\n",
	       (unsigned long long)mu->user);
	printf("FREE\t\t%-16llu\tyes\t\tFree pages\n",
	       (unsigned long long)mu->free);
	printf("KERN_DATA\t%-16llu\tno\t\tDumpable kernel data \n",
	       (unsigned long long)(mu->present - excluded));
	printf("\n");
	printf("page size:\t\t%-16llu\n", (unsigned long long)mu->page_size);
	printf("Total pages on system:\t%-16llu\n",
	       (unsigned long long)mu->present);
	printf("Total size on system:\t%-16llu Byte\n",
	       (unsigned long long)(mu->present * mu->page_size));
}

static void print_sizes(const struct vmsift_mem_usage *mu)
{
	printf("\n");
	for (unsigned i = 0; i < mu->nr_sizes; i++)
		printf("DUMP_SIZE level=%u codec=%s bytes=%llu\n",
		       mu->sizes[i].level, vmsift_codec_name(mu->sizes[i].codec),
		       (unsigned long long)mu->sizes[i].bytes);
}

/* The sample's bound and phase, from the environment: for bench/memusage,
 * which measures the estimate's spread (doc/mem-usage.md). */
static void sample_from_env(struct vmsift_mem_usage *mu)
{
	const char *pages = getenv("VMSIFT_SAMPLE_PAGES");
	const char *seed = getenv("VMSIFT_SAMPLE_SEED");

	if (pages)
		mu->sample_pages = (unsigned)strtoul(pages, NULL, 0);
	if (seed)
		mu->sample_seed = strtoull(seed, NULL, 0);
}

int cli_mem_usage(struct cli *c)
{
	struct vmsift_mem_usage mu = { .struct_size = sizeof(mu) };
	struct vmsift *vs;
	int ret = -1;

	if (c->nargs != 1)
		return cli_error("--mem-usage expects one input, got %d "
				 "arguments", c->nargs), 1;
	sample_from_env(&mu);
	mu.exact_zero = (unsigned)c->exact_zero;
	vs = vmsift_new();
	if (!vs)
		return cli_error("out of memory"), 1;
	if (vmsift_open(vs, c->args[0]) < 0 ||
	    (c->vmcoreinfo && vmsift_set_vmcoreinfo_file(vs, c->vmcoreinfo) < 0) ||
	    vmsift_mem_usage(vs, &c->opts, &mu) < 0) {
		cli_error("%s", vmsift_error(vs));
	} else {
		print_table(&mu);
		print_sizes(&mu);
		if (c->message_level & ML_REPORT)
			printf("\n%llu pages compressed, %.2f s\n",
			       (unsigned long long)mu.sampled, mu.seconds);
		ret = 0;
	}
	vmsift_free(vs);
	return ret < 0 ? 1 : 0;
}
