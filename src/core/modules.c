// SPDX-License-Identifier: GPL-2.0
/*
 * The module loader: every ELF object mapped into the process (the main
 * program, each shared object, each dlopen()ed one) gets its call sites
 * read from its file, checked against its text in memory, made records,
 * and turned into nops, at once: no daemon ever comes back for them.
 * A module whose sites are nops already (fntrace cc) waits, unread, until
 * records are first wanted: then every such module is read at once.
 */
#include "breakpoint.h"
#include "ftrace.h"
#include "funcs_file.h"
#include "interpose.h"
#include "detours.h"
#include "sanitized.h"
#include "libcalls.h"
#include "lock.h"
#include "messages.h"
#include "modload.h"
#include "profile.h"
#include "staged.h"
#include "../common/array.h"
#include "../sites/sites.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct mapped {
	char path[512];
	uintptr_t bias, lo, hi, text_lo, text_hi;
	int seen;
};

struct scan {
	struct mapped *v;
	unsigned nr;
	size_t cap;
	unsigned long long subs;	/* the loader's count of unloads */
};

static struct ft_module *modules;
static unsigned nr_modules;
static size_t cap_modules;
/* Until an ops or the control endpoint wants records, a module whose
 * sites are nops already is left unread (read_module). */
static int records_wanted;

unsigned ftrace_module_count(void)
{
	return nr_modules;
}

struct ft_module *ftrace_module_get(unsigned idx)
{
	return idx < nr_modules ? &modules[idx] : NULL;
}

static void mapped_ranges(const struct dl_phdr_info *info, struct mapped *m)
{
	m->lo = m->text_lo = UINTPTR_MAX;
	m->hi = m->text_hi = 0;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD)
			continue;
		m->lo = lo < m->lo ? lo : m->lo;
		m->hi = hi > m->hi ? hi : m->hi;
		if (!(ph->p_flags & PF_X))
			continue;
		m->text_lo = lo < m->text_lo ? lo : m->text_lo;
		m->text_hi = hi > m->text_hi ? hi : m->text_hi;
	}
}

/*
 * The program's own path, which the loader leaves empty.  Read once: a
 * chroot or pivot_root may take /proc/self/exe away, and the program
 * does not change but by an exec, which starts another runtime.  Gone
 * already when fntrace attach came: it told us (staged.c).
 */
static const char *program_path(void)
{
	static char path[sizeof(((struct mapped *)0)->path)];

	if (!path[0] && readlink("/proc/self/exe", path, sizeof(path) - 1) < 0 &&
	    ft_staged_program(path, sizeof(path)))
		path[0] = '\0';
	return path;
}

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *sc = arg;
	struct mapped *m;

	if (grow_array((void **)&sc->v, &sc->cap, sc->nr + 1, sizeof(*sc->v)))
		return 1;
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
		sc->subs = info->dlpi_subs;
	m = &sc->v[sc->nr++];
	memset(m, 0, sizeof(*m));
	m->bias = info->dlpi_addr;
	mapped_ranges(info, m);
	if (info->dlpi_name && info->dlpi_name[0])
		strncpy(m->path, info->dlpi_name, sizeof(m->path) - 1);
	else if (sc->nr == 1)
		strcpy(m->path, program_path());
	return 0;
}

/* Objects without a file (the vDSO) and the runtime itself have no sites. */
static int worth_reading(const struct mapped *m)
{
	if (!m->path[0] || m->text_lo == UINTPTR_MAX)
		return 0;
	if (!strncmp(m->path, "linux-vdso", 10) || !strncmp(m->path, "linux-gate", 10))
		return 0;
	return !ft_own_image(m->lo, m->hi);
}

static struct ft_module *add_module(const struct mapped *m)
{
	struct ft_module *mod;
	const char *slash;

	if (grow_array((void **)&modules, &cap_modules, nr_modules + 1, sizeof(*modules)))
		return NULL;
	mod = &modules[nr_modules];
	memset(mod, 0, sizeof(*mod));
	mod->path = strdup(m->path);
	if (!mod->path)
		return NULL;
	slash = strrchr(mod->path, '/');
	mod->name = slash ? slash + 1 : mod->path;
	mod->bias = m->bias;
	mod->start = m->lo;
	mod->end = m->hi;
	mod->text_lo = m->text_lo;
	mod->text_hi = m->text_hi;
	nr_modules++;
	return mod;
}

/* Which sites a load may take depends on this: sites that are several
 * instructions are left out once threads run, and so are sites no atomic
 * store can write while a thread blocks SIGTRAP. */
