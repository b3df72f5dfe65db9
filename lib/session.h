/* session.h - struct vmsift, the opaque session of the public API. */
#ifndef VMSIFT_SESSION_H
#define VMSIFT_SESSION_H

#include <stdatomic.h>

#include "error.h"
#include "input.h"
#include "vmsift.h"

struct vmsift {
	struct vs_error err;
	struct vs_input in;
	int opened;
	struct vmsift_stats stats;
	char *doubts;                /* what filtering found doubtful */
	atomic_int cancel;           /* set by vmsift_cancel() */
};

#endif
