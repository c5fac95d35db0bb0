/* A tiny expression evaluator, built as a shared library for the demo. */
#ifndef DEMO_CALC_H
#define DEMO_CALC_H

long calc_eval(const char *expr);

#endif
