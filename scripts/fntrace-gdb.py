# fntrace's help for gdb: backtraces through graph-traced frames.
#
#   (gdb) source /path/to/fntrace-gdb.py
#
# While the function_graph tracer (or the profiler) runs, a traced
# function's return address is return_to_handler, and the real one waits on
# the thread's shadow stack.  The kernel's unwinders ask ftrace for it
# (ftrace_graph_ret_addr); gdb asks this unwinder, which reads the shadow
# stack through libfntrace.so's debug information:
#
#   - a frame at return_to_handler, whose stack pointer is just above the
#     slot the return came from, unwinds to the real return address;
#   - a frame filter hides that frame, so that `bt` shows the program's
#     own frames only.
#
# x86_64: the slot is at sp - 8, the pc is rip.

import gdb
from gdb.unwinder import Unwinder, register_unwinder


def _return_to_handler():
    try:
        return int(gdb.parse_and_eval("(unsigned long)&return_to_handler"))
    except gdb.error:
        return None  # libfntrace.so is not loaded, or has no symbols


def _find_frame(stack, depth, slot):
    for i in range(depth - 1, -1, -1):
        if int(stack[i]["retp"]) == slot:
            return int(stack[i]["ret"])
    return None


def _real_return(slot):
    """The real return address of the shadow frame whose slot is slot:
    on the stack of the signal context (a handler that interrupted the
    tracer, whose frames are the newest), else on the thread's own."""
    try:
        thread = gdb.parse_and_eval("ft_current")
        if int(thread) == 0:
            return None
        real = _find_frame(thread["signal_stack"], int(thread["signal"]["depth"]), slot)
        if real is None:
            real = _find_frame(thread["stack"], int(thread["own"]["depth"]), slot)
        return real
    except gdb.error:
        pass
    return None


class _FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class FntraceUnwinder(Unwinder):
    """return_to_handler stands for the traced function's real caller."""

    def __init__(self):
        super().__init__("fntrace")

    def __call__(self, pending):
        handler = _return_to_handler()
        pc = int(pending.read_register("rip"))
        if handler is None or pc != handler:
            return None
        sp = int(pending.read_register("rsp"))
        real = _real_return(sp - 8)
        if real is None:
            return None
        # gdb wants the frame id as gdb.Values
        info = pending.create_unwind_info(
            _FrameId(pending.read_register("rsp"), pending.read_register("rip")))
        info.add_saved_register("rip", gdb.Value(real).cast(pending.read_register("rip").type))
        info.add_saved_register("rsp", pending.read_register("rsp"))
        info.add_saved_register("rbp", pending.read_register("rbp"))
        return info


class FntraceFrameFilter:
    """Leaves the return_to_handler frames out of backtraces."""

    def __init__(self):
        self.name = "fntrace"
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, frames):
        handler = _return_to_handler()
        for frame in frames:
            if handler is None or frame.inferior_frame().pc() != handler:
                yield frame


register_unwinder(None, FntraceUnwinder(), replace=True)
FntraceFrameFilter()
