# The profiler counts the functions of a module loaded after it started,
# even when the module's records need more count blocks than there were
# (a block holds 4096 records; the library below has 5000 functions).

awk 'BEGIN { for (i = 0; i < 4999; i++) printf "long gen_%d(long x) { return x + %d; }\n", i, i
	print "long gen_last(long x) { return x * 2; }" }' >gen.c
$(t_cc gcc) -O0 -pg -fPIC -shared -o libgen.so gen.c
t_build gcc-pg -O2 dl_late "$top/tests/progs/dl_late.c"
mkdir -p sync

"$FNTRACE" run -- ./dl_late "$PWD/libgen.so" "$PWD/sync" >out.txt 2>run.err &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl $pid function_profile_enabled 1
touch sync/go
for i in $(seq 100); do [ -e sync/done ] && break; sleep 0.1; done
"$FNTRACE" ctl $pid trace_stat/function >stat.txt
touch sync/stop
wait $pid
t_eq "profile, late module: the program ran" "9900" "$(cat out.txt)"
t_eq "profile, late module: every call of gen_last counted" "100" \
	"$(awk '$1 == "gen_last" { print $2 }' stat.txt)"
