# fntrace: dynamic function tracing for user-space programs.
#
#   make            build/fntrace (the CLI), build/libfntrace.so (the runtime),
#                   build/libfntrace.a (the runtime fntrace cc -static links in)
#                   and build/fntrace-recordmcount
#   make demo       build and trace the bundled example
#   make check      the test suite; ends with "N passed, N failed"
#   make bench      the benchmarks in bench/
#   make stress     every concurrency-sensitive case, STRESS_REPS times (20)
#   make fuzz       the libFuzzer target of recordmcount (FUZZ_TIME seconds)
#   make check-sanitize  the suite again, built with ASan and UBSan
#   make man        the manual pages, build/man/ (from docs/man/*.md, by pandoc)
#   make install PREFIX=/usr/local
#   make deb        the Debian package, build/fntrace_VERSION_ARCH.deb
#
# demo, check and bench first install the Debian packages they miss.

HOST_ARCH := $(patsubst i%86,i386,$(shell uname -m))
ARCH    ?= $(HOST_ARCH)
PREFIX  ?= /usr/local
BUILD   ?= build
# One spelling of every object's path, whichever way BUILD was given:
# the dependency files name their targets by it, and a relative and an
# absolute spelling would each miss the other's header changes.
override BUILD := $(abspath $(BUILD))
CC      ?= gcc
# The version, said by fntrace --version and the manual pages' footers:
# debian/changelog's first entry, the one place it is written.
ifeq ($(origin VERSION),undefined)
VERSION := $(shell awk 'NR == 1 { gsub(/[()]/, "", $$2); print $$2 }' debian/changelog)
endif

CFLAGS   ?= -O2 -g
# CPPFLAGS and LDFLAGS, if given (dpkg-buildflags gives _FORTIFY_SOURCE
# and -z relro, -z now to the package), go to the command alone: the
# runtime's flags are its own, since what it calls inside the traced
# program is chosen (RT_CFLAGS, below), and fortify adds libc's checking
# calls.
WARN     := -Wall -Wextra -Wno-unused-parameter
ALL_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -fno-omit-frame-pointer \
	      -Isrc -Isrc/arch/$(ARCH)

# Code both sides (and the stand-alone recordmcount) use: the ELF reader,
# the site decoders and calling conventions of every architecture, site
# discovery (and side files), the trace format and the helpers of
# src/common.
SHARED_SRC := $(wildcard src/elf/*.c) src/arch/arches.c $(wildcard src/arch/*/decode.c) \
	      $(wildcard src/arch/*/abi.c) \
	      $(wildcard src/sites/*.c) $(wildcard src/common/*.c)
# recordmcount: its command is also "fntrace recordmcount"; tool.c is the
# main() of the stand-alone build/fntrace-recordmcount.
RMC_SRC    := $(filter-out src/recordmcount/tool.c,$(wildcard src/recordmcount/*.c))
# The fntrace program: the commands (src/cli) and the rooms they use.
# Its one native-only piece: calling into a process it attaches to.
# The detour planner (src/detour, each architecture's detour.c) reads any
# architecture's image, through capstone, and only here for now.
CLI_ROOMS  := cli record kevents remote attach control dwarf cc target trace detour
CLI_SRC    := $(foreach d,$(CLI_ROOMS),$(wildcard src/$(d)/*.c)) $(RMC_SRC) $(SHARED_SRC) \
	      $(wildcard src/arch/*/detour.c) src/arch/$(ARCH)/inject.c src/arch/inject_run.c
