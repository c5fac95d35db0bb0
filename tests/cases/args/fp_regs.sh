# The hooks run where a traced function's floating-point arguments (on
# entry) and return value (on return) are live: nothing they call may
# touch those registers.  libc's string functions may: their SSE2
# variants, which glibc picks on a CPU without AVX2, set xmm0.  So the
# program runs with glibc told to use those variants, under both tracers,
# with a buffer small enough that the runtime, with no recorder, reuses
# (and zeroes) a chunk every few thousand calls.

t_build gcc-pg -O2 fp_keep "$top/tests/progs/fp_keep.c"
sse2=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX2,-AVX

GLIBC_TUNABLES=$sse2 "$FNTRACE" run -- ./fp_keep 3 >run.out 2>run.err &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl $pid buffer_size_kb 16
"$FNTRACE" ctl $pid current_tracer function_graph
sleep 1.2
"$FNTRACE" ctl $pid current_tracer function
wait $pid
t_eq "run, overwriting a small buffer: FP arguments and return values kept" \
	"fp kept" "$(cat run.out)"

GLIBC_TUNABLES=$sse2 "$FNTRACE" record -o r.data -- ./fp_keep 1 >rec.out 2>/dev/null
t_eq "record: FP arguments and return values kept" "fp kept" "$(cat rec.out)"
"$FNTRACE" report -i r.data >r.txt
t_ok "record: mix() and halve() were traced" sh -c "grep -q 'mix();' r.txt && grep -q 'halve();' r.txt"
