/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_agehdr.c - the age header (age.c): vs_age_header_parse() of the
 * text header, then vs_age_unwrap() with a fixed test identity (the
 * X25519 stanzas, the MAC), and the payload key.  Also the identity-file
 * parser on the same bytes.
 * Input: the start of an age file.  Seeds: files `age -r` encrypted to
 * FZ_AGE_RECIPIENT (fuzz_common.h), see README.md.
 */
#include <string.h>

#include "age.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_age_ids ids = { 0 }, other = { 0 };
	struct vs_age_header h;
	struct vs_error err = { 0 };
	uint8_t file_key[VS_AGE_FILE_KEY], key[VS_AGE_KEY];

	if (vs_age_ids_parse(&ids, FZ_AGE_IDENTITY, strlen(FZ_AGE_IDENTITY),
			     "fuzz-key", &err) < 0)
		abort();
	if (vs_age_header_parse(data, size, "fuzz-in", &h, &err) == 1 &&
	    vs_age_unwrap(&h, data, &ids, "fuzz-in", file_key, &err) == 0 &&
	    size >= h.len + VS_AGE_NONCE)
		vs_age_payload_key(file_key, data + h.len, key, &err);
	(void)strlen(err.msg);
	vs_age_header_free(&h);
	vs_age_ids_parse(&other, (const char *)data, size, "fuzz-in", &err);
	vs_age_ids_free(&other);
	vs_age_ids_free(&ids);
	return 0;
}