static int load_mode_now(void)
{
	return !ftrace_patch_is_live() ? 0 : ftrace_traps_blocked() ? 2 : 1;
}

static void file_identity(const char *path, uint64_t id[4])
{
	char staged[PATH_MAX];
	struct stat st;

	memset(id, 0, 4 * sizeof(*id));
	if (stat(ft_staged_path(path, staged, sizeof(staged)), &st) == 0) {
		id[0] = st.st_dev;
		id[1] = st.st_ino;
		id[2] = st.st_size;
		id[3] = st.st_mtime;
	}
}

/* The module's file: the one kept since it was deferred, or opened now. */
static int open_file(struct ft_module *mod, struct elf_file *f)
{
	char staged[PATH_MAX];

	if (mod->kept) {
		*f = *mod->kept;
		free(mod->kept);
		mod->kept = NULL;
		return 0;
	}
	if (elf_open_path(f, ft_staged_path(mod->path, staged, sizeof(staged))) == 0)
		return 0;
	ft_debug("%s", f->err);
	return -1;
}

/* A deferred module keeps its file mapped (address space, not
 * descriptors): the program may chroot or pivot_root before its sites
 * are wanted, and its path then names nothing. */
static int keep_file(struct ft_module *mod, const struct elf_file *f)
{
	mod->kept = malloc(sizeof(*mod->kept));
	if (mod->kept)
		*mod->kept = *f;
	return mod->kept ? 0 : -1;
}

static void drop_kept_file(struct ft_module *mod)
{
	if (!mod->kept)
		return;
	elf_close(mod->kept);
	free(mod->kept);
	mod->kept = NULL;
}

/* Read the module's sites and make its records; or, when defer allows
 * and its sites are nops already, leave that for when they are wanted. */
static int read_module(struct ft_module *mod, int defer)
{
	struct sites_mapping map = { mod->bias, mod->start, mod->end };
	struct image_sites sites;
	struct elf_file f;
	char err[256];
	int ret = 0;

	if (open_file(mod, &f))
		goto out;
	mod->deferred = defer && ftrace_nops_already(mod, &f);
	if (mod->deferred) {
		ft_debug("%s: nops already, call sites read when wanted", mod->path);
		if (keep_file(mod, &f) == 0)
			goto out;
	} else if (sites_discover_mapped(&f, &map, &sites, err, sizeof(err)) == 0) {
		if (sites.warning[0])
			ft_warn("%s: %s", mod->path, sites.warning);
		if (sites.nr)
			arch_module_prepare(mod->bias);
		ret = ftrace_load_sites(mod, mod - modules, &f, &sites);
		if (!ret)
			ret = ftrace_libcalls_read(mod, mod - modules, &f);
		/* Built without call sites: the functions the fntrace program
		 * planned detours for, if it did; with them, where TSan runs,
		 * its hook's pc fix, if planned. */
		if (!ret && (!sites.nr || ft_sanitized_tsan))
			ret = ftrace_detours_read(mod, mod - modules, &f, sites.nr > 0);
		ftrace_returns_read(mod, &f);
		ft_debug("%s: %u call sites from %s", mod->path, mod->nr_recs,
			 sites_source_name(sites.source));
		sites_free(&sites);
	}
	elf_close(&f);
out:
	ft_funcs_write_module(mod - modules);
	return ret;
}

static int load_module(const struct mapped *m, int mode)
{
	struct ft_module *mod = add_module(m);

	if (!mod)
		return -1;
	mod->load_mode = mode;
	if (!worth_reading(m)) {
		ft_funcs_write_module(mod - modules);
		return 0;
	}
	file_identity(m->path, mod->file_id);
	return read_module(mod, !records_wanted);
}

/* The records of every module left for later, now that they are wanted. */
static int read_deferred(int *changed)
{
	int ret = 0;

	for (unsigned i = 0; i < nr_modules && !ret; i++)
		if (modules[i].deferred && !modules[i].gone) {
			modules[i].load_mode = load_mode_now();
			ret = read_module(&modules[i], 0);
			(*changed)++;
		}
	return ret;
}

/*
 * A library closed and opened again in a loop would add records, and ids
 * to funcs-PID, on every round.  A gone module of the same file, loaded
 * the same way, is taken again instead: its records move to the new
 * address if the text there holds the bytes they were made from.
 */
static struct ft_module *gone_twin(const struct mapped *m, int mode)
{
	uint64_t id[4];

	file_identity(m->path, id);
	for (unsigned i = 0; i < nr_modules; i++) {
		struct ft_module *g = &modules[i];

		if (g->gone && g->load_mode == mode && !strcmp(g->path, m->path) &&
		    !memcmp(g->file_id, id, sizeof(id)))
			return g;
	}
	return NULL;
}

