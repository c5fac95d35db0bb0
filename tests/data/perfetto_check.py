#!/usr/bin/env python3
"""Checks a Perfetto trace written by `fntrace export --format perfetto`,
as `protoc --decode=perfetto_min.Trace tests/data/perfetto_min.proto`
prints it (read from standard input), against the rules of Perfetto's
TrackEvent format.  Says each broken rule on a line "ERROR: ..." and exits
1; otherwise prints what the trace holds, one fact a line, for the test to
compare with what it expects:

  process PID NAME              a process track
  thread PID TID NAME           a thread track
  slices N                      begin/end pairs
  backdated N                   packets on the trace's clock, before the
                                one before: whole calls' begins
                                (tracing_thresh), written at their exits
  located N                     slices with a source location
  instants N                    instant events with an interned name
  instant_times T,...           their times, in seconds to the microsecond
                                (rounded, as report prints them)
  names NAME,...                every interned function name, sorted
  marker TID TEXT               a named instant (trace_marker, lost)
  srcline NAME FILE:LINE        an interned source location, once each
  annotation NAME               a debug annotation's name, once each
  states TID S=N ...            a thread's GenericKernelTaskStateEvents,
                                counted by state (Running, R, S, D, T, Z)
  off TID NS STATE woken|unwoken
                                each time the thread's state track says it
                                was off the CPU, from its state after
                                Running (STATE) to the next Running, and
                                whether a wake-up made it Runnable meanwhile
  offslice TID NS STATE         each "off CPU: STATE" slice, its duration
                                (R+, preempted, as R: Runnable)

A thread's states must read as trace_processor's generic kernel importer
reads them: Running on a CPU, never twice in a row; a switch out (a state
with a CPU) on the CPU of the Running it ends; Runnable without a CPU (a
wake-up) only for a thread asleep; nothing after dead.
"""
import ast
import sys


def parse(lines):
    """protoc's text format as nested lists of (field, value) pairs."""
    root = []
    stack = [root]
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            child = []
            stack[-1].append((line[:-1].strip(), child))
            stack.append(child)
        else:
            key, value = line.split(":", 1)
            value = value.strip()
            if value.startswith('"'):
                value = ast.literal_eval(value)
            stack[-1].append((key, value))
    return root


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def every(msg, key):
    return [v for k, v in msg if k == key]


class Sequence:
    def __init__(self, track, time):
        self.track = track
        self.names = {}         # iid -> name
        self.locations = set()  # iids
        self.open = []          # the slices begun: (name, time)
        self.time = time        # of the last packet: timestamps are deltas


errors = []

TASK_STATES = {"TASK_STATE_RUNNABLE": "R", "TASK_STATE_RUNNING": "Running",
               "TASK_STATE_INTERRUPTIBLE_SLEEP": "S",
               "TASK_STATE_UNINTERRUPTIBLE_SLEEP": "D",
               "TASK_STATE_STOPPED": "T", "TASK_STATE_DEAD": "Z"}


class TaskStates:
    """One thread's state track, as its events build it."""
    def __init__(self):
        self.state = None
        self.cpu = None
        self.off_since = None
        self.left_in = None
        self.woken = False
        self.counts = {}
        self.offs = []

    def push(self, tid, time, state, cpu):
        self.counts[state] = self.counts.get(state, 0) + 1
        if self.state == "Z":
            error(f"thread {tid}: state {state} after dead")
        if state == "Running":
            if cpu is None or self.state == "Running":
                error(f"thread {tid}: Running {'twice' if cpu else 'without a CPU'}")
            if self.off_since is not None:
                self.offs.append(f"off {tid} {time - self.off_since} {self.left_in} "
                                 f"{'woken' if self.woken else 'unwoken'}")
            self.state, self.cpu, self.off_since, self.woken = state, cpu, None, False
            return
        if cpu is None:
            if state != "R" or self.state not in ("S", "D"):
                error(f"thread {tid}: {state} without a CPU after {self.state}")
            self.woken = True
        elif self.state is not None and (self.state != "Running" or cpu != self.cpu):
            error(f"thread {tid}: leaves CPU {cpu} after {self.state} on {self.cpu}")
        else:
            self.off_since, self.left_in = time, state
        self.state = state

