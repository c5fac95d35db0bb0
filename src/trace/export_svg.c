// SPDX-License-Identifier: GPL-2.0
/*
 * --format svg: the tree of distinct stacks (calltree.h) as a flame graph
 * in one self-contained SVG file, drawn by fntrace: its style and script
 * are inside (export_svg_script.c) and nothing is loaded, so it opens from
 * file:// in any browser.  Every frame is a rectangle as wide as its
 * total time, coloured by a hash of its name (the same name, the same
 * colour, in every graph), with its name cut to fit.  Hovering shows a
 * frame's calls, total and self time; a click zooms to it; a search box
 * highlights the frames whose names contain the text and says what share
 * of the time they cover; a button turns the flame (outermost calls at
 * the bottom) into an icicle (at the top) and back.
 *
 * The DOM, for readers and tests:
 *
 *   <svg id="flamegraph" data-total="NS" data-orientation="flame|icicle"
 *        data-zoomed="ID" data-search="TEXT" ...geometry for the script>
 *     <style>
 *     <text id="title">, <text id="subtitle">   what, how much, how many
 *     <text id="reset" class="button">          back to the whole graph
 *     <text id="orientation" class="button">    "Icicle" / "Flame"
 *     <foreignObject><input id="search"/>       the search box (XHTML)
 *     <text id="matched">                       "Matched: 12.34% (5 frames)"
 *     <g id="frames">
 *       <g class="frame root" id="root" data-name="all" ...>
 *       <g class="frame" id="fN" data-name="NAME" data-calls="N"
 *          data-total="NS" data-self="NS" data-offset="NS" data-depth="D"
 *          data-parent="ID">
 *         <title>NAME, calls, total, self</title>
 *         <rect x y width height fill/> <text x y>label</text>
 *       </g> ...
 *     </g>
 *     <text id="details">                       the hovered frame, described
 *     <script>                                  last: the frames are there
 *   </svg>
 *
 * One frame per distinct stack: the root ("all", every thread read, depth
 * 0) and one per node of the tree (depth 1 the outermost calls).  A
 * frame's parent is the frame of the stack one shorter; data-offset is
 * where it starts, in ns from the left edge of the whole graph (siblings
 * side by side in name order).  In the DOM, frames come in the order the
 * trace first met their stacks, a parent before its children.  A search
 * (a plain, case-sensitive substring of the name) adds class "match" to
 * the frames it finds and sets data-search; a zoom sets data-zoomed,
 * hides the frames outside the zoomed one (style display:none) and gives
 * its ancestors class "ancestor".  window.fntraceFlame has zoom(id),
 * reset(), flip(), search(text) and describe(id) for scripts.
 *
 * Frames narrower than a tenth of a pixel in the whole graph, and all
 * they called, are left out (the subtitle counts them): they cannot be
 * seen or clicked, and a trace of a million distinct stacks would
 * otherwise make a file no browser opens.  Everything written from the
 * trace is XML-escaped, and bytes that are not UTF-8 or not allowed in
 * XML become '?'.
 */
#include "export.h"
#include "export_svg.h"
#include "calltree.h"
#include "../common/print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SVG_WIDTH	1200
#define PAD		10		/* left and right of the frames */
#define GRAPH_WIDTH	(SVG_WIDTH - 2 * PAD)
#define HEAD		72		/* title, subtitle, buttons */
#define FOOT		32		/* the details line */
#define FRAME_HEIGHT	16
#define CHAR_WIDTH	7.2		/* of 12px monospace: 0.6 em */
#define MIN_WIDTH	0.1		/* px: narrower frames are left out */

/* Where each frame goes, computed before anything is written: the height
 * of the picture depends on the deepest frame drawn. */
struct svg_layout {
	uint64_t *offset;		/* per node, ns from the left edge */
	unsigned char *drawn;		/* per node */
	double scale;			/* px per ns */
	uint32_t max_depth;		/* of the frames drawn */
	uint32_t nr_left_out;
	unsigned height;
};

