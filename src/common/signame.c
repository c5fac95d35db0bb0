// SPDX-License-Identifier: GPL-2.0
/*
 * The signals a snapshot may be asked with (signame.h).
 */
#include "signame.h"

#include <signal.h>
#include <string.h>

static const struct {
	const char *name;
	int sig;
} allowed[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 }, { "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "URG", SIGURG }, { "WINCH", SIGWINCH },
};

int ft_snapshot_signal_number(const char *name)
{
	if (!strncmp(name, "SIG", 3))
		name += 3;
	for (unsigned i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (!strcmp(name, allowed[i].name))
			return allowed[i].sig;
	return 0;
}

const char *ft_snapshot_signal_names(void)
{
	return "HUP, INT, QUIT, USR1, USR2, PIPE, ALRM, TERM, URG, WINCH";
}
