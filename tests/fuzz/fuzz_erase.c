/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_erase.c - the --config parser (erase_config.c) and the rule
 * evaluator (erase.c) on hostile text and hostile kernel memory.
 * Input: the config text, a NUL byte, then up to 16 KiB of the dead
 * kernel's memory at VBASE (the rest 0xee) of the hand-made kernel of
 * tests/unit/erase_world.h; without a NUL the whole input is the text.
 * A config that parses is resolved, applied to one page and its
 * eraseinfo text written.  Its [mod], [a] and [b] sections are the
 * modules of tests/unit/module_decl.h, whose declarations are completed
 * (typeinfo_complete.c, the layout digest of a's and b's definitions).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "../../lib/erase.h"
#include "../unit/erase_world.h"
#include "../unit/ti_spec.h"
#include "../unit/module_decl.h"

static void evaluate(const struct vs_erase_config *c, struct fake_mem *m)
{
	static struct tis spec;
	static struct xm x;
	struct vs_erase_modules mods = { &x, xm_source, xm_complete };
	struct vs_typeinfo ti = { &tis_ops, &spec };
	struct vs_erase_mem mem = { .ctx = m, .read = fm_read,
				    .vtop = fm_vtop, .ptr_size = 8,
				    .page_size = PS };
	struct vs_erase_opts opts = { .nparts = 2, .ignore_missing = 1,
				      .max_iter = 4096, .modules = &mods };
	static uint8_t page[PS], scratch[PS];
	struct vs_erase *e;
	struct vs_error err;
	char text[256];

	if (!spec.ntypes && tis_parse(&spec, erase_world_spec) < 0)
		abort();
	if (!x.spec[0].ntypes)
		xm_init(&x);
	if (vs_erase_build(&e, c, &ti, &mem, &opts, &err) < 0)
		return;
	for (uint64_t pfn = PBASE / PS; pfn < (PBASE + MSIZE) / PS; pfn++)
		vs_erase_page(e, (unsigned)(pfn & 1), pfn, page, scratch);
	vs_erase_text(e, 0, text, sizeof(text));
	vs_erase_text(e, 1, NULL, 0);
	vs_erase_text_bound(e);
	vs_erase_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	static struct fake_mem m;
	struct vs_erase_config *c;
	struct vs_error err;
	/* A copy exactly TLEN bytes long, so that ASan sees any over-read. */
	char *text = malloc(tlen ? tlen : 1);

	if (!text)
		return 0;
	memcpy(text, data, tlen);
	memset(m.b, 0xee, sizeof(m.b));
	if (nul) {
		size_t n = size - tlen - 1;

		memcpy(m.b, nul + 1, n < sizeof(m.b) ? n : sizeof(m.b));
	}
	if (vs_erase_config_parse(text, tlen, "fuzz.conf", &c, &err) == 0) {
		evaluate(c, &m);
		vs_erase_config_free(c);
	}
	free(text);
	return 0;
}
