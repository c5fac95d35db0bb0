# Which of an architecture's cases cannot run on this machine, and why
# (sourced by tests/cases/arch/cross.sh and tests/stress.sh).  Only an emulated
# architecture leaves cases out; tests/arch/ARCH.sh names them
# (arch_emulated_skip) and gives the reason (arch_emulated_why).

# arch_left_out ARCH: the cases left out, on one line.
arch_left_out() {
	echo $(. "$top/tests/arch/$1.sh"
		[ -z "${ARCH_EMULATED:-}" ] || ! command -v arch_emulated_skip >/dev/null ||
			arch_emulated_skip)
}

# arch_left_out_why ARCH CASE: one line.
arch_left_out_why() {
	(. "$top/tests/arch/$1.sh"; arch_emulated_why "$2")
}
