/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layouts an architecture's assembly may read: its fast paths of the
 * graph hooks (src/arch/x86_64/entry.S) write events and shadow frames
 * without calling C (the trace's words they take from
 * common/trace_format.h).  Plain numbers, for the assembler; each file that
 * owns a structure asserts them against it (tracer_graph.c: contexts,
 * frames, the graph settings; records.c: the record hash and blocks), so
 * a changed structure fails the build, not a traced program.
 */
#ifndef FNTRACE_ASM_OFFSETS_H
#define FNTRACE_ASM_OFFSETS_H

/* struct ft_context: a thread's own context is at the start of its
 * struct ft_thread, its shadow stack right after it. */
#define FT_CTX_POS		0
#define FT_CTX_END		8
#define FT_CTX_LAST		16
#define FT_CTX_BUSY		24
#define FT_CTX_DEPTH		28
#define FT_CTX_MAX_DEPTH	32
#define FT_CTX_CPU		36
#define FT_CTX_BUSY_SP		40
#define FT_CTX_OVERRUNS		48
#define FT_CTX_OVERRUNS_WRITTEN	56
#define FT_CTX_GRAPH_OFF	72
#define FT_CTX_SIZE		128

/* struct shadow_frame */
#define FT_FRAME_RET		0
#define FT_FRAME_RETP		8
#define FT_FRAME_ID		16
#define FT_FRAME_FLAGS		20
#define FT_FRAME_TIME		24
#define FT_FRAME_SHIFT		5	/* log2 of its size */
#define FT_FRAME_TRACED		0x1	/* its entry was written */
#define FT_FRAME_TIMED		0x80	/* a snapshot_if_longer trigger times it */
#define FT_FRAME_PAIRED		0x100	/* a detour's stub called the function from
					 * just before return_to_handler (x86_64):
					 * return_to_handler leaves by a ret */

/* struct ft_graph_config: trace, then the six settings that each take
 * the graph hooks off their fast path (profile .. args), 24 bytes; then
 * probes, which sends there only the functions with a trigger at the
 * call (their records' FT_REC_FL_PROBED); then the 64-bit
 * tracing_thresh. */
#define FT_GRAPH_TRACE		0
#define FT_GRAPH_SETTINGS	4
#define FT_GRAPH_PROBES		28
#define FT_GRAPH_THRESH		32

/* struct rec_hash and its slots */
#define FT_HASH_SHIFT		8
#define FT_HASH_MASK		16
#define FT_HASH_SLOTS		24
#define FT_HASH_SLOT_SHIFT	4
#define FT_HASH_SLOT_ID		8
#define FT_HASH_MULTIPLIER	0x9e3779b97f4a7c15

/* struct ftrace_rec, in blocks of 1 << FT_REC_BLOCK_SHIFT */
#define FT_REC_SIZE		40
#define FT_REC_FLAGS		24
#define FT_REC_KIND		31
#define FT_SITE_DETOUR		6	/* enum site_kind's SITE_DETOUR */
#define FT_REC_BLOCK_SHIFT	12
#define FT_REC_FL_RETURNS	0x40	/* the one FTRACE_FL_RETURNS */
#define FT_REC_FL_PROBED	0x80	/* the one FTRACE_FL_PROBED */
#define FT_REC_FL_TIMED		0x100	/* the one FTRACE_FL_TIMED */

#endif