/* ---- XML text ---- */

static int is_continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/* The length of the UTF-8 sequence at p if it is well formed and a
 * character XML allows, else 0. */
static size_t xml_char_len(const unsigned char *p)
{
	if (*p >= 0x20 && *p < 0x7f)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		return is_continuation(p[1]) ? 2 : 0;
	if (*p >= 0xe0 && *p <= 0xef) {
		unsigned lo = *p == 0xe0 ? 0xa0 : 0x80, hi = *p == 0xed ? 0x9f : 0xbf;

		if (p[1] < lo || p[1] > hi || !is_continuation(p[2]))
			return 0;
		/* U+FFFE and U+FFFF are not XML characters. */
		return *p == 0xef && p[1] == 0xbf && p[2] >= 0xbe ? 0 : 3;
	}
	if (*p >= 0xf0 && *p <= 0xf4) {
		unsigned lo = *p == 0xf0 ? 0x90 : 0x80, hi = *p == 0xf4 ? 0x8f : 0xbf;

		return p[1] >= lo && p[1] <= hi && is_continuation(p[2]) &&
		       is_continuation(p[3]) ? 4 : 0;
	}
	return 0;
}

/* Writes at most max_chars characters of s, escaped for text and for
 * attribute values alike; 1 if s had more. */
static int put_xml_prefix(FILE *f, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;

	for (; *p && max_chars; max_chars--, p += len ? len : 1) {
		len = xml_char_len(p);
		if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (len)
			fwrite(p, 1, len, f);
		else
			putc('?', f);
	}
	return *p != '\0';
}

static void put_xml(FILE *f, const char *s)
{
	put_xml_prefix(f, s, SIZE_MAX);
}

static size_t char_count(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += !is_continuation(*p);
	return n;
}

/* The name as the frame's label: whole if it fits in width px, else cut
 * with "..", or nothing if not even three characters fit.  The script's
 * fit() does the same after a zoom. */
static void put_label(FILE *f, const char *name, double width)
{
	size_t chars = width > 6 ? (size_t)((width - 6) / CHAR_WIDTH) : 0;

	if (chars < 3)
		return;
	if (char_count(name) <= chars)
		put_xml(f, name);
	else if (put_xml_prefix(f, name, chars - 2))
		fputs("..", f);
}

/* ---- what a frame says ---- */

static const char *duration(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
	return buf;
}

/* flamegraph.pl's "hot" palette, picked by a hash of the name so that a
 * function keeps its colour from one graph to the next; frames with no
 * name (lost, unknown ids) and the root are grey. */
