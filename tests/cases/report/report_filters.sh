# fntrace report's filters and columns: -F, -N, -D, --min-duration,
# --time-range, --sort and -O, on a program whose call tree and slow call
# are known (tests/progs/report_filters.c: slow() spins 20 ms, every other
# call returns at once; noted() writes a marker).

t_build gcc-pg -O2 prog "$top/tests/progs/report_filters.c"
"$FNTRACE" record -o g.data -- ./prog >/dev/null 2>&1
"$FNTRACE" record -t function -o f.data -- ./prog >/dev/null 2>&1
"$FNTRACE" record -r -o r.data -- ./prog >/dev/null 2>&1

# calls_of DIR OPTION...: the function column of report with OPTIONs.
calls_of() {
	dir=$1; shift
	"$FNTRACE" report -i "$dir" "$@" >calls.txt 2>/dev/null
	t_graph_calls calls.txt
}

# graph NAME WANT OPTION...: the function column of report with OPTIONs.
graph() {
	name=$1 want=$2; shift 2
	"$FNTRACE" report -i g.data "$@" >out.txt 2>err.txt
	t_graph_calls out.txt >got.txt
	if [ -n "$want" ]; then printf '%s\n' "$want" >want.txt; else : >want.txt; fi
	t_same "$name" want.txt got.txt
}

graph "no option: the whole tree" 'main() {
  outer() {
    middle() {
      fast();
      slow() {
        fast();
      } /* slow */
    } /* middle */
    noted() {
      /* in noted */
    } /* noted */
    fast();
  } /* outer */
} /* main */'

# -F: only the matching functions, nested among themselves; the marker
# stays, at the depth of what is shown around it.
graph "-F: one function, its callees gone" 'slow();
/* in noted */' -F slow
graph "-F: two functions nest as they nest" 'outer() {
  slow();
  /* in noted */
} /* outer */' -F outer -F slow
graph "-F: a glob less a removal, :mod: of the program" 'main() {
  middle() {
    slow();
  } /* middle */
  /* in noted */
} /* main */' -F 'm*' -F '*:mod:prog' -F '!fast' -F '!outer' -F '!noted'
graph "-F: :mod: of an absent module keeps the marker only" '/* in noted */' \
	-F '*:mod:libnothing'

# -N: hides the function and only it: its callees move up a level.
graph "-N: a leaf" 'main() {
  outer() {
    middle() {
      slow();
    } /* middle */
    noted() {
      /* in noted */
    } /* noted */
  } /* outer */
} /* main */' -N fast
graph "-N: a parent, its callees one level up" 'main() {
  outer() {
    fast();
    slow() {
      fast();
    } /* slow */
    noted() {
      /* in noted */
    } /* noted */
    fast();
  } /* outer */
} /* main */' -N middle

# -D: frames deeper than N shown levels are hidden, markers are not.
graph "-D: two levels" 'main() {
  outer() {
    /* in noted */
  } /* outer */
} /* main */' -D 2
graph "-D: counted among the functions -F keeps" 'main() {
  outer() {
    middle();
    noted() {
      /* in noted */
    } /* noted */
  } /* outer */
} /* main */' -F '!fast' -D 3
graph "-D 0: no limit" "$(calls_of g.data)" -D 0

# --min-duration: only slow and its callers last 10 ms (a margin for a
# loaded machine); the marker is in a short call, so it comes at the
# depth of what was printed.
graph "--min-duration: the slow path" 'main() {
  outer() {
    middle() {
      slow();
    } /* middle */
    /* in noted */
  } /* outer */
} /* main */' --min-duration 10ms
graph "--min-duration: in ns" "$(calls_of g.data --min-duration 10ms)" \
	--min-duration 10000000
graph "--min-duration: longer than the program" '/* in noted */' --min-duration 10s
"$FNTRACE" report -i g.data --min-duration 10ms -O noproc -O nocpu >md.txt
t_ok "--min-duration: slow's line has its duration" \
	grep -Eq '^[*@$] +[0-9]{5,}\.[0-9]+ us +\|        slow\(\);$' md.txt

# --time-range: calls that overlap it.  A range inside slow's spin shows
# slow (a leaf: its callee comes after) and its callers, nothing else.
"$FNTRACE" report -i g.data -O abstime >abs.txt
# The abstime column in microseconds, on the line that enters $1.
entry_us() { sed -n "s/^ *\([0-9]*\)\.\([0-9]*\) .*$1() {\$/\1\2/p" abs.txt; }
main_us=$(entry_us main)
slow_us=$(entry_us slow)
inside='main() {
  outer() {
    middle() {
      slow();
    } /* middle */
  } /* outer */
} /* main */'
graph "--time-range: absolute seconds inside slow" "$inside" --time-range \
	"$(awk -v t="$slow_us" 'BEGIN { printf "%.6f~%.6f", (t + 5000) / 1e6, (t + 10000) / 1e6 }')"
