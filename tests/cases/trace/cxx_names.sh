# C++ functions are taken by the names people write (helper, Gen::next,
# Box<int>::get, globs over them) and by their symbols (_Z6helperi), by
# record -F/-N, ctl's filter files and report -F alike.

t_build g++-pg -O2 cx "$top/tests/progs/cxx_names.cpp"

# hits DIR [REPORT ARGS]: "name,hits" of every function the profile has.
hits() {
	d=$1; shift
	"$FNTRACE" report -i "$d" --stat --csv "$@" | tail -n +2 | cut -d, -f1,2 | sort | tr '\n' ' '
}

for f in helper _Z6helperi 'help*'; do
	"$FNTRACE" record -F "$f" -o "r" -- ./cx >/dev/null 2>&1
	t_eq "record -F '$f'" "helper,5 " "$(hits r)"
done
"$FNTRACE" record -F 'Gen::next' -o r -- ./cx >/dev/null 2>&1
t_eq "record -F 'Gen::next'" "Gen::next,5 " "$(hits r)"
"$FNTRACE" record -F 'Box<int>::get' -o r -- ./cx >/dev/null 2>&1
t_eq "record -F 'Box<int>::get'" "Box<int>::get,5 " "$(hits r)"
"$FNTRACE" record -F 'Gen::*' -F 'Box*' -o r -- ./cx >/dev/null 2>&1
t_eq "record -F 'Gen::*' -F 'Box*'" "Box<int>::get,5 Gen::next,5 " "$(hits r)"
"$FNTRACE" record -N helper -N 'Gen::next' -o r -- ./cx >/dev/null 2>&1
t_eq "record -N by names" "Box<int>::get,5 main,1 " "$(hits r)"

"$FNTRACE" record -o all -- ./cx >/dev/null 2>&1
for f in helper _Z6helperi; do
	t_eq "report -F '$f'" "helper,5 " "$(hits all -F "$f")"
done
t_eq "report -F '_ZN3Gen*'" "Gen::next,5 " "$(hits all -F '_ZN3Gen*')"

# ctl: the filter file takes the written name, and says what it selected.
cat >slow.cpp <<'C'
#include <string>
#include <unistd.h>
struct Gen { int v; __attribute__((noinline)) int next() { return ++v; } };
__attribute__((noinline)) int helper(int x) { return x * 2; }
int main() { Gen g{0}; std::string s; for (int i = 0; i < 200; i++) { s = std::to_string(helper(g.next())); usleep(20000); } return s.empty(); }
C
t_build g++-pg -O2 slow slow.cpp
"$FNTRACE" run -- ./slow >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" set_ftrace_filter 'Gen::next' 2>err.txt
t_eq "ctl set_ftrace_filter 'Gen::next': taken" "0 " "$? $(cat err.txt)"
t_eq "ctl set_ftrace_filter reads back the symbol" "_ZN3Gen4nextEv" "$("$FNTRACE" ctl "$pid" set_ftrace_filter)"
"$FNTRACE" ctl "$pid" set_ftrace_filter 'NoSuch::thing' 2>err.txt
t_eq "ctl set_ftrace_filter 'NoSuch::thing': refused" 1 "$?"
kill "$pid"; wait
