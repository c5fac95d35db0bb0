/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stream `fntrace record --host` sends and `fntrace listen` receives
 * (docs/design.md, *Remote recording*): a data directory's files, as the
 * recorder writes them, over one TCP connection.  Every integer is
 * big-endian.
 *
 *   header  "FNTRSTRM" | u32 version | u32 pid | u16 host_len |
 *           u16 prog_len | host | prog
 *   record  u8 type | u8 name_len | u32 len | name | len bytes
 *
 * FILE replaces the file NAME with the bytes, APPEND adds them at its
 * end, END (no name, no bytes) says the directory is complete; the
 * listener then answers "ok DIRNAME\n" and closes.  ABORT (no name, the
 * bytes a line on why) says the target gave the recording up (nothing
 * was traced, say): the listener keeps nothing.  A NAME is one plain
 * file of a data directory (stream_name_ok): never a path.
 */
#ifndef FNTRACE_STREAM_H
#define FNTRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define STREAM_MAGIC		"FNTRSTRM"
#define STREAM_VERSION		1
#define STREAM_HEADER_FIXED	20
#define STREAM_RECORD_FIXED	6
#define STREAM_TEXT_MAX		255	/* host and prog, each */
#define STREAM_NAME_MAX		255
#define STREAM_PAYLOAD_MAX	(16u << 20)
#define STREAM_ABORT_MAX	200	/* its line */

enum stream_type {
	STREAM_FILE = 1,
	STREAM_APPEND = 2,
	STREAM_END = 3,
	STREAM_ABORT = 4,
};

struct stream_header {
	uint32_t version, pid;
	char host[STREAM_TEXT_MAX + 1];
	char prog[STREAM_TEXT_MAX + 1];
};

/* The header into buf (STREAM_HEADER_FIXED + 2 * STREAM_TEXT_MAX bytes
 * at least): its length.  host and prog longer than the limit are cut. */
size_t stream_put_header(uint8_t *buf, const struct stream_header *h);
/* The fixed part of a header: 0, with the lengths of the two texts that
 * follow; -1 with why (a static string). */
int stream_get_header(const uint8_t *buf, struct stream_header *h, unsigned *host_len,
		      unsigned *prog_len, const char **why);
/* A record's fixed part. */
void stream_put_record(uint8_t *buf, unsigned type, unsigned name_len, uint32_t len);
/* Its fields: 0, or -1 with why. */
int stream_get_record(const uint8_t *buf, unsigned *type, unsigned *name_len,
		      uint32_t *len, const char **why);
/* Is NAME (len bytes) a file a data directory may hold: one component of
 * [A-Za-z0-9._+-], not starting with a dot? */
int stream_name_ok(const char *name, size_t len);
/* TEXT made safe as part of a directory's name: what stream_name_ok
 * refuses becomes '_'; "" becomes "unknown". */
void stream_safe_text(char *text);

#endif