static void put_fill(FILE *f, const char *name, int is_root)
{
	uint32_t h = 2166136261u;

	if (is_root || name[0] == '[') {
		fputs(is_root ? "rgb(200,200,200)" : "rgb(160,160,160)", f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	fprintf(f, "rgb(%u,%u,%u)", 205 + h % 51, (h >> 8) % 231, (h >> 16) % 56);
}

/* ---- layout ---- */

/* Nodes are numbered after their parents (calltree.c adds a child to a
 * parent that exists), so one pass in index order places every node
 * after its parent: children side by side from their parent's left edge,
 * in the tree's (name) order. */
static void place_frames(const struct calltree *t, struct svg_layout *l)
{
	l->drawn[CALLTREE_ROOT] = 1;
	for (uint32_t p = 0; p < t->nr_nodes; p++) {
		uint64_t at = l->offset[p];

		for (uint32_t c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
			const struct calltree_node *n = &t->nodes[c];

			l->offset[c] = at;
			at += n->total;
			l->drawn[c] = l->drawn[p] && n->total * l->scale >= MIN_WIDTH;
			if (!l->drawn[c])
				l->nr_left_out++;
			else if (n->depth > l->max_depth)
				l->max_depth = n->depth;
		}
	}
	l->height = HEAD + (l->max_depth + 1) * FRAME_HEIGHT + FOOT;
}

static int layout_init(struct svg_layout *l, const struct calltree *t)
{
	uint64_t total = t->nodes[CALLTREE_ROOT].total;

	*l = (struct svg_layout) { .scale = total ? (double)GRAPH_WIDTH / total : 0 };
	l->offset = calloc(t->nr_nodes, sizeof(*l->offset));
	l->drawn = calloc(t->nr_nodes, sizeof(*l->drawn));
	if (!l->offset || !l->drawn) {
		free(l->offset);
		free(l->drawn);
		pr_error("out of memory");
		return -1;
	}
	place_frames(t, l);
	return 0;
}

static void layout_free(struct svg_layout *l)
{
	free(l->offset);
	free(l->drawn);
}

/* The flame's rows: the root at the bottom, as the script's rowY(). */
static unsigned row_y(const struct svg_layout *l, uint32_t depth)
{
	return HEAD + (l->max_depth - depth) * FRAME_HEIGHT;
}

/* ---- the document ---- */

static void put_frame_id(FILE *f, uint32_t node)
{
	if (node == CALLTREE_ROOT)
		fputs("root", f);
	else
		fprintf(f, "f%" PRIu32, node);
}

static void put_title(FILE *f, const struct calltree *t, uint32_t node, const char *name)
{
	const struct calltree_node *n = &t->nodes[node];
	uint64_t all = t->nodes[CALLTREE_ROOT].total;
	char total[32], self[32];

	fputs("<title>", f);
	put_xml(f, name);
	duration(total, sizeof(total), n->total);
	duration(self, sizeof(self), n->self);
	if (node == CALLTREE_ROOT)
		fprintf(f, ": %s</title>", total);
	else
		fprintf(f, ": %" PRIu64 " call%s, %s (%.2f%%), self %s</title>", n->calls,
			n->calls == 1 ? "" : "s", total, all ? 100.0 * n->total / all : 0.0, self);
}

/* <g class="frame" id=... data-...>: the frame's facts, for the script
 * and for anyone reading the DOM. */
static void put_frame_open(FILE *f, const struct calltree *t, const struct svg_layout *l,
			   uint32_t node, const char *name)
{
	const struct calltree_node *n = &t->nodes[node];

	fprintf(f, "<g class=\"frame%s\" id=\"", node == CALLTREE_ROOT ? " root" : "");
	put_frame_id(f, node);
	fputs("\" data-name=\"", f);
	put_xml(f, name);
	fprintf(f, "\" data-calls=\"%" PRIu64 "\" data-total=\"%" PRIu64 "\" data-self=\"%"
		PRIu64 "\" data-offset=\"%" PRIu64 "\" data-depth=\"%" PRIu32 "\"",
		n->calls, n->total, n->self, l->offset[node], n->depth);
	if (node != CALLTREE_ROOT) {
		fputs(" data-parent=\"", f);
		put_frame_id(f, n->parent);
		putc('"', f);
	}
	putc('>', f);
}

static void put_frame(FILE *f, const struct calltree *t, const struct svg_layout *l,
		      uint32_t node)
{
	const struct calltree_node *n = &t->nodes[node];
	const char *name = node == CALLTREE_ROOT ? "all" : calltree_name(t, node);
	double x = PAD + l->offset[node] * l->scale;
	double width = node == CALLTREE_ROOT ? GRAPH_WIDTH : n->total * l->scale;
	unsigned y = row_y(l, n->depth);

	put_frame_open(f, t, l, node, name);
	put_title(f, t, node, name);
	fprintf(f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"", x, y,
		width, FRAME_HEIGHT - 1);
	put_fill(f, name, node == CALLTREE_ROOT);
	fprintf(f, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_HEIGHT - 4.5);
	put_label(f, name, width);
	fputs("</text></g>\n", f);
}

/* The <svg> element, with the geometry the script lays frames out by,
 * the style sheet and the background. */
static void put_svg_open(FILE *f, const struct calltree *t, const struct svg_layout *l)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" id=\"flamegraph\" "
		"width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" data-total=\"%" PRIu64 "\" "
		"data-orientation=\"flame\" data-zoomed=\"root\" data-search=\"\" "
		"data-pad=\"%d\" data-graph-width=\"%d\" data-head=\"%d\" "
		"data-frame-height=\"%d\" data-char-width=\"%.1f\" data-min-width=\"%.1f\" "
		"data-max-depth=\"%" PRIu32 "\">\n",
		SVG_WIDTH, l->height, SVG_WIDTH, l->height, t->nodes[CALLTREE_ROOT].total,
		PAD, GRAPH_WIDTH, HEAD, FRAME_HEIGHT, CHAR_WIDTH, MIN_WIDTH, l->max_depth);
	fprintf(f, "<style><![CDATA[\n%s]]></style>\n", svg_style);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" fill=\"#f6f6f2\"/>\n",
		SVG_WIDTH, l->height);
}

