# Inputs the fuzzers once found failing (tests/fuzz/regressions/): the
# fuzz target, built with ASan and UBSan, runs each once, and must not
# report anything.

make -s -C "$top" BUILD="$BUILD" "$BUILD/fuzz/fuzz_recordmcount" >build.log 2>&1 ||
	{ t_fail "fuzz regressions: build the fuzz target" "$(tail -n 2 build.log)"; return 0; }
for input in "$top"/tests/fuzz/regressions/*.bin; do
	name=$(basename "$input" .bin)
	"$BUILD/fuzz/fuzz_recordmcount" "$input" >run.log 2>&1
	t_eq "fuzz regression $name: runs clean" 0 "$?"
done

# The same for the trace fuzzer (tests/fuzz/fuzz_trace.c): damaged
# trace.dat files once read out of bounds.
make -s -C "$top" BUILD="$BUILD" "$BUILD/fuzz/fuzz_trace" >build.log 2>&1 ||
	{ t_fail "fuzz regressions: build the trace fuzz target" "$(tail -n 2 build.log)"; return 0; }
for input in "$top"/tests/fuzz/trace-regressions/*.dat; do
	name=$(basename "$input" .dat)
	"$BUILD/fuzz/fuzz_trace" "$input" >run.log 2>&1
	t_eq "trace fuzz regression $name: runs clean" 0 "$?"
done
