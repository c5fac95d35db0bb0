#!/bin/sh
# gen_many_funcs.sh N OUT.c [lib]: N small functions f0 .. f<N-1>, for
# timing start-up against the number of call sites (bench/startup.sh) and
# for the test of the lazy start (tests/cases/cc/startup.sh).  Each does a
# little arithmetic on a global, so that -O2 keeps it a function of its
# own; a table keeps them all, so the linker cannot drop any.  A program's
# main() calls only three; with "lib", there is no main() and the table
# and its length (many_count) are the library's interface.
set -eu
n=${1:?count}
out=${2:?output .c}
awk -v n="$n" -v lib="${3:-}" 'BEGIN {
	print "volatile int sink;"
	for (i = 0; i < n; i++)
		printf "__attribute__((noinline)) int f%d(int x) { sink += x; return x * %d + 1; }\n", i, i % 97 + 1
	print "int (*const many_table[])(int) = {"
	for (i = 0; i < n; i++)
		printf "\tf%d,\n", i
	print "};"
	printf "const int many_count = %d;\n", n
	if (lib)
		exit
	print "int main(int argc, char **argv)"
	print "{"
	print "\t(void)argv;"
	print "\treturn (many_table[0](argc) + many_table[1](argc) + many_table[2](argc)) == 0;"
	print "}"
}' > "$out"
