/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * encrypt.c - the command's age options: --encrypt-to RECIPIENT
 * (repeatable), --encrypt-to-file FILE (one recipient a line, as
 * `age -R` reads), checked before anything is opened, and --identity
 * FILE for reading encrypted dumps.  Uses the public API only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_add_recipient(struct cli *c, const char *r)
{
	const char **p = realloc(c->recipients,
				 (c->nr_recipients + 1) * sizeof(*p));
	char *copy = strdup(r);

	if (!p || !copy) {
		free(copy);
		if (p)
			c->recipients = p;
		return cli_error("out of memory");
	}
	c->recipients = p;
	c->recipients[c->nr_recipients++] = copy;
	c->opts.encrypt_to = c->recipients;
	c->opts.nr_encrypt_to = c->nr_recipients;
	return 0;
}

/* One recipient a line; blank lines and '#' comments skipped. */
int cli_add_recipients_file(struct cli *c, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	unsigned lineno = 0, before = c->nr_recipients;
	int ret = 0;

	if (!f)
		return cli_error("cannot open recipients file '%s': %s", path,
				 strerror(errno));
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		size_t l = strcspn(line, "\r\n");

		lineno++;
		line[l] = '\0';
		if (l && line[0] != '#')
			ret = cli_add_recipient(c, line);
	}
	if (ret == 0 && ferror(f))
		ret = cli_error("cannot read recipients file '%s'", path);
	fclose(f);
	if (ret == 0 && c->nr_recipients == before)
		ret = cli_error("recipients file '%s' holds no recipient", path);
	return ret;
}

/* Every recipient checked, and what cannot be encrypted refused, before
 * the input is opened or an output created. */
int cli_check_encryption(const struct cli *c)
{
	struct vmsift *vs;
	int ret = 0;

	if (!c->nr_recipients)
		return 0;
	if (c->opts.format == VMSIFT_FORMAT_ELF)
		return cli_error("-E cannot be encrypted: an encrypted dump is "
				 "a kdump-compressed flattened stream, written "
				 "once (drop -E)");
	if (c->rebuild || c->reassemble || c->dump_dmesg || c->partial_dmesg)
		return cli_error("--encrypt-to applies to writing a dump, not "
				 "to -R, --reassemble or --dump-dmesg");
	vs = vmsift_new();
	if (!vs)
		return cli_error("out of memory");
	for (unsigned i = 0; i < c->nr_recipients && ret == 0; i++)
		if (vmsift_check_recipient(vs, c->recipients[i]) < 0)
			ret = cli_error("%s", vmsift_error(vs));
	vmsift_free(vs);
	return ret;
}

int cli_set_identity(struct vmsift *vs, const struct cli *c)
{
	return c->identity ? vmsift_set_identity(vs, c->identity) : 0;
}

void cli_free_recipients(struct cli *c)
{
	for (unsigned i = 0; i < c->nr_recipients; i++)
		free((char *)(uintptr_t)c->recipients[i]);
	free(c->recipients);
	c->recipients = NULL;
	c->nr_recipients = 0;
}
