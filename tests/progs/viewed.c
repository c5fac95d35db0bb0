// SPDX-License-Identifier: GPL-2.0
/*
 * The program the browser tests look at (tests/cases/export/browser.sh): an
 * image-filter-shaped call tree with names a reader recognises in a
 * flame graph, calls of clearly different weights (blur_row is most of
 * the time, parse_config little), recursion (split_tile), and a second
 * thread (compress_worker), so that a viewer shows two tracks.  A few
 * hundred calls: the exported files stay small.
 *
 * read_row and blur_row end in a tail call to spin: at -O2 a jump, so
 * that spin returns straight to their caller, and the two frames end
 * within a nanosecond, often in the same one.  speedscope (1.25) once
 * ended the caller first there, warned and dropped the end, when the
 * Chrome JSON wrote calls as X events; the browser case checks that it
 * no longer does, and that spin is shown inside read_row.
 */
#include <pthread.h>
#include <stdio.h>

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif
#define ROWS 12
#define COLS 64

static volatile unsigned sink;
static unsigned image[ROWS][COLS];

/* Busy work proportional to n, that the compiler must keep: n * 2000
 * stores, about 2n us: the work, not the tracing or the thread's
 * start, is what the pictures show. */
KEEP static void spin(unsigned n)
{
	for (unsigned i = 0; i < n * 2000; i++)
		sink += i;
}

KEEP static int parse_config(void)
{
	spin(200);
	return 3;
}

KEEP static void read_row(int r)
{
	for (int c = 0; c < COLS; c++)
		image[r][c] = (unsigned)(r * 31 + c * 7);
	spin(500);
}

KEEP static void read_rows(void)
{
	for (int r = 0; r < ROWS; r++)
		read_row(r);
	sink += image[0][0];
}

KEEP static unsigned pixel_sum(int r, int c, int radius)
{
	unsigned s = 0;

	for (int d = -radius; d <= radius; d++)
		if (c + d >= 0 && c + d < COLS)
			s += image[r][c + d];
	spin(150);
	return s;
}

KEEP static void blur_row(int r, int radius)
{
	for (int c = 0; c < COLS; c += 8)
		image[r][c] = pixel_sum(r, c, radius) / (unsigned)(2 * radius + 1);
	spin(800);
}

KEEP static void blur(int radius)
{
	for (int r = 0; r < ROWS; r++)
		blur_row(r, radius);
	sink += image[1][1];
}

KEEP static unsigned split_tile(int depth)
{
	unsigned s = depth ? split_tile(depth - 1) + split_tile(depth - 1) : 1;

	spin(100);
	return s;
}

KEEP static unsigned deflate_block(int b)
{
	spin(600);
	return image[b % ROWS][0] ^ (unsigned)b;
}

KEEP static void *compress_worker(void *arg)
{
	unsigned h = 0;

	(void)arg;
	for (int b = 0; b < 6; b++)
		h ^= deflate_block(b);
	sink += h;
	return NULL;
}

KEEP static void write_output(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, compress_worker, NULL) == 0)
		pthread_join(t, NULL);
	sink += split_tile(3);
}

int main(void)
{
	int radius = parse_config();

	read_rows();
	blur(radius);
	write_output();
	printf("%u\n", image[ROWS - 1][COLS - 8]);
	return 0;
}