static int records_fit(const struct ft_module *g, const struct mapped *m)
{
	for (uint32_t i = 0; i < g->nr_recs; i++) {
		const struct ftrace_rec *rec = ftrace_rec_get(g->first_id + i);
		uintptr_t ip = rec->ip - g->bias + m->bias;

		if (ip < m->text_lo || ip + rec->len > m->text_hi ||
		    memcmp((const void *)ip, rec->orig, rec->len))
			return 0;
	}
	return 1;
}

static void rebase_records(struct ft_module *g, const struct mapped *m,
			   struct text_patch *patches, unsigned *n)
{
	uintptr_t old_bias = g->bias;

	for (uint32_t i = 0; i < g->nr_recs; i++) {
		struct ftrace_rec *rec = ftrace_rec_get(g->first_id + i);
		struct text_patch *p = &patches[*n];

		rec->ip = rec->ip - g->bias + m->bias;
		rec->func = rec->func - g->bias + m->bias;
		rec->flags = 0;
		p->addr = rec->ip;
		p->len = rec->len;
		p->guard = 0;
		memcpy(p->old, rec->orig, rec->len);
		arch_make_nop(rec->orig, rec->len, p->new);
		*n += memcmp(p->old, p->new, p->len) != 0;
	}
	g->bias = m->bias;
	ftrace_returns_rebase(g, old_bias);
	ftrace_libcalls_rebase(g, old_bias);
	g->start = m->lo;
	g->end = m->hi;
	g->text_lo = m->text_lo;
	g->text_hi = m->text_hi;
	g->gone = 0;
}

/* 1 if m is a gone module come back, its sites nops again; 0 if not. */
static int revive_module(const struct mapped *m, int mode)
{
	struct ft_module *g = worth_reading(m) ? gone_twin(m, mode) : NULL;
	struct text_patch *patches;
	unsigned n = 0;
	int ret;

	if (!g || !records_fit(g, m))
		return 0;
	patches = calloc(g->nr_recs ? g->nr_recs : 1, sizeof(*patches));
	if (!patches)
		return -1;
	arch_module_prepare(m->bias);
	rebase_records(g, m, patches, &n);
	ret = text_patch_batch(patches, n);
	free(patches);
	ft_funcs_write_module(g - modules);
	return ret ? -1 : 1;
}

/* The load mode is found once: it reads every thread's signal mask. */
static int load_or_revive(const struct mapped *m)
{
	int mode = load_mode_now();
	int revived = revive_module(m, mode);

	return revived ? (revived < 0 ? -1 : 0) : load_module(m, mode);
}

/* A module that was unloaded: its records must never be patched again,
 * nor even read: their text is gone. */
static void unload_module(struct ft_module *mod)
{
	mod->gone = 1;
	drop_kept_file(mod);
	for (uint32_t i = 0; i < mod->nr_recs; i++) {
		struct ftrace_rec *rec = ftrace_rec_get(mod->first_id + i);

		rec->flags = (rec->flags | FTRACE_FL_DISABLED) & ~FTRACE_FL_ENABLED;
	}
	ftrace_libcalls_unload(mod);
	ftrace_detours_unload(mod);
}

/*
 * Is the module's text still the one its records describe?  A library
 * closed and opened again between two refreshes may be mapped at the same
 * address, under the same name, with the file's bytes at every site.  A
 * site we changed (enabled, or made a nop where the file had something
 * else) holding the file's bytes again gives the new copy away.
 */
static int as_left(const struct ft_module *mod)
{
	uint8_t nop[ARCH_MAX_INSN];

	for (uint32_t i = 0; i < mod->nr_recs; i++) {
		const struct ftrace_rec *rec = ftrace_rec_get(mod->first_id + i);

		if (rec->flags & FTRACE_FL_DISABLED)
			continue;
		arch_make_nop(rec->orig, rec->len, nop);
		if (((rec->flags & FTRACE_FL_ENABLED) || memcmp(nop, rec->orig, rec->len)) &&
		    !memcmp((const void *)rec->ip, rec->orig, rec->len))
			return 0;
	}
	return 1;
}

/* Is mod still mapped, as it was?  Its entry in sc is then seen. */
static int still_there(struct scan *sc, const struct ft_module *mod, int unloads)
{
	for (unsigned i = 0; i < sc->nr; i++)
		if (sc->v[i].bias == mod->bias && !strcmp(sc->v[i].path, mod->path)) {
			sc->v[i].seen = !unloads || as_left(mod);
			return sc->v[i].seen;
		}
	return 0;
}

