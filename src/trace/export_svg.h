/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What export_svg.c embeds in every flame graph: the style sheet and the
 * script (export_svg_script.c), kept apart from the C that lays the
 * frames out.  The script reads its geometry from the <svg> element's
 * data-* attributes, which export_svg.c writes from its constants, so
 * the two never disagree.
 */
#ifndef FNTRACE_EXPORT_SVG_H
#define FNTRACE_EXPORT_SVG_H

extern const char svg_style[];
extern const char svg_script[];

#endif
