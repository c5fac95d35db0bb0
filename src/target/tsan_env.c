// SPDX-License-Identifier: GPL-2.0
/*
 * ThreadSanitizer told to look past the runtime.
 *
 * The runtime is not instrumented, but it calls libc, and in a program
 * built with -fsanitize=thread those calls meet TSan's interceptors: its
 * mutexes, its reads and writes of files, the threads it starts became
 * synchronisation in TSan's eyes, which ordered the program's threads and
 * hid their races (a data race TSan reports without fntrace went unseen
 * under it), and its copies of the trace buffers could be reported as
 * races of their own.  TSan's answer for a library that is not
 * instrumented is a suppression, "called_from_lib:LIB": every interceptor
 * called from LIB's code does nothing in TSan's eyes, while the calls
 * the program makes are seen as before (the sanitizer's runtime comes
 * first, so the program's calls meet its interceptors before ours).
 *
 * A suppression comes from a file named in TSAN_OPTIONS, one file.  The
 * runtime's line alone is tsan.supp beside the runtime (the build's, or
 * the one installed with it, so that nothing is left behind a package's
 * removal).  When the user names a file of their own (suppressions= in
 * TSAN_OPTIONS), or the runtime is not libfntrace.so beside its
 * tsan.supp (FNTRACE_LIB), ours must hold both: it is written once per
 * content into the user's private /tmp/fntrace-UID (where the control
 * endpoints are), since every TSan program the recording starts reads it
 * at its start, and `fntrace run` leaves nobody to remove it.
 * TSAN_OPTIONS is read by TSan programs alone: the others never see the
 * difference.
 */
#include "target.h"
#include "../cli/cli.h"
#include "../common/fileio.h"
#include "../common/hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The user's suppressions file in TSAN_OPTIONS: the value of the last
 * suppressions= flag, quotes taken off, into out; 0 if there is none. */
static int user_file(const char *options, char *out, size_t len)
{
	const char *p = options, *hit = NULL;
	size_t n;

	while (p && (p = strstr(p, "suppressions="))) {
		if (p == options || strchr(" ,:\t\n\r", p[-1]))
			hit = p + strlen("suppressions=");
		p++;
	}
	if (!hit)
		return 0;
	if (*hit == '"' || *hit == '\'') {
		char quote[2] = { *hit++, '\0' };

		n = strcspn(hit, quote);
	} else {
		n = strcspn(hit, " ,:\t\n\r");
	}
	snprintf(out, len, "%.*s", (int)n, hit);
	return 1;
}

/* /tmp/fntrace-UID, made if need be; refused if it is not private. */
static int private_dir(char *dir, size_t len)
{
	struct stat st;

	snprintf(dir, len, "/tmp/fntrace-%u", (unsigned)getuid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	return lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	       (st.st_mode & 0077) ? -1 : 0;
}

/* A file of that content in the private directory, into path. */
static int write_once(const char *text, char *path, size_t len)
{
	char dir[64], *have;
	int same;

	if (private_dir(dir, sizeof(dir)))
		return -1;
	snprintf(path, len, "%s/tsan-%08x.supp", dir, fnv1a_str(text));
	have = read_text_file(path);
	same = have && !strcmp(have, text);
	free(have);
	return same ? 0 : replace_file(path, text, strlen(text), 0600);
}

/* The suppressions: the user's file's, then the runtime's line. */
static char *suppressions(const char *user, const char *lib)
{
	char *theirs = user ? read_text_file(user) : NULL, *text;
	size_t n = theirs ? strlen(theirs) : 0;

	if (user && !theirs)
		return NULL;
	if (asprintf(&text, "%s%scalled_from_lib:^%s$\n", theirs ? theirs : "",
		     n && theirs[n - 1] != '\n' ? "\n" : "", lib) < 0)
		text = NULL;
	free(theirs);
	return text;
}

/* tsan.supp beside lib into path, if lib is libfntrace.so and it is
 * there: its line matches any module path ending so.  A path that
 * TSAN_OPTIONS would split (a space, a colon) is not taken. */
static int shipped_file(const char *lib, char *path, size_t len)
{
	const char *base = strrchr(lib, '/');

	if (!base || strcmp(base, "/libfntrace.so"))
		return 0;
	snprintf(path, len, "%.*s/tsan.supp", (int)(base - lib), lib);
	return !strpbrk(path, " ,:\t\n\r\"'") && access(path, R_OK) == 0;
}

/* Said in a line if it cannot be done; the program runs all the same. */
void cli_tsan_env(const char *lib)
{
	const char *options = getenv("TSAN_OPTIONS");
	char user[4096], path[4096], *text = NULL, *value = NULL;
	int has_user = user_file(options, user, sizeof(user)), ret = -1;
	int ours = 0;

	/* A file TSan cannot read stops the program as it would without
	 * fntrace: left as it is. */
	if (!has_user)
		ours = shipped_file(lib, path, sizeof(path));
	if (!ours) {
		text = suppressions(has_user ? user : NULL, lib);
		if (!text && has_user)
			return;
		ours = text && write_once(text, path, sizeof(path)) == 0;
	}
	if (ours && asprintf(&value, "%s%ssuppressions=%s", options ? options : "",
		     options && *options ? ":" : "", path) >= 0)
		ret = setenv("TSAN_OPTIONS", value, 1);
	if (ret)
		cli_error("cannot write ThreadSanitizer's suppressions in /tmp/fntrace-%u: "
			  "a TSan program will see the runtime's locks", (unsigned)getuid());
	free(value);
	free(text);
}
