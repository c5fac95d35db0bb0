/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment of exec'd images (exec_env.c).
 */
#ifndef FNTRACE_EXEC_ENV_H
#define FNTRACE_EXEC_ENV_H

/* At start-up: the LD_PRELOAD entry put first for this image alone (its
 * sanitizer's runtime) out of the environment its children inherit. */
void ft_exec_env_start(void);
/* Is this process a sanitizer's symbolizer, which the runtime stays out of? */
int ft_exec_env_stays_out(void);
/* go(call, env) with envp, or with a copy whose LD_PRELOAD names first the
 * sanitizer runtime the image exec'd from file needs (search: through
 * PATH); its result. */
typedef int (*ft_exec_fn)(void *call, char *const envp[]);
int ft_exec_with_env(const char *file, int search, char *const envp[], ft_exec_fn go,
		     void *call);

#endif
