// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace recordmcount [--nop] [--list] FILE.o...
 * fntrace recordmcount --image [--list] EXE_OR_SO...
 *
 * For each object: check it, find its mcount calls, build the new object in
 * memory, write it to a temporary file beside the original and rename() it
 * over the original.  A file is never written unless everything about it
 * was understood, so a failure leaves it byte-identical.  --image reads
 * linked images instead and writes their side files (image.c).
 */
#include "rmc.h"
#include "../cli/cli.h"
#include "../cli/exit_status.h"
#include "../common/fileio.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct opts {
	int nop;
	int list;
	int image;
	int many;		/* more than one file: --list prefixes lines */
};

static void usage(void)
{
	printf(
		"usage: " PROG " [--nop] [--list] FILE.o...\n"
		"       " PROG " --image [--list] EXE_OR_SO...\n"
		"       (or: fntrace recordmcount ...)\n\n"
		"Records the mcount/__fentry__ calls of objects compiled with -pg in a\n"
		"__mcount_loc section per text section, as the kernel's recordmcount.\n\n"
		"  --nop    also turn every recorded call into a nop (and its relocations\n"
		"           into R_*_NONE): the program runs at full speed without fntrace\n"
		"  --list   change nothing; print each site as SECTION+0xOFFSET FUNCTION\n"
		"  --image  read linked executables or shared objects instead: find their\n"
		"           sites after the final link (from the relocations -Wl,-q keeps,\n"
		"           else by decoding each function's head) and write them to the\n"
		"           side file BUILD-ID.sites in $FNTRACE_CACHE, $XDG_CACHE_HOME/fntrace\n"
		"           or ~/.cache/fntrace, which the runtime reads first; with --list,\n"
		"           print each site as ADDRESS FUNCTION instead\n"
		"  --help   this text\n\n"
		"Supported: x86_64, i386, aarch64, riscv64, mips o32 (either endian).\n"
		"A file that already has __mcount_loc is left as it is.\n\n"
		CLI_EXIT_HELP);
}

/* What was wrong in one line, and where to read more; the usage error's
 * status. */
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry '" PROG " --help'.\n");
	va_end(ap);
	return CLI_EXIT_USAGE;
}

int rmc_file_error(const char *path, const char *msg)
{
	fprintf(stderr, PROG ": %s: %s\n", path, msg);
	return CLI_EXIT_FAILED;
}

/* The object rewritten in one step, keeping its permissions: a reader
 * never sees half an object, and a failure leaves it alone. */
static int replace_object(const char *path, const uint8_t *data, size_t size)
{
	struct stat st;

	if (stat(path, &st) || replace_file(path, data, size, st.st_mode & 07777))
		return rmc_file_error(path, strerror(errno));
	return 0;
}

static void list_sites(const char *path, const struct elf_file *f,
		       const struct rmc_sites *s, const struct opts *o,
		       const struct rmc_funcs *fs)
{
	for (unsigned i = 0; i < s->nr; i++) {
		const struct rmc_site *site = &s->v[i];

		printf("%s%s%s+0x%llx %s\n", o->many ? path : "", o->many ? ": " : "",
		       elf_section_name(f, site->sec), (unsigned long long)site->off,
		       rmc_func_at(fs, site->sec, site->off, NULL));
	}
}

static int list_file(const char *path, const struct elf_file *f,
		     const struct rmc_sites *s, const struct opts *o)
{
	struct rmc_funcs *fs = rmc_funcs_new(f, s->symtab);

	if (!fs)
		return rmc_file_error(path, "out of memory");
	list_sites(path, f, s, o, fs);
	rmc_funcs_free(fs);
	return 0;
}

static void warn_relax(const char *path, const struct rmc_sites *s)
{
	if (!s->after_relax)
		return;
	fprintf(stderr, PROG ": %s: warning: %u of %u sites follow code the linker may "
		"relax in the same section: their entries go stale unless linked with "
		"--no-relax (or compiled with -ffunction-sections)\n",
		path, s->after_relax, s->nr);
}

