// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crypto.c - libcrypto loaded at the first use, or linked (see crypto.h).
 */
#include <string.h>

#include "crypto.h"

#ifdef VMSIFT_CRYPTO_LINKED

#define VS_CRYPTO_LINK(ret, name, args) .name = name,
static const struct vs_crypto linked = {
	VS_CRYPTO_FUNCS(VS_CRYPTO_LINK)
};
#undef VS_CRYPTO_LINK

const struct vs_crypto *vs_crypto(void)
{
	return &linked;
}

int vs_crypto_load(struct vs_error *err)
{
	(void)err;
	return 0;
}

#else

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* Written once, under ONCE; read-only afterwards. */
static struct {
	pthread_once_t once;
	int loaded;
	struct vs_crypto fns;
	char why[256];
} lazy = { .once = PTHREAD_ONCE_INIT };

static void *symbol(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p)
		snprintf(lazy.why, sizeof(lazy.why), "%s has no %s",
			 VS_CRYPTO_SONAME, name);
	return p;
}

static void load(void)
{
	void *h = dlopen(VS_CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(lazy.why, sizeof(lazy.why), "%s",
			 e ? e : "cannot be loaded");
		return;
	}
#define VS_CRYPTO_SYM(ret, name, args)					\
	if (!(lazy.fns.name = (ret (*) args)symbol(h, #name)))		\
		goto fail;
	VS_CRYPTO_FUNCS(VS_CRYPTO_SYM)
#undef VS_CRYPTO_SYM
	lazy.loaded = 1;
	return;  /* kept loaded until the process ends */
fail:
	dlclose(h);
}

const struct vs_crypto *vs_crypto(void)
{
	pthread_once(&lazy.once, load);
	return lazy.loaded ? &lazy.fns : NULL;
}

int vs_crypto_load(struct vs_error *err)
{
	if (vs_crypto())
		return 0;
	return vs_err_st(err, VMSIFT_E_UNSUPPORTED, "encryption needs "
			 "OpenSSL's %s (Debian package %s): %s",
			 VS_CRYPTO_SONAME, VS_CRYPTO_PACKAGE, lazy.why);
}

#endif

void vs_cleanse(void *p, size_t len)
{
	explicit_bzero(p, len);
}

int vs_equal_ct(const void *a, const void *b, size_t len)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;

	for (size_t i = 0; i < len; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
