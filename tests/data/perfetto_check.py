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
  instants N                    instant events with an interned name
  names NAME,...                every interned function name, sorted
  marker TID TEXT               a named instant (trace_marker, lost)
  annotation NAME               a debug annotation's name, once each
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
    def __init__(self, track):
        self.track = track
        self.names = {}         # iid -> name
        self.depth = 0
        self.last_time = 0


errors = []


def error(what):
    errors.append(what)


def main():
    tree = parse(sys.stdin)
    tracks = {}                 # uuid -> tid
    threads = []
    sequences = {}
    all_names = set()
    annotations = set()
    slices = instants = 0
    markers = []

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
            if get(packet, "sequence_flags") != "1":
                error(f"sequence {seq_id} does not start SEQ_INCREMENTAL_STATE_CLEARED")
            defaults = get(get(packet, "trace_packet_defaults", []), "track_event_defaults", [])
            track = int(get(defaults, "track_uuid", "0"))
            if tracks.get(track) is None:
                error(f"sequence {seq_id}: default track {track} is no thread's")
            seq = sequences[seq_id] = Sequence(track)
        elif get(packet, "sequence_flags") is not None:
            error(f"sequence {seq_id} cleared again")

        time = int(get(packet, "timestamp", "0"))
        if time < seq.last_time:
            error(f"sequence {seq_id}: time goes back from {seq.last_time} to {time}")
        seq.last_time = time

        for entry in every(get(packet, "interned_data", []), "event_names"):
            iid, name = int(get(entry, "iid")), get(entry, "name")
            if iid in seq.names:
                error(f"sequence {seq_id}: iid {iid} interned twice")
            seq.names[iid] = name
            all_names.add(name)

        event = get(packet, "track_event")
        if event is None:
            error(f"sequence {seq_id}: a packet with no event")
            continue
        if get(event, "track_uuid") is not None:
            error(f"sequence {seq_id}: an event names its track, the default does")
        for a in every(event, "debug_annotations"):
            annotations.add(get(a, "name"))
        iid = get(event, "name_iid")
        if iid is not None and int(iid) not in seq.names:
            error(f"sequence {seq_id}: name_iid {iid} not interned before")
        kind = get(event, "type")
        if kind == "TYPE_SLICE_BEGIN":
            if iid is None:
                error(f"sequence {seq_id}: a slice without a name_iid")
            seq.depth += 1
            slices += 1
        elif kind == "TYPE_SLICE_END":
            seq.depth -= 1
            if seq.depth < 0:
                error(f"sequence {seq_id}: an end without its begin")
        elif kind == "TYPE_INSTANT" and iid is not None:
            instants += 1
        elif kind == "TYPE_INSTANT" and get(event, "name") is not None:
            markers.append(f"marker {tracks[seq.track]} {get(event, 'name')}")
        else:
            error(f"sequence {seq_id}: an event of type {kind} without a name")

    for seq_id, seq in sequences.items():
        if seq.depth:
            error(f"sequence {seq_id}: {seq.depth} slices never end")
    for line in threads:
        print(line)
    print("slices", slices)
    print("instants", instants)
    print("names", ",".join(sorted(all_names)))
    for line in markers:
        print(line)
    for a in sorted(annotations):
        print("annotation", a)
    for e in errors[:20]:
        print("ERROR:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