/* Bring the module list up to date with what is mapped now.  Returns the
 * number of modules added or removed, or -1 on an internal error. */
static int modules_refresh(void)
{
	static unsigned long long subs_seen;
	struct scan sc = { 0 };
	int changed = 0, ret = 0;
	unsigned bound;

	dl_iterate_phdr(collect, &sc);
	for (unsigned i = 0; i < nr_modules; i++)
		if (!modules[i].gone && !still_there(&sc, &modules[i], sc.subs != subs_seen)) {
			unload_module(&modules[i]);
			changed++;
		}
	for (unsigned i = 0; i < sc.nr && !ret; i++)
		if (!sc.v[i].seen) {
			ret = load_or_revive(&sc.v[i]);
			changed++;
		}
	if (!ret && records_wanted)
		ret = read_deferred(&changed);
	bound = ret ? 0 : ftrace_libcalls_bind();
	free(sc.v);
	subs_seen = sc.subs;
	if (!ret && (changed || bound))
		ret = ftrace_rec_hash_rebuild();
	if (!ret && changed && ft_profile_cover_new())
		ft_warn("the profiler cannot count a newly loaded module");
	return ret ? -1 : changed;
}

struct pinned {
	int (*fn)(void);
	int ret;
};

static int run_pinned(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct pinned *p = arg;
	int changed = modules_refresh();

	if (changed > 0)
		ft_interpose_refresh();
	p->ret = changed < 0 ? -1 : p->fn ? p->fn() : changed;
	return 1;
}

/*
 * glibc unmaps a module's text (dlclose, the error path of dlopen) while
 * it holds the loader's write lock, the lock dl_iterate_phdr() holds
 * around its callbacks; libgcc's unwinder reads .eh_frame_hdr inside a
 * callback for the same reason.  So inside one, no text can go away or
 * be replaced: the module list is brought up to date there, and fn
 * patches against it.  This is the kernel's rule that a going module's
 * records leave every update before its text is freed.  Nothing run here
 * may take the loader's other lock (dlopen, dlsym, a first dlsym in a
 * wrapper): a dlclose holds that one while it waits for ours.
 */
int ftrace_modules_pinned(int (*fn)(void))
{
	struct pinned p = { fn, -1 };

	dl_iterate_phdr(run_pinned, &p);
	return p.ret;
}

/* Inside the pin: a module read with no plan whose plan is in the cache
 * now gets its detours, each named in funcs-PID; a call into it bound
 * at a GOT slot is let go (the detour sees it). */
static int take_plan(struct ft_module *mod)
{
	unsigned idx = mod - modules;
	struct elf_file f;
	int ret;

	if (open_file(mod, &f))
		return 0;
	ret = ftrace_detours_read(mod, idx, &f, 0);
	elf_close(&f);
	if (ret || !mod->nr_detours)
		return ret;
	ft_debug("%s: its detours taken from a plan written since it was read", mod->path);
	ftrace_detours_announce(mod, idx);
	return ftrace_libcalls_let_go(idx);
}

static int take_plans_pinned(void)
{
	int taken = 0, ret = 0;

	for (unsigned i = 0; i < nr_modules && !ret; i++)
		if (ftrace_detours_planned_since(&modules[i])) {
			ret = take_plan(&modules[i]);
			taken += modules[i].nr_detours > 0;
		}
	if (!ret && taken)
		ret = ftrace_rec_hash_rebuild();
	if (!ret && taken && ft_profile_cover_new())
		ft_warn("the profiler cannot count the functions of a plan taken late");
	return ret;
}

int ftrace_modules_take_plans(void)
{
	return ftrace_modules_pinned(take_plans_pinned) < 0 ? -1 : 0;
}

/* An ops is about to want sites: the next update reads every module. */
void ftrace_modules_want_records(void)
{
	records_wanted = 1;
}

/* The control endpoint shows and selects records by name: every module
 * that waits is read before it answers.  Takes ftrace_lock. */
void ftrace_modules_need_records(void)
{
	int waiting = 0;

	ftrace_lock();
	for (unsigned i = 0; i < nr_modules; i++)
		waiting |= modules[i].deferred && !modules[i].gone;
	records_wanted = 1;
	if (waiting && ftrace_modules_pinned(NULL) < 0)
		ft_warn("cannot read the call sites of a module");
	if (ftrace_libcalls_lookup() && ftrace_modules_pinned(NULL) < 0)
		ft_warn("cannot bind a module's library calls");
	ftrace_unlock();
}