# The runtime lives inside the traced process: no SSE (it runs between a
# function's entry and its body, where vector argument registers are live),
# hidden symbols but for the few marked FT_EXPORT: unversioned, so that
# they interpose mcount@GLIBC and dlopen@GLIBC.  Not the printer of the
# commands' messages (src/common/print.c): the runtime's go their own way
# (src/core/messages.c), never to the program's stderr.
RT_SRC     := $(wildcard src/core/*.c) \
	      $(filter-out src/arch/$(ARCH)/inject.c src/arch/$(ARCH)/detour.c,\
			   $(wildcard src/arch/$(ARCH)/*.c)) \
	      $(wildcard src/arch/$(ARCH)/*.S) $(filter-out src/common/print.c,$(SHARED_SRC))
RT_SRC     := $(sort $(RT_SRC))
# How the runtime came into the process (src/core/linkage.h): one of
# these two in each build.
RT_PRELOAD_SRC := $(filter-out src/core/link_static.c,$(RT_SRC))
RT_STATIC_SRC  := $(filter-out src/core/link_preload.c,$(RT_SRC))
# Per architecture: the cross compiler's prefix and flags of its own
# (src/arch/<arch>/arch.mk; what it has of the arch contract is in its
# arch_features.h, see src/arch/arch.h).  RT_ARCH_CFLAGS keep the
# runtime's C off the registers that carry floating-point arguments, or
# say nothing where the entry stubs save those registers instead.
# RT_LTO (below) may be turned off by one.
RT_LTO := -flto=auto
include src/arch/$(ARCH)/arch.mk
# -fno-tree-loop-distribute-patterns: no loop of the hooks becomes a call
# to libc's memset or memcpy, which may use those registers.
# -fno-optimize-sibling-calls: every call the runtime makes returns into
# the runtime, so a sanitizer's interceptor knows the call for the
# runtime's by its return address (ThreadSanitizer's called_from_lib,
# docs/design.md, *Sanitizers*); a tail call out of a function libc calls
# back (a fork handler's unlock) was taken for libc's own.
# RT_LTO: the start-up path crosses files (the core and its arch layer) a
# call per site each time; optimized whole, start-up under record of
# 100 000 sites took 1.4 ms less.  The link gets the same flags.
RT_CFLAGS  := $(ALL_CFLAGS) -fPIC -fvisibility=hidden -ftls-model=initial-exec \
	      -fno-tree-loop-distribute-patterns -fno-optimize-sibling-calls $(RT_LTO) \
	      $(RT_ARCH_CFLAGS)

# SANITIZE=1 (make check-sanitize): the CLI, recorder and recordmcount with
# AddressSanitizer and UBSan; the runtime with UBSan only, since ASan's
# runtime must come first in a process and cannot be preloaded into
# programs built without it.  Any report stops the program.
# (RT_CFLAGS took ALL_CFLAGS above, before the ASan flags.)
ifeq ($(SANITIZE),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all
RT_CFLAGS  += -fsanitize=undefined
RT_LDFLAGS := -fsanitize=undefined
# libfntrace.a carries UBSan's runtime in its one object: the link of a
# static program is fntrace cc's, which does not know it was sanitized.
RT_STATIC_LIBS := -l:libubsan.a
endif

CLI_OBJ := $(patsubst %,$(BUILD)/cli/%.o,$(basename $(CLI_SRC)))
RMC_OBJ := $(patsubst %,$(BUILD)/cli/%.o,$(basename src/recordmcount/tool.c $(RMC_SRC) \
	   $(SHARED_SRC)))
RT_OBJ  := $(patsubst %,$(BUILD)/rt/%.o,$(basename $(RT_SRC)))
RT_PRELOAD_OBJ := $(patsubst %,$(BUILD)/rt/%.o,$(basename $(RT_PRELOAD_SRC)))
RT_STATIC_OBJ  := $(patsubst %,$(BUILD)/rt/%.o,$(basename $(RT_STATIC_SRC)))
DEPS    := $(CLI_OBJ:.o=.d) $(RT_OBJ:.o=.d) $(BUILD)/cli/src/recordmcount/tool.d

all: $(BUILD)/fntrace $(BUILD)/libfntrace.so $(BUILD)/libfntrace.a $(BUILD)/tsan.supp \
	$(BUILD)/fntrace-recordmcount

# An object depends on the compiler and flags it was built with: each
# build directory keeps them in a file, rewritten only when they change,
# so that a changed flag (RT_LTO, SANITIZE) rebuilds what it touches.
flags_file = $(shell mkdir -p $(dir $(1)) && \
	{ echo '$(2)' | cmp -s - $(1) || echo '$(2)' >$(1); })
$(call flags_file,$(BUILD)/cli/flags,$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS))
$(call flags_file,$(BUILD)/rt/flags,$(CC) $(RT_CFLAGS) $(RT_LDFLAGS))
$(CLI_OBJ) $(RMC_OBJ): $(BUILD)/cli/flags
$(RT_OBJ) $(BUILD)/libfntrace.so $(BUILD)/libfntrace.a: $(BUILD)/rt/flags

# libdw (elfutils): source lines from DWARF, report --srcline.
# capstone: instruction boundaries and operands for the detour planner.
CLI_LIBS := -ldw -lm -lcapstone

# Only main.c says the version: only it is rebuilt when it changes.
$(BUILD)/cli/src/cli/main.o: debian/changelog
$(BUILD)/cli/src/cli/main.o: ALL_CFLAGS += -DFNTRACE_VERSION='"$(VERSION)"'

$(BUILD)/fntrace: $(CLI_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CLI_LIBS)

$(BUILD)/fntrace-recordmcount: $(RMC_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^

# -z relro: what is relocated at load is read-only after; every
# toolchain but Debian's mips one does it unasked.
$(BUILD)/libfntrace.so: $(RT_PRELOAD_OBJ)
	$(CC) $(RT_CFLAGS) -shared -Wl,-z,relro,-z,now $(RT_LDFLAGS) \
		-o $@ $(RT_PRELOAD_OBJ) -ldl -lpthread $(RT_ARCH_LIBS)

# The runtime fntrace cc -static links into a program: one object,
# optimized whole as libfntrace.so is (with the members of RT_ARCH_LIBS
# and RT_STATIC_LIBS it needs in it, so that the program's link needs
# nothing more), in which every global
# symbol but the entry points, mcount's names and the __wrap_ stubs is
# renamed "fntrace.NAME": no name of the program's can meet one of ours,
# and the wrappers (close...) are not libc's names any more
# (src/core/link_static.c).  Renamed, not made local: mips' calls through
# the GOT must name a global symbol (ld crashes on a local one).
RT_BINUTILS := $(CROSS_$(ARCH))
RT_STATIC_GLOBALS := '__wrap_.*' 'fntrace_.*' mcount _mcount __fentry__
$(BUILD)/libfntrace.a: $(RT_STATIC_OBJ)
	$(CC) $(RT_CFLAGS) -r -nostdlib $(if $(RT_LTO),-flinker-output=nolto-rel) \
		-o $(BUILD)/rt/fntrace-static.o $(RT_STATIC_OBJ) $(RT_STATIC_LIBS) $(RT_ARCH_LIBS)
	$(RT_BINUTILS)nm -g --defined-only $(BUILD)/rt/fntrace-static.o | \
		awk '{ print $$3 }' | grep -v -x $(addprefix -e ,$(RT_STATIC_GLOBALS)) | \
		sed 's/.*/& fntrace.&/' >$(BUILD)/rt/fntrace-static.syms
	$(RT_BINUTILS)objcopy --redefine-syms=$(BUILD)/rt/fntrace-static.syms \
		$(BUILD)/rt/fntrace-static.o
	rm -f $@
	$(RT_BINUTILS)ar rcs $@ $(BUILD)/rt/fntrace-static.o

# The runtime alone, for ARCH (with CC its compiler): make runtime ARCH=aarch64
runtime: $(BUILD)/libfntrace.so $(BUILD)/libfntrace.a $(BUILD)/tsan.supp

# ThreadSanitizer's suppressions for the runtime, beside it, where
# fntrace record points TSAN_OPTIONS (src/target/tsan_env.c).
$(BUILD)/tsan.supp: src/target/tsan.supp
	cp $< $@

# The runtime of every other architecture (one with an entry.S) whose
# cross compiler is installed: $(BUILD)/<arch>/libfntrace.so, where
# fntrace looks for it to trace a program of that architecture.
RT_ARCHES    := $(patsubst src/arch/%/entry.S,%,$(wildcard src/arch/*/entry.S))
CROSS_ARCHES := $(filter-out $(HOST_ARCH),$(RT_ARCHES))
cross_prefix = $(shell sed -n 's/^CROSS_$(1) *:= *//p' src/arch/$(1)/arch.mk)
# Under SANITIZE=1, a cross compiler that cannot link a static program
# with UBSan builds its runtime without it, and says so: the runtime is
# still the one its cases need.  libfntrace.a carries UBSan's runtime, so
# a static link that calls into it is the test: Debian has no UBSan for
# riscv64 or mips, and i386's libubsan.a wants __tls_get_addr, which
# static glibc lacks.
runtimes: $(foreach a,$(CROSS_ARCHES),runtime-$(a))
runtime-%:
	@if command -v $(call cross_prefix,$*)gcc >/dev/null; then \
		ubsan=$(SANITIZE); \
		if [ "$$ubsan" = 1 ] && ! echo 'int main(int c, char **v) { return c << c; }' | \
				$(call cross_prefix,$*)gcc -fsanitize=undefined -static \
				-x c - -o /dev/null 2>/dev/null; then \
			echo "no static UBSan for $(call cross_prefix,$*)gcc: the $* runtime without it"; \
			ubsan=; fi; \
		$(MAKE) --no-print-directory ARCH=$* CC=$(call cross_prefix,$*)gcc \
			BUILD=$(abspath $(BUILD))/$* SANITIZE=$$ubsan runtime; \
	else echo "no $(call cross_prefix,$*)gcc: no $* runtime"; fi

$(BUILD)/cli/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The system calls' names of each architecture a recording's kernel may
# have been, generated from its own headers by its compiler: the host's,
# or the cross compiler src/arch/<arch>/arch.mk names, where installed
# (an empty table where not: numbers then).  No table copied by hand
# (src/trace/syscall_names.c).  Made again at every build, and replaced
# only when it differs: a cross compiler installed after the first build
# (make demo, then make check's installs) fills its empty table.
SYSCALL_ARCHES  := x86_64 i386 aarch64 riscv64 mips
syscall_header   = $(if $(filter x86_64,$(1)),asm/unistd_64.h,$(if $(filter i386,$(1)),asm/unistd_32.h,asm/unistd.h))
syscall_cc       = $(if $(filter $(1),$(HOST_ARCH)),$(CC),$(call cross_prefix,$(1))gcc)
SYSCALL_TABLES  := $(foreach a,$(SYSCALL_ARCHES),$(BUILD)/gen/syscall_table_$(a).h)
$(BUILD)/gen/syscall_table_%.h: scripts/syscall-table.sh FORCE
	@mkdir -p $(dir $@)
	@scripts/syscall-table.sh "$(call syscall_cc,$*)" $(call syscall_header,$*) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@ && echo "  GEN $@"; fi
.PHONY: FORCE
FORCE:
$(BUILD)/cli/src/trace/syscall_names.o: $(SYSCALL_TABLES)
$(BUILD)/cli/src/trace/syscall_names.o: ALL_CFLAGS += -I$(BUILD)/gen

$(BUILD)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/rt/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

-include $(DEPS)

# ---- unit tests: tests/unit/NAME.c, linked with the CLI's objects ----
UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRC))
CLI_LIB_OBJ := $(filter-out $(BUILD)/cli/src/cli/main.o,$(CLI_OBJ))

$(BUILD)/tests/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CLI_LIB_OBJ) $(CLI_LIBS)