/* The command traced, then how much time, how many threads and stacks. */
static void put_titles(FILE *f, const struct export *ex, const struct calltree *t,
		       const struct svg_layout *l)
{
	char total[32];

	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\">", SVG_WIDTH / 2);
	put_xml(f, ex->td.info.command);
	fprintf(f, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"40\" text-anchor=\"middle\">"
		"%s in %u thread%s, %" PRIu32 " distinct stacks", SVG_WIDTH / 2,
		duration(total, sizeof(total), t->nodes[CALLTREE_ROOT].total), ex->nr_threads,
		ex->nr_threads == 1 ? "" : "s", t->nr_nodes - 1);
	if (l->nr_left_out)
		fprintf(f, " (%" PRIu32 " too narrow to draw)", l->nr_left_out);
	fputs("</text>\n", f);
}

/* The buttons, the search box (an XHTML input: SVG has none) and where
 * the search says what it found. */
static void put_toolbar(FILE *f)
{
	fprintf(f, "<text id=\"reset\" class=\"button idle\" x=\"%d\" y=\"62\">Reset zoom</text>\n"
		"<text id=\"orientation\" class=\"button\" x=\"%d\" y=\"62\">Icicle</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"62\" text-anchor=\"end\"></text>\n"
		"<foreignObject x=\"%d\" y=\"47\" width=\"220\" height=\"22\">"
		"<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"search\" type=\"search\" "
		"placeholder=\"Search names (/ or Ctrl-F)\" autocomplete=\"off\"/></foreignObject>\n",
		PAD, PAD + 100, SVG_WIDTH - PAD - 230, SVG_WIDTH - PAD - 220);
}

/* The script comes last, so that the frames it looks for are there when
 * it runs. */
static void put_tail(FILE *f, const struct svg_layout *l)
{
	fprintf(f, "</g>\n<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", PAD,
		l->height - 12);
	fprintf(f, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		svg_script);
}

int export_svg(struct export *ex)
{
	struct calltree tree;
	struct svg_layout layout;
	FILE *f = ex->out.f;

	if (calltree_build(&tree, &ex->td, ex->threads, ex->nr_threads))
		return -1;
	if (layout_init(&layout, &tree)) {
		calltree_free(&tree);
		return -1;
	}
	put_svg_open(f, &tree, &layout);
	put_titles(f, ex, &tree, &layout);
	put_toolbar(f);
	fputs("<g id=\"frames\">\n", f);
	for (uint32_t n = 0; n < tree.nr_nodes; n++)
		if (layout.drawn[n])
			put_frame(f, &tree, &layout, n);
	put_tail(f, &layout);
	layout_free(&layout);
	calltree_free(&tree);
	return 0;
}