typedef unsigned sleds_fn(const struct elf_file *f, const struct arch_desc *arch,
			  uint8_t *out);

/* The file with its XRay sleds made return sites by rewrite, if any were. */
static int rewrite_sleds(const char *path, const struct elf_file *f,
			 const struct arch_desc *arch, sleds_fn *rewrite)
{
	uint8_t *copy = malloc(f->size);
	int ret = 0;

	if (!copy)
		return rmc_file_error(path, "out of memory");
	memcpy(copy, f->data, f->size);
	if (rewrite(f, arch, copy))
		ret = replace_object(path, copy, f->size);
	free(copy);
	return ret;
}

/* An object without sites (every function notrace) may still have
 * XRay's sleds, which the runtime would take for return sites. */
static int sleds_only(const char *path, const struct elf_file *f, const struct arch_desc *arch)
{
	return rewrite_sleds(path, f, arch, rmc_xray_sleds);
}

int rmc_image_return_sites(const char *path)
{
	const struct arch_desc *arch;
	struct elf_file f;
	int ret = 0;

	if (elf_open_path(&f, path)) {
		fprintf(stderr, PROG ": %s\n", f.err);
		return 1;
	}
	arch = arch_lookup(f.machine);
	if (arch && arch->rmc && (f.type == ET_EXEC || f.type == ET_DYN))
		ret = rewrite_sleds(path, &f, arch, rmc_xray_image_sleds);
	elf_close(&f);
	return ret;
}

static int record_file(const char *path, const struct elf_file *f,
		       const struct rmc_sites *s, const struct opts *o)
{
	char err[RMC_ERR];
	struct rmc_output out;
	int ret;

	if (s->nr == 0)
		return o->nop ? sleds_only(path, f, s->arch) : 0;	/* no -pg */
	if (rmc_build(f, s, o->nop, &out, err, sizeof(err)))
		return rmc_file_error(path, err);
	warn_relax(path, s);
	ret = replace_object(path, out.data, out.size);
	rmc_output_free(&out);
	return ret;
}

static int process(const char *path, const struct opts *o)
{
	const struct arch_desc *arch;
	struct rmc_sites s;
	struct elf_file f;
	char err[RMC_ERR];
	int ret;

	if (elf_open_path(&f, path)) {
		fprintf(stderr, PROG ": %s\n", f.err);
		return 1;
	}
	if (!o->list && elf_find_section(&f, "__mcount_loc") > 0) {
		fprintf(stderr, PROG ": %s: already has __mcount_loc, left unchanged\n", path);
		ret = 0;
	} else if (rmc_check(&f, &arch, err, sizeof(err)) ||
		   rmc_find(&f, arch, o->nop, &s, err, sizeof(err))) {
		ret = rmc_file_error(path, err);
	} else {
		ret = o->list ? list_file(path, &f, &s, o) : record_file(path, &f, &s, o);
		rmc_sites_free(&s);
	}
	elf_close(&f);
	return ret;
}

static int parse(int argc, char **argv, struct opts *o, int *first)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--nop"))
			o->nop = 1;
		else if (!strcmp(argv[i], "--list"))
			o->list = 1;
		else if (!strcmp(argv[i], "--image"))
			o->image = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		else {
			usage_error("unknown option '%s'", argv[i]);
			return -1;
		}
	}
	*first = i;
	if (i < argc)
		return 0;
	usage_error("no file given");
	return -1;
}

int cmd_recordmcount(int argc, char **argv)
{
	struct opts o = { 0 };
	int first, ret = 0, r = parse(argc, argv, &o, &first);

	if (r > 0)
		usage();
	if (r)
		return r > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.nop && (o.list || o.image))
		return usage_error("--nop applies to objects, and cannot be used with %s",
				   o.list ? "--list" : "--image");
	o.many = argc - first > 1;
	for (int i = first; i < argc; i++)
		ret |= o.image ? rmc_image(argv[i], o.list, o.many) : process(argv[i], &o);
	return ret;
}