# An architecture's own, tests/unit/test_ARCH_*.c: the words its runtime
# writes (ftrace.c) and what its trap handler makes of them (trap.c) are
# that CPU's, in its byte order and its ucontext, so that architecture's
# compiler builds the test with those two files, static, and it runs as
# the architecture's test programs do (under qemu-user, through binfmt).
unit_arch_cc = $(if $(filter $(1),$(HOST_ARCH)),$(CC) $(ALL_CFLAGS),\
	$(call cross_prefix,$(1))gcc $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -static \
	-Isrc -Isrc/arch/$(1))
define unit_arch_rule
$(BUILD)/tests/unit/test_$(1)_%: tests/unit/test_$(1)_%.c $(wildcard tests/unit/*.h) \
		$(wildcard src/arch/*.h src/arch/$(1)/* src/arch/x86/*.h)
	@mkdir -p $$(dir $$@)
	$(call unit_arch_cc,$(1)) -o $$@ $$< src/arch/$(1)/ftrace.c src/arch/$(1)/trap.c
endef
$(foreach a,$(RT_ARCHES),$(eval $(call unit_arch_rule,$(a))))

# test_detour_run also runs relocated copies of aarch64 functions: in this
# program, built for aarch64 (static, run under qemu-user as the
# architecture's unit tests are), which calls the copies the test makes.
DETOUR_RUNNER := $(BUILD)/tests/progs/detour_run_aarch64
$(DETOUR_RUNNER): tests/progs/detour_run_aarch64.c
	@mkdir -p $(dir $@)
	$(call cross_prefix,aarch64)gcc $(CFLAGS) $(WARN) -static -o $@ $<
$(BUILD)/tests/unit/test_detour_run: $(DETOUR_RUNNER)

# ---- the bundled example ----
$(BUILD)/examples/demo: $(wildcard examples/*.c examples/*.h) examples/Makefile
	$(MAKE) -C examples BUILD=$(abspath $(BUILD))/examples

demo: deps-demo all $(BUILD)/examples/demo
	LD_LIBRARY_PATH=$(BUILD)/examples $(BUILD)/fntrace live -- $(BUILD)/examples/demo 3

# make check builds what its cases use first, CHECK_JOBS (the cores) at
# once: .ci/run's plain make check would build every architecture's
# runtime, and fuzz_regressions its three sanitized fuzz targets, one
# after the other.  A fuzz target that fails to build is the case's to
# say: the second make, for what every case needs, is the one that stops.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CHECK_FUZZ = $(FUZZ_BIN) $(FUZZ_TRACE_BIN) $(FUZZ_DATADIR_BIN)
check: deps-check
	$(MAKE) -k -j$(CHECK_JOBS) all runtimes man $(UNIT_BIN) $(CHECK_FUZZ) || \
		$(MAKE) all runtimes man $(UNIT_BIN)
	BUILD=$(abspath $(BUILD)) CHECK_JOBS=$(CHECK_JOBS) tests/run.sh

unit: $(UNIT_BIN)

stress: deps-check all runtimes $(UNIT_BIN)
	BUILD=$(abspath $(BUILD)) tests/stress.sh

# ASan sets the core size limit of a sanitized program to 0, which the
# programs fntrace starts would inherit: disable_coredump=0 keeps theirs.
check-sanitize: deps-sanitize
	$(MAKE) BUILD=build-sanitize SANITIZE=1 all runtimes man unit
	ASAN_OPTIONS=detect_leaks=1:disable_coredump=0 UBSAN_OPTIONS=print_stacktrace=1 \
		BUILD=$(abspath build-sanitize) tests/run.sh

bench: deps-bench all
	BUILD=$(abspath $(BUILD)) bench/run.sh

# ---- fuzzing recordmcount: reader, finder and writer, all in memory ----
FUZZ_TIME ?= 60
FUZZ_SRC  := tests/fuzz/fuzz_recordmcount.c $(RMC_SRC) $(SHARED_SRC)
FUZZ_BIN  := $(BUILD)/fuzz/fuzz_recordmcount

$(FUZZ_BIN): $(FUZZ_SRC) $(wildcard src/recordmcount/*.h src/elf/*.h src/sites/*.h \
			src/common/*.h src/arch/*.h src/arch/*/*.h)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -Isrc -Isrc/arch/$(ARCH) $(WARN) -o $@ $(FUZZ_SRC)

