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

# The data directory's text files (tests/fuzz/fuzz_datadir.c): its seeds
# and the inputs it once found failing.
make -s -C "$top" BUILD="$BUILD" "$BUILD/fuzz/fuzz_datadir" >build.log 2>&1 ||
	{ t_fail "fuzz regressions: build the data directory fuzz target" "$(tail -n 2 build.log)"; return 0; }
for input in "$top"/tests/fuzz/datadir-seeds/* "$top"/tests/fuzz/datadir-regressions/*.bin; do
	name=$(basename "$input")
	"$BUILD/fuzz/fuzz_datadir" "$input" >run.log 2>&1
	t_eq "data directory fuzz input $name: runs clean" 0 "$?"
done
