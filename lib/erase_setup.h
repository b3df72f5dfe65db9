/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * erase_setup.h - the erase rules of one dump (--config), resolved from
 * the input with the session's symbol and type source (typeinfo.h).
 */
#ifndef VMSIFT_ERASE_SETUP_H
#define VMSIFT_ERASE_SETUP_H

#include "erase.h"
#include "input.h"

/* Parse the config file PATH and resolve its rules against IN's memory
 * and TI into *OUT.  Fails when TI has no source (no -x, no BTF). */
int vs_erase_setup(struct vs_erase **out, const struct vs_input *in,
		   const struct vs_typeinfo *ti, const char *path,
		   const struct vs_erase_opts *opts, struct vs_error *err);

#endif
