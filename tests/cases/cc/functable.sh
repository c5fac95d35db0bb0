# __fntrace_funcs (src/sites/functable.h): the function of every site, as
# fntrace cc writes it beside __mcount_loc, read in place at start-up.
#  - each object gets a piece per text section, linked in its text's
#    order, with a PC-relative relocation per site;
#  - the runtime and fntrace list read the sites from it, with the names
#    the symbol table gives, and trace the expected graph;
#  - an image it does not describe whole (an object from gcc's own
#    -mrecord-mcount), or where it is damaged, is read from __mcount_loc,
#    with the same functions;
#  - a shared library reads it too.
# (Only gcc on x86 has -mrecord-mcount: the mixed image is built there.)

CC_FOR=$(t_cc gcc)
OBJCOPY=${T_ARCH:+$ARCH_TRIPLE-}objcopy
MAIN=$top/tests/progs/rmc_main.c
LIB=$top/tests/progs/rmc_lib.c
GRAPH=$top/tests/progs/graph.c

# ft_cc ARGS...: fntrace cc with this architecture's gcc.
ft_cc() {
	FNTRACE_CC=$CC_FOR "$FNTRACE" cc "$@"
}

# ft_source PROG [IMG]: where the runtime read IMG's (PROG's) sites from.
ft_source() {
	FNTRACE_DEBUG=1 "$FNTRACE" record -o "ft-$1.dir" -- "./$1" 2>&1 >/dev/null |
		sed -n "s|^fntrace: .*/${2:-$1}: [0-9]* call sites from ||p"
}

# ft_relocs OBJ SECTION: how many relocations apply to SECTION.
ft_relocs() {
	readelf -rW "$1" | sed -n "s/^Relocation section '\.rela\{0,1\}$2' .* contains \([0-9]*\) entr.*/\1/p"
}

# ft_list IMG: fntrace list's functions, sorted, on one line.
ft_list() {
	"$FNTRACE" list "$1" | sort | tr '\n' ' '
}

# ft_poke IMG OFFSET HEX: IMG's byte at OFFSET into its __fntrace_funcs
# becomes HEX, in a copy named IMG.bad.
ft_poke() {
	local at
	at=$(readelf -SW "$1" | awk '$2 == "__fntrace_funcs" { print $5 }')
	cp "$1" "$1.bad"
	printf "\\x$3" | dd of="$1.bad" bs=1 seek=$((0x$at + $2)) conv=notrunc status=none
}

ft_cc -O2 -c -o main.o "$MAIN" && ft_cc -O2 -c -o lib.o "$LIB"
t_ok "functable: an object has a piece, linked to its text" sh -c \
	"readelf -SW main.o | grep -Eq '__fntrace_funcs +PROGBITS .* AL(G)? '"
n=$(ft_relocs main.o __mcount_loc)
t_eq "functable: a relocation per site" "${n:-none}" "$(ft_relocs main.o __fntrace_funcs)"
t_ok "functable: PC-relative" sh -c "readelf -rW main.o | sed -n '/rel.\\{0,1\\}__fntrace_funcs/,/^\$/p' | grep -Eq 'PC|PREL'"

ft_cc -o prog main.o lib.o
t_eq "functable: the runtime reads the program's sites from it" "__fntrace_funcs" "$(ft_source prog)"
$OBJCOPY --remove-section __fntrace_funcs prog prog.plain
want=$(ft_list prog.plain)
t_eq "functable: list names what the symbol table does" "$want" "$(ft_list prog)"
t_eq "functable: without it, __mcount_loc" "__mcount_loc" "$(ft_source prog.plain)"

ft_cc -O2 -o graph "$GRAPH"
"$FNTRACE" record -o graph.dir -- ./graph >/dev/null 2>&1
"$FNTRACE" report -i graph.dir >graph.txt 2>&1
t_graph_calls graph.txt >calls.txt
t_same "functable: the graph is traced with its names" "$top/tests/progs/graph.expected" calls.txt

ft_poke prog 0 00
t_eq "functable: a damaged magic: read from __mcount_loc" "__mcount_loc" "$(ft_source prog.bad)"
t_eq "functable: ... with the same functions" "$want" "$(ft_list prog.bad)"
ft_poke prog 17 ff
t_eq "functable: a name outside its piece: read from __mcount_loc" "__mcount_loc" \
	"$(ft_source prog.bad)"
t_eq "functable: ... with the same functions" "$want" "$(ft_list prog.bad)"

# gcc's own table for one object: the pieces name fewer sites than
# __mcount_loc has, and the whole image is read from __mcount_loc.
if $CC_FOR -O2 -pg -mrecord-mcount -c -o lib-gcc.o "$LIB" 2>/dev/null &&
   readelf -SW lib-gcc.o | grep -q __mcount_loc; then
	ft_cc -o mixed main.o lib-gcc.o
	t_eq "functable: an object of gcc's own: __mcount_loc" "__mcount_loc" "$(ft_source mixed)"
	t_eq "functable: ... with every function" "$want" "$(ft_list mixed)"
fi

ft_cc -O2 -fPIC -shared -o libft.so "$LIB"
ft_cc -O2 -c -o use.o "$MAIN" && ft_cc -o use use.o -L. -lft -Wl,-rpath,"$PWD"
t_eq "functable: a shared library reads it too" "__fntrace_funcs" "$(ft_source use libft.so)"