graph "--time-range: the same, after the first event" "$inside" --time-range \
	"$((slow_us - main_us + 5000))us~$((slow_us - main_us + 10000))us"
graph "--time-range: the first instant" 'main();' --time-range 0~0
graph "--time-range: after the end" '' --time-range 1s~
graph "--time-range: open start" "$(calls_of g.data)" --time-range ~1s

# -O: the kernel's funcgraph options.
"$FNTRACE" report -i g.data -O abstime >o.txt
t_eq "-O abstime: the header" \
	"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS" \
	"$(sed -n 3p o.txt)"
t_ok "-O abstime: every line starts with seconds.micros" \
	sh -c "! grep -v '^#' o.txt | grep -Evq '^ *[0-9]+\\.[0-9]{6} \\|   [0-9]+\\) '"
"$FNTRACE" report -i g.data -O nocpu -O noproc -O noduration -O notail >o.txt
printf '%s\n' '# tracer: function_graph' '#' '#               FUNCTION CALLS' \
	'#               |   |   |   |' 'main() {' '  outer() {' '    middle() {' \
	'      fast();' '      slow() {' '        fast();' '      }' '    }' \
	'    noted() {' '      /* in noted */' '    }' '    fast();' '  }' '}' >want.txt
grep -v '^# program' o.txt >got.txt
t_same "-O: no cpu, proc, duration or tail" want.txt got.txt
t_ok "-O retval: on by default when recorded" \
	sh -c "\"$FNTRACE\" report -i r.data | grep -q '} /\\* middle = 0x'"
t_eq "-O noretval" 0 "$("$FNTRACE" report -i r.data -O noretval | grep -c ' = 0x')"
t_ok "-O notail keeps the return value" \
	sh -c "\"$FNTRACE\" report -i r.data -O notail | grep -q '^.*|      } /\\* = 0x'"

# --stat and --csv count what the rules show, in --sort's order.
csv_names() { "$FNTRACE" report -i g.data --csv "$@" | sed 1d | cut -d, -f1 | tr '\n' ' '; }
t_eq "--sort hits,name" "fast main middle noted outer slow " "$(csv_names --sort hits,name)"
t_eq "--sort name" "fast main middle noted outer slow " "$(csv_names --sort name)"
t_eq "--sort self: slow spent the time" "slow" "$(csv_names --sort self | cut -d' ' -f1)"
t_eq "--stat --min-duration: the long calls" "main middle outer slow " \
	"$(csv_names --min-duration 10ms --sort name)"
t_eq "--stat -F: the hits of what is shown" "fast,3 slow,1 " \
	"$("$FNTRACE" report -i g.data --csv -F fast -F slow --sort name | sed 1d | cut -d, -f1,2 | tr '\n' ' ')"
t_eq "--stat -D 1: main only" "main " "$(csv_names -D 1)"

# The function tracer: -F picks calls, markers stay in place.
"$FNTRACE" report -i f.data -F fast >fn.txt
sed -n 's/.*[0-9]: //p' fn.txt >got.txt
printf '%s\n' 'fast <-middle' 'fast <-slow' 'tracing_mark_write: in noted' 'fast <-outer' >want.txt
t_same "function: -F fast, the marker in place" want.txt got.txt
t_ok "function: the header counts what is shown" \
	grep -q '^# entries-in-buffer/entries-written: 4/4 ' fn.txt
"$FNTRACE" report -i f.data -N fast >fn.txt
t_eq "function: -N fast" "main outer middle slow noted tracing_mark_write:" \
	"$(sed -n 's/.*[0-9]: \([a-z_:]*\).*/\1/p' fn.txt | tr '\n' ' ' | sed 's/ $//')"

# Bad values: a usage error (exit 2, no output), said in one line and the
# hint.
expect_bad() {
	name=$1 pattern=$2; shift 2
	t_error "$name" 2 "^fntrace report: .*$pattern" "$FNTRACE" report -i g.data "$@"
}
expect_bad "bad --min-duration" "5parsecs" --min-duration 5parsecs
expect_bad "bad --time-range: end first" "3~1" --time-range 3~1
expect_bad "bad --time-range: no tilde" "2ms" --time-range 2ms
expect_bad "bad --sort" "bogus" --stat --sort bogus
expect_bad "bad -D" "-1" -D -1
expect_bad "bad -O" "nosuch" -O nosuch
expect_bad "bad -F" "bad filter" -F 'foo['