SEQUENCE_CLOCK = "64"
BOOTTIME = "6"


def error(what):
    errors.append(what)


def start_sequence(seq_id, packet, tracks):
    """A sequence's first packet: state cleared, defaults set (the track,
    the sequence's clock of deltas), that clock tied to the trace's."""
    if get(packet, "sequence_flags") != "1":
        error(f"sequence {seq_id} does not start SEQ_INCREMENTAL_STATE_CLEARED")
    if get(packet, "track_event") is not None:
        error(f"sequence {seq_id}: an event in the packet that starts it")
    defaults = get(packet, "trace_packet_defaults", [])
    track = int(get(get(defaults, "track_event_defaults", []), "track_uuid", "0"))
    if tracks.get(track) is None:
        error(f"sequence {seq_id}: default track {track} is no thread's")
    if get(defaults, "timestamp_clock_id") != SEQUENCE_CLOCK:
        error(f"sequence {seq_id}: its clock is not its own")
    clocks = {get(c, "clock_id"): c for c in every(get(packet, "clock_snapshot", []), "clocks")}
    if set(clocks) != {BOOTTIME, SEQUENCE_CLOCK}:
        error(f"sequence {seq_id}: a snapshot of clocks {sorted(clocks)}")
        return Sequence(track, 0)
    own, trace = clocks[SEQUENCE_CLOCK], clocks[BOOTTIME]
    if get(own, "is_incremental") != "true" or get(trace, "is_incremental") is not None:
        error(f"sequence {seq_id}: not a clock of deltas tied to the trace's")
    if get(own, "timestamp") != get(trace, "timestamp"):
        error(f"sequence {seq_id}: its clock starts elsewhere than the trace's")
    return Sequence(track, int(get(own, "timestamp")))


