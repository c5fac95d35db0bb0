# recordmcount and section groups (x86_64): "grp" is a COMDAT function, as
# a C++ inline function would be; every object that includes this file
# has a copy and the linker keeps one group.  The __mcount_loc of its
# section must join the group, or the table of a dropped copy would be
# left pointing at nothing.
	.section .text.grp,"axG",@progbits,grp,comdat
	.globl	grp
	.type	grp, @function
grp:
	push	%rbp
	mov	%rsp, %rbp
	call	mcount@PLT
	mov	%edi, %eax
	pop	%rbp
	ret
	.size	grp, .-grp
	.section .note.GNU-stack,"",@progbits
