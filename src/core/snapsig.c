// SPDX-License-Identifier: GPL-2.0
/*
 * A signal that takes a snapshot (record --overwrite --snapshot-signal=
 * SIG): when the program gets it, a snapshot is asked for, as a program
 * thread asks (snapshot_ctl.c: the control thread copies the ring, and
 * the asking thread goes on), then what the program set for the signal
 * happens: its handler runs, or the default action.
 *
 * Unlike a crash signal's, this handler stays first whatever the program
 * sets, as SIGTRAP's does (breakpoint.c): sigaction() records the
 * program's action, which the program reads back, and ours is installed
 * with its flags and mask, so that its handler runs on the stack and
 * with the signals blocked it asked for.  SA_RESETHAND is done here, on
 * the program's action.  The thread waits for the snapshot (2 s at most)
 * before the program's handler runs or the default action ends the
 * process: the snapshot holds the window at the signal, and is there
 * even if the handler ends the process.  The signal is one a person
 * sends now and then (kill -USR2): the copy's milliseconds are not paid
 * per call.  Its default action, where the program left it, ends the
 * process as it would have, or (SIGURG, SIGWINCH) does nothing.
 */
#include "snapsig.h"
#include "control.h"
#include "interpose.h"
#include "snapshot_ctl.h"
#include "../common/signame.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* How long the thread that got the signal waits for its snapshot: a
 * copy takes milliseconds (docs/design.md, Snapshots). */
#define FIRST_WAIT_MS 2000

static int snap_sig;
static struct sigaction program;	/* what the program set for it */
static char why[32];			/* "signal SIGUSR2" */

static void on_snapshot_signal(int sig, siginfo_t *si, void *uc);

static int install(const struct sigaction *as_program)
{
	struct sigaction ours = *as_program;

	ours.sa_sigaction = on_snapshot_signal;
	ours.sa_flags = (as_program->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
	return ft_real_sigaction()(snap_sig, &ours, NULL);
}

static int default_ignores(int sig)
{
	return sig == SIGURG || sig == SIGWINCH;
}

/* The default action, the process's end: the signal again, with its
 * siginfo, delivered as the handler returns. */
static void end_as_default(int sig, siginfo_t *si)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	ft_real_sigaction()(sig, &dfl, NULL);
	syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), sig, si);
}

/* The snapshot, taken before the program's handler or its end (the
 * control thread, which takes it, does not wait for itself). */
static void snapshot_first(void)
{
	uint32_t ticket = ft_snapshot_ask(why);

	if (!ft_control_on_thread())
		ft_snapshot_wait(ticket, FIRST_WAIT_MS);
}

static void on_snapshot_signal(int sig, siginfo_t *si, void *uc)
{
	struct sigaction act = program;
	int saved = errno;

	snapshot_first();
	if (act.sa_flags & SA_RESETHAND) {
		program.sa_handler = SIG_DFL;
		program.sa_flags &= ~SA_SIGINFO;
		install(&program);
	}
	errno = saved;
	if (act.sa_flags & SA_SIGINFO)
		act.sa_sigaction(sig, si, uc);
	else if (act.sa_handler == SIG_DFL && !default_ignores(sig))
		end_as_default(sig, si);
	else if (act.sa_handler != SIG_DFL && act.sa_handler != SIG_IGN)
		act.sa_handler(sig);
}

void ft_snapsig_start(const char *name)
{
	int sig = name ? ft_snapshot_signal_number(name) : 0;

	if (!sig || !ft_real_sigaction() || ft_real_sigaction()(sig, NULL, &program))
		return;
	snap_sig = sig;
	snprintf(why, sizeof(why), "signal SIG%s", name + (name[0] == 'S' && name[1] == 'I' ? 3 : 0));
	if (install(&program))
		snap_sig = 0;
}

int ft_snapsig_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!snap_sig || sig != snap_sig)
		return 1;
	if (act && install(act))
		return -1;
	if (old)
		*old = program;
	if (act)
		program = *act;
	return 0;
}