def main():
    tree = parse(sys.stdin)
    tracks = {}                 # uuid -> tid
    threads = []
    sequences = {}
    all_names = set()
    annotations = set()
    srclines = set()
    slices = instants = located = backdated = 0
    instant_times = []
    markers = []
    task_states = {}            # tid -> TaskStates
    offslices = []

    for packet in every(tree, "packet"):
        for key, _ in packet:
            if key[0].isdigit():
                error(f"a field the format does not name: {key}")
        seq_id = int(get(packet, "trusted_packet_sequence_id", "0"))
        if seq_id == 0:
            error("a packet without trusted_packet_sequence_id")
        desc = get(packet, "track_descriptor")
        if desc is not None:
            uuid = int(get(desc, "uuid", "0"))
            if uuid in tracks:
                error(f"track uuid {uuid} described twice")
            proc, thread = get(desc, "process"), get(desc, "thread")
            if proc is not None:
                tracks[uuid] = None
                print("process", get(proc, "pid"), get(proc, "process_name"))
            if thread is not None:
                tracks[uuid] = int(get(thread, "tid"))
                threads.append(" ".join(["thread", get(thread, "pid"), get(thread, "tid"),
                                         get(thread, "thread_name")]))
            continue

        seq = sequences.get(seq_id)
        if seq is None:
            sequences[seq_id] = start_sequence(seq_id, packet, tracks)
            continue
        if get(packet, "sequence_flags") is not None:
            error(f"sequence {seq_id} cleared again")
        clock = get(packet, "timestamp_clock_id")
        if clock is None:
            seq.time += int(get(packet, "timestamp", "0"))
        elif clock != BOOTTIME or int(get(packet, "timestamp", "0")) >= seq.time:
            error(f"sequence {seq_id}: time on clock {clock}, at {get(packet, 'timestamp')}, "
                  "is not a whole call's begin")
        else:
            backdated += 1

        for entry in every(get(packet, "interned_data", []), "event_names"):
            iid, name = int(get(entry, "iid")), get(entry, "name")
            if iid in seq.names:
                error(f"sequence {seq_id}: iid {iid} interned twice")
            seq.names[iid] = name
            all_names.add(name)
        for entry in every(get(packet, "interned_data", []), "source_locations"):
            iid = int(get(entry, "iid"))
            if iid in seq.locations:
                error(f"sequence {seq_id}: source location {iid} interned twice")
            seq.locations.add(iid)
            srclines.add(f"srcline {get(entry, 'function_name')} "
                         f"{get(entry, 'file_name')}:{get(entry, 'line_number')}")

        task = get(packet, "generic_kernel_task_state_event")
        if task is not None:
            tid = int(get(task, "tid", "0"))
            if tid != tracks[seq.track]:
                error(f"sequence {seq_id}: the state of thread {tid}, not its own")
            state = TASK_STATES.get(get(task, "state"))
            if state is None:
                error(f"thread {tid}: state {get(task, 'state')}")
                continue
            cpu = get(task, "cpu")
            task_states.setdefault(tid, TaskStates()).push(tid, seq.time, state,
                                                           None if cpu is None else int(cpu))
            continue
        event = get(packet, "track_event")
        if event is None:
            error(f"sequence {seq_id}: a packet with no event")
            continue
        if get(event, "track_uuid") is not None:
            error(f"sequence {seq_id}: an event names its track, the default does")
        for a in every(event, "debug_annotations"):
            annotations.add(get(a, "name"))
        location = get(event, "source_location_iid")
        if location is not None and int(location) not in seq.locations:
            error(f"sequence {seq_id}: source_location_iid {location} not interned before")
        iid = get(event, "name_iid")
        if iid is not None and int(iid) not in seq.names:
            error(f"sequence {seq_id}: name_iid {iid} not interned before")
        kind = get(event, "type")
        if kind == "TYPE_SLICE_BEGIN":
            if iid is None:
                error(f"sequence {seq_id}: a slice without a name_iid")
            seq.open.append((seq.names.get(int(iid or 0)), seq.time))
            slices += 1
            located += location is not None
        elif kind == "TYPE_SLICE_END":
            if not seq.open:
                error(f"sequence {seq_id}: an end without its begin")
                continue
            name, begin = seq.open.pop()
            if name and name.startswith("off CPU: "):
                # Preempted (R+) is Runnable (R) in the thread's state.
                offslices.append(f"offslice {tracks[seq.track]} {seq.time - begin} "
                                 f"{name[9:].rstrip('+')}")
        elif kind == "TYPE_INSTANT" and iid is not None:
            instants += 1
            us = (seq.time + 500) // 1000
            instant_times.append(f"{us // 1000000}.{us % 1000000:06d}")
        elif kind == "TYPE_INSTANT" and get(event, "name") is not None:
            markers.append(f"marker {tracks[seq.track]} {get(event, 'name')}")
        else:
            error(f"sequence {seq_id}: an event of type {kind} without a name")

    for seq_id, seq in sequences.items():
        if seq.open:
            error(f"sequence {seq_id}: {len(seq.open)} slices never end")
    for line in threads:
        print(line)
    print("slices", slices)
    print("backdated", backdated)
    print("located", located)
    print("instants", instants)
    print("instant_times", ",".join(instant_times))
    print("names", ",".join(sorted(all_names)))
    for line in markers:
        print(line)
    for line in sorted(srclines):
        print(line)
    for a in sorted(annotations):
        print("annotation", a)
    for tid, t in sorted(task_states.items()):
        print("states", tid, " ".join(f"{s}={n}" for s, n in sorted(t.counts.items())))
        for line in t.offs:
            print(line)
    for line in offslices:
        print(line)
    for e in errors[:20]:
        print("ERROR:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
