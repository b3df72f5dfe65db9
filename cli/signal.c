/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signal.c - the command's signal handling, shared by the dump (dump.c)
 * and --split (split.c): SIGINT and SIGTERM call vmsift_cancel() on the
 * session being dumped, so the dump ends as an incomplete one and the
 * command exits 1.  The one session a handler can reach is the only
 * file-scope state of the program.
 */
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "cli.h"

static struct vmsift *volatile signal_target;

static void on_signal(int sig)
{
	struct vmsift *vs = signal_target;

	(void)sig;
	if (vs)
		vmsift_cancel(vs);
}

void cli_catch_signals(struct vmsift *vs)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_target = vs;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed pipe under -F is a write error (EPIPE), not a death. */
	signal(SIGPIPE, SIG_IGN);
}

void cli_release_signals(void)
{
	signal_target = NULL;
}
