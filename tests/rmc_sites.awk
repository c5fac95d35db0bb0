# The mcount call sites of `objdump -dr` output, found from the text of
# the disassembly alone: an independent check of fntrace-recordmcount.
#   awk -v arch=ARCH -v mode=obj|image -f rmc_sites.awk
# ARCH: x86_64 i386 aarch64 riscv64 mips.  Prints one site per line:
#   obj:   SECTION+0xOFFSET FUNCTION   (the format of --list)
#   image: ADDRESS FUNCTION            (hex, as objdump prints it)
# A site is a relocation against mcount, _mcount or __fentry__ on a call
# instruction; mips sites begin at the "addiu sp,sp,-8" before the call if
# there is one there.

function calltype(t) {
	if (arch == "x86_64") return t ~ /^R_X86_64_(PLT32|PC32|GOTPCRELX|GOTPCREL)$/
	if (arch == "i386") return t ~ /^R_386_(PC32|PLT32|GOT32X|GOT32)$/
	if (arch == "aarch64") return t == "R_AARCH64_CALL26"
	if (arch == "riscv64") return t ~ /^R_RISCV_(CALL_PLT|CALL|JAL)$/
	if (arch == "mips") return t ~ /^R_MIPS_(26|CALL16|JALR)$/
	return 0
}

# The address of the site, or "" if the instruction is no call.
function site(t) {
	if (arch ~ /^(x86_64|i386)$/) return insn ~ /^call/ ? addr : ""
	if (arch == "aarch64") return insn ~ /^bl\t/ ? addr : ""
	if (arch == "riscv64") return insn ~ /^(auipc|jal)\t/ ? addr : ""
	# mips: the site begins at the stack adjustment when it precedes the
	# call (gcc PIC, gcc -O0), else at the call (its delay slot adjusts).
	# (clang: "jalr t9" is the call; gcc PIC's "jalr t9" follows the lw.)
	if (t == "R_MIPS_26" && insn !~ /^jal\t/) return ""
	if (t == "R_MIPS_CALL16" && insn !~ /^lw\tt9,/) return ""
	if (t == "R_MIPS_JALR" && (insn !~ /^jalr\tt9$/ || previnsn ~ /^lw\tt9,/)) return ""
	if (previnsn ~ /^addiu\tsp,sp,-8$/) return prevaddr
	if (t == "R_MIPS_JALR") pending = addr	# a site if its delay slot adjusts sp
	return t == "R_MIPS_26" ? addr : ""
}

/^Disassembly of section / { sec = $4; sub(/:$/, "", sec); next }
# Function headers; riscv objects keep local labels (.L*): not functions.
/^[0-9a-f]+ <.*>:$/ { if ($2 !~ /^<\.L/) { func = $2; gsub(/^<|>:$/, "", func) }; next }
/^\t+[0-9a-f]+: R_/ {
	sym = $3
	sub(/[-+@].*$/, "", sym)
	if (sym !~ /^(mcount|_mcount|__fentry__)$/ || !calltype($2)) next
	s = site($2)
	if (s == "") next
	if (mode == "obj") printf "%s+0x%s %s\n", sec, s, func
	else printf "%s %s\n", s, func
	next
}
/^ *[0-9a-f]+:\t/ {
	n = split($0, f, "\t")
	if (n < 3) next		# an x86 instruction's second line of bytes
	prevaddr = addr; previnsn = insn
	addr = f[1]; gsub(/[ :]/, "", addr)
	insn = f[3]
	for (i = 4; i <= n; i++) insn = insn "\t" f[i]
	if (pending != "" && insn ~ /^addiu\tsp,sp,-8$/) {
		if (mode == "obj") printf "%s+0x%s %s\n", sec, pending, func
		else printf "%s %s\n", pending, func
	}
	pending = ""
}
