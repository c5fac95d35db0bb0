#!/bin/sh
# Print C source for the start-up benchmark (bench/startup.sh):
#   gen-sites.sh LO HI    functions f<LO> ... f<HI-1>, small and distinct
#   gen-sites.sh main     a main() that returns at once
# Every function is global, so the linker keeps it: each is a call site
# the runtime finds, checks and may patch, though none ever runs.
set -eu
export LC_ALL=C

if [ "$1" = main ]; then
	echo "int main(void) { return 0; }"
	exit 0
fi
awk -v lo="$1" -v hi="$2" 'BEGIN {
	for (i = lo; i < hi; i++)
		printf "unsigned f%d(unsigned x) { return x * %d + 1; }\n", i, i
}'
