/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The program's own protections of the text a batch writes: saved before
 * the batch, read and write added for it, put back exactly after.
 */
#ifndef FNTRACE_TEXTPROT_H
#define FNTRACE_TEXTPROT_H

#include <stdint.h>

/* Open the window of one batch: from here until text_window_close() no
 * other thread's mprotect() (through the wrapper) changes a protection,
 * and this thread takes no asynchronous signal.  0, or -1 if the
 * protections cannot be read (nothing is changed then). */
int text_window_open(void);
/* Open /proc/self/maps while it can be (at start-up: before a chroot,
 * or the program's descriptors fill its limit). */
void text_window_prepare(void);
/* Make the pages of [lo, hi) readable and writable, keeping what the
 * program set to put it back; runs come in address order.  -1 if part of
 * the range is not mapped or cannot be made writable. */
int text_window_add(uintptr_t lo, uintptr_t hi);
/* The same for data the window writes (a GOT slot): -1, nothing
 * changed, where the protections cannot be read. */
int text_window_add_data(uintptr_t lo, uintptr_t hi);
/* Every page back to the protection the program had set; the window
 * closed. */
void text_window_close(void);

#endif
