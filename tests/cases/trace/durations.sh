# Durations are right on every architecture: a call that sleeps 100 ms
# is reported as lasting that (less a 10% margin for the clock samples'
# error on a loaded machine), and not ten times more.  The
# events carry the program's own clock ticks; the recorder converts them
# with the runtime's own samples of that clock (ft_shm_clock), as its
# own clock is another under qemu-user (aarch64's counter ran 33 times
# slower than the host's: 6 ms reported for 200).

t_build gcc-pg -O2 nap "$top/tests/progs/nap.c"
"$FNTRACE" record -o nap.data -- ./nap 2>rec.err
t_eq "durations: recorded" 0 "$?"
"$FNTRACE" report -i nap.data >nap.txt 2>&1
# The duration column of nap()'s lines, in microseconds.
cut -d'|' -f2,3 nap.txt | awk -F'|' '$2 ~ /nap\(\);/ { gsub(/[^0-9.]/, "", $1); print $1 }' >us.txt
t_eq "durations: both calls reported" 2 "$(wc -l <us.txt)"
t_eq "durations: each between 90 and 1000 ms" "" \
	"$(awk '$1 < 90000 || $1 > 1000000' us.txt | tr '\n' ' ')"
