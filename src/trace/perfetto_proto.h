/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of Perfetto's trace format that export_perfetto.c writes:
 * field numbers and enum values, each from the .proto named above it, in
 * Perfetto's protos/perfetto/trace/ (tests/data/perfetto_min.proto says
 * the same in protobuf's own words, for protoc to check the output).
 */
#ifndef FNTRACE_PERFETTO_PROTO_H
#define FNTRACE_PERFETTO_PROTO_H

/* trace.proto: Trace */
#define TRACE_PACKET			1

/* trace_packet.proto: TracePacket */
#define PACKET_CLOCK_SNAPSHOT		6
#define PACKET_TIMESTAMP		8
#define PACKET_SEQUENCE_ID		10	/* trusted_packet_sequence_id */
#define PACKET_TRACK_EVENT		11
#define PACKET_INTERNED_DATA		12
#define PACKET_SEQUENCE_FLAGS		13
#define PACKET_TIMESTAMP_CLOCK_ID	58
#define PACKET_DEFAULTS			59	/* trace_packet_defaults */
#define PACKET_TRACK_DESCRIPTOR		60
#define PACKET_TASK_STATE		117	/* generic_kernel_task_state_event */
/* trace_packet.proto: TracePacket.SequenceFlags */
#define SEQ_INCREMENTAL_STATE_CLEARED	1

/* trace_packet_defaults.proto: TracePacketDefaults */
#define DEFAULTS_TRACK_EVENT		11	/* track_event_defaults */
#define DEFAULTS_TIMESTAMP_CLOCK_ID	58

/* clock_snapshot.proto: ClockSnapshot, ClockSnapshot.Clock */
#define SNAPSHOT_CLOCKS			1
#define CLOCK_ID			1
#define CLOCK_TIMESTAMP			2
#define CLOCK_IS_INCREMENTAL		3
/* ../common/builtin_clock.proto: the trace's clock, when none is said */
#define BUILTIN_CLOCK_BOOTTIME		6
/* clock_snapshot.proto: ids 64 to 127 are the sequence's own clocks */
#define SEQUENCE_CLOCK			64

/* track_event/track_descriptor.proto: TrackDescriptor */
#define TRACK_UUID			1
#define TRACK_PROCESS			3
#define TRACK_THREAD			4

/* track_event/process_descriptor.proto: ProcessDescriptor */
#define PROCESS_PID			1
#define PROCESS_NAME			6	/* process_name */

/* track_event/thread_descriptor.proto: ThreadDescriptor */
#define THREAD_PID			1
#define THREAD_TID			2
#define THREAD_NAME			5	/* thread_name */

/* track_event/track_event.proto: TrackEvent */
#define EVENT_DEBUG_ANNOTATIONS		4
#define EVENT_TYPE			9
#define EVENT_NAME_IID			10
#define EVENT_TRACK_UUID		11	/* TrackEventDefaults' too */
#define EVENT_NAME			23
#define EVENT_SOURCE_LOCATION_IID	34
/* track_event/track_event.proto: TrackEvent.Type */
#define TYPE_SLICE_BEGIN		1
#define TYPE_SLICE_END			2
#define TYPE_INSTANT			3

/* interned_data/interned_data.proto: InternedData */
#define INTERNED_EVENT_NAMES		2
#define INTERNED_SOURCE_LOCATIONS	4
/* track_event/track_event.proto: EventName */
#define EVENT_NAME_ENTRY_IID		1
#define EVENT_NAME_ENTRY_NAME		2

/* track_event/source_location.proto: SourceLocation */
#define SOURCE_IID			1
#define SOURCE_FILE_NAME		2
#define SOURCE_FUNCTION_NAME		3
#define SOURCE_LINE_NUMBER		4

/* track_event/debug_annotation.proto: DebugAnnotation */
#define ANNOTATION_UINT_VALUE		3
#define ANNOTATION_STRING_VALUE		6
#define ANNOTATION_NAME			10

/* generic_kernel/generic_task.proto: GenericKernelTaskStateEvent */
#define TASK_CPU			1
#define TASK_COMM			2
#define TASK_TID			3
#define TASK_STATE			4
/* generic_kernel/generic_task.proto: GenericKernelTaskStateEvent.TaskStateEnum */
#define TASK_STATE_RUNNABLE		2
#define TASK_STATE_RUNNING		3
#define TASK_STATE_INTERRUPTIBLE_SLEEP	4
#define TASK_STATE_UNINTERRUPTIBLE_SLEEP 5
#define TASK_STATE_STOPPED		6
#define TASK_STATE_DEAD			7

#endif