fuzz: deps-check $(FUZZ_BIN)
	tests/fuzz/run.sh $(FUZZ_BIN) $(abspath $(BUILD))/fuzz $(FUZZ_TIME)

# ---- fuzzing the trace reader, the report and the exports ----
FUZZ_TRACE_SRC := tests/fuzz/fuzz_trace.c $(wildcard src/trace/*.c) src/dwarf/srcline.c \
		  $(SHARED_SRC)
FUZZ_TRACE_BIN := $(BUILD)/fuzz/fuzz_trace

$(FUZZ_TRACE_BIN): $(FUZZ_TRACE_SRC) $(SYSCALL_TABLES) $(wildcard src/trace/*.h src/dwarf/srcline.h src/common/*.h \
			src/elf/*.h src/arch/*.h src/arch/*/*.h)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -Isrc -Isrc/arch/$(ARCH) -I$(BUILD)/gen $(WARN) -o $@ $(FUZZ_TRACE_SRC) \
		$(CLI_LIBS)

# ---- fuzzing the data directory's text files (info, funcs, args, enums) ----
FUZZ_DATADIR_BIN := $(BUILD)/fuzz/fuzz_datadir

$(FUZZ_DATADIR_BIN): tests/fuzz/fuzz_datadir.c $(filter-out tests/fuzz/fuzz_trace.c,$(FUZZ_TRACE_SRC)) \
			$(SYSCALL_TABLES) \
			$(wildcard src/trace/*.h src/dwarf/srcline.h src/common/*.h src/elf/*.h \
			src/arch/*.h src/arch/*/*.h)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -Isrc -Isrc/arch/$(ARCH) -I$(BUILD)/gen $(WARN) -o $@ \
		tests/fuzz/fuzz_datadir.c $(filter-out tests/fuzz/fuzz_trace.c,$(FUZZ_TRACE_SRC)) \
		$(CLI_LIBS)

fuzz-datadir: deps-check $(FUZZ_DATADIR_BIN)
	@mkdir -p $(BUILD)/fuzz/datadir-corpus
	$(FUZZ_DATADIR_BIN) -max_total_time=$(FUZZ_TIME) $(BUILD)/fuzz/datadir-corpus \
		tests/fuzz/datadir-seeds

fuzz-trace: deps-check all $(FUZZ_TRACE_BIN)
	tests/fuzz/run_trace.sh $(FUZZ_TRACE_BIN) $(abspath $(BUILD))/fuzz $(FUZZ_TIME)

# ---- manual pages: docs/man/PAGE.md, Markdown pandoc writes as roff ----
# (docs/design.md, *Manual pages and completion*).  VERSION, if set, goes
# into each page's footer (debian/changelog's, unless given).  Read literally: no "--" made a dash, no $...$
# made TeX, no ~ or ^ made sub- or superscripts.
MAN_SRC   := $(wildcard docs/man/*.md)
MAN_PAGES := $(patsubst docs/man/%.md,$(BUILD)/man/%,$(MAN_SRC))

$(BUILD)/man/%: docs/man/%.md Makefile debian/changelog | deps-man
	@mkdir -p $(dir $@)
	pandoc --standalone --from markdown-smart-tex_math_dollars-subscript-superscript --to man \
		--metadata footer="fntrace$(if $(VERSION), $(VERSION))" -o $@ $<

man: $(MAN_PAGES)

deps-%:
	@scripts/deps.sh $*

install: all man
	install -D -m 755 $(BUILD)/fntrace $(DESTDIR)$(PREFIX)/bin/fntrace
	install -D -m 755 $(BUILD)/libfntrace.so $(DESTDIR)$(PREFIX)/lib/fntrace/libfntrace.so
	install -D -m 644 $(BUILD)/libfntrace.a $(DESTDIR)$(PREFIX)/lib/fntrace/libfntrace.a
	install -D -m 644 $(BUILD)/tsan.supp $(DESTDIR)$(PREFIX)/lib/fntrace/tsan.supp
	for a in $(CROSS_ARCHES); do [ ! -f $(BUILD)/$$a/libfntrace.so ] || \
		install -D -m 755 $(BUILD)/$$a/libfntrace.so $(DESTDIR)$(PREFIX)/lib/fntrace/$$a/libfntrace.so; \
		[ ! -f $(BUILD)/$$a/tsan.supp ] || \
		install -D -m 644 $(BUILD)/$$a/tsan.supp $(DESTDIR)$(PREFIX)/lib/fntrace/$$a/tsan.supp; \
		[ ! -f $(BUILD)/$$a/libfntrace.a ] || \
		install -D -m 644 $(BUILD)/$$a/libfntrace.a $(DESTDIR)$(PREFIX)/lib/fntrace/$$a/libfntrace.a; done
	install -D -m 644 scripts/fntrace-gdb.py $(DESTDIR)$(PREFIX)/share/fntrace/fntrace-gdb.py
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -D -m 644 scripts/fntrace-completion.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/fntrace

# The Debian package (debian/), built by dpkg-buildpackage from a copy of
# the tree in $(BUILD)/deb (scripts/deb.sh), copied to $(BUILD), and
# checked by lintian: an error fails the target.
deb: deps-deb
	@deb=$$(scripts/deb.sh $(BUILD)/deb) && cp "$$deb" $(BUILD)/ && \
		lintian --fail-on error "$$deb" && echo "$(BUILD)/$${deb##*/}"

clean:
	rm -rf $(BUILD) build-sanitize

.PHONY: all runtime runtimes man deb demo check check-sanitize unit stress bench fuzz fuzz-trace fuzz-datadir install clean
