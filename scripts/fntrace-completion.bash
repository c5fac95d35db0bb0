# bash completion for fntrace                               -*- shell-script -*-
#
# Installed as share/bash-completion/completions/fntrace (make install);
# or for one shell: . scripts/fntrace-completion.bash
#
# Completes the commands, each command's options, function names for the
# options that take them (-F, -N, -A, -R, --trigger), data directories
# for -i, control files and their values for 'fntrace ctl PID'.  Nothing
# is listed here that fntrace can say itself: the commands, options and
# control files are read from 'fntrace --help', 'fntrace CMD --help' and
# 'fntrace ctl --help' at each Tab, the functions from 'fntrace list
# PROG' (PROG being the program on the command line) or from a data
# directory's funcs-PID files, so that the completion is always the
# fntrace's it runs (docs/design.md, *Manual pages and completion*).

# The commands 'fntrace --help' lists.
_fntrace_commands()
{
	"$1" --help 2>/dev/null |
		awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }'
}

# The options 'fntrace CMD --help' lists, a line each: "NAME LONG VALUE",
# LONG the long name of the same option (or NAME), VALUE 1 if it takes
# one.  The table's lines are indented 2 to 6 blanks and start with '-';
# what follows two blanks is the description ("-t, --tracer=NAME    ...").
_fntrace_options()
{
	"$1" "$2" --help 2>/dev/null | sed -nE 's/^ {2,6}(-.*)/\1/p' | sed -E 's/  .*//' |
		awk '{
			spec = $0
			gsub(/, +/, ",", spec)
			value = spec ~ /[= ]/
			sub(/[= ].*/, "", spec)
			n = split(spec, names, ",")
			for (i = 1; i <= n; i++)
				print names[i], names[n], value
		}'
}

# The control files 'fntrace ctl --help' names: its indented list after
# "tracefs files:", each file's parenthesised note left out.
_fntrace_ctl_files()
{
	"$1" ctl --help 2>/dev/null | sed -n '/tracefs files:$/,/^[^ ]/p' | grep '^  ' |
		tr '\n' ' ' | sed 's/([^)]*)//g'
}

# The processes of ours with a control endpoint (fntrace run, attach):
# /tmp/fntrace-UID/PID, or the abstract @fntrace-UID/PID.
_fntrace_traced_pids()
{
	local pid
	for pid in $(awk -v u="fntrace-$(id -u)/" 'index($NF, u) { sub(/.*\//, "", $NF); print $NF }' \
			/proc/net/unix 2>/dev/null | sort -un); do
		[ -d "/proc/$pid" ] && echo "$pid"
	done
}

# The functions of a program (fntrace list), found as the shell would.
_fntrace_prog_functions()
{
	local prog=$2
	[[ $prog == */* ]] || prog=$(type -P -- "$prog") || return
	"$1" list "$prog" 2>/dev/null
}

# The functions of a data directory: its funcs-PID files' "func ID ADDR
# MODULE NAME" lines.
_fntrace_dir_functions()
{
	local f
	for f in "$1"/funcs-*; do
		[ -f "$f" ] && sed -n 's/^func [^ ]* [^ ]* [^ ]* //p' "$f"
	done | sort -u
}

# _fntrace_reply WORDS...: the words that begin with $cur, each after
# $prefix (what the word being completed has before its value).
_fntrace_reply()
{
	local IFS=$'\n'
	COMPREPLY+=($(compgen -P "$prefix" -W "$*" -- "$cur"))
}

_fntrace()
{
	local fntrace=${COMP_WORDS[0]/#\~/$HOME} cmd cur prefix= i word joined=0 cword
	local -a words=()

	COMPREPLY=()
	# The words as fntrace will see them: bash splits "--filter=ma" at
	# the '=' (COMP_WORDBREAKS), fntrace does not.  Completing after such
	# a '=', the word readline replaces is the value alone.
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		word=${COMP_WORDS[i]}
		if [[ $word == = && ${#words[@]} -gt 1 && ${words[-1]} == --* &&
		      ${words[-1]} != *=* ]]; then
			words[-1]+="="
			joined=1
		elif ((joined && i - 1 != COMP_CWORD)); then
			words[-1]+=$word
			joined=0
		else
			words+=("$word")
			joined=0
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	cur=${COMP_WORDS[COMP_CWORD]}
	[[ $cur == = ]] && cur=

	if ((cword == 1)); then
		_fntrace_reply $(_fntrace_commands "$fntrace") -h --help
		return 0
	fi
	cmd=${words[1]}
	case $cmd in cc|c++) return 0 ;; esac	# the compiler's arguments: files

	local opts option at_option at_operand input
	local -a operands
	opts=$(_fntrace_options "$fntrace" "$cmd")
	[ -n "$opts" ] || return 0
	_fntrace_parse
	if [ -n "$option" ]; then
		_fntrace_value "$option"
	elif ((at_option)); then
		_fntrace_reply $(awk '{ print $1 }' <<<"$opts")
	else
		_fntrace_operand "$at_operand"
	fi
	return 0
}

# The command line as fntrace's getopt reads it (options until the first
# operand or "--"), the words after the cursor too: the operands (the
# program, a pid), the data directory (-i), and what the word at the
# cursor is: the value of the option $option, an option (at_option), or
# operand number at_operand.
_fntrace_parse()
{
	local i word long takes value_of= options_end=0
	operands=() option= at_option=0 at_operand= input=fntrace.data
	for ((i = 2; i < ${#words[@]}; i++)); do
		word=${words[i]}
		if [ -n "$value_of" ]; then
			if ((i == cword)); then option=$value_of
			elif [[ $value_of == --input ]]; then input=$word; fi
			value_of=
			continue
		fi
		if ((!options_end)) && [[ $word == -?* || ($word == - && i -eq cword) ]]; then
			[[ $word == -- ]] && ((i != cword)) && { options_end=1; continue; }
			read -r _ long takes <<<"$(awk -v w="${word%%=*}" '$1 == w' <<<"$opts")"
			if [[ $word == --*=* ]]; then
				if ((i == cword)); then
					option=$long
					# Not split at '=': the word replaced is the whole.
					[[ ${COMP_WORDS[COMP_CWORD]} == --*=* ]] &&
						prefix=${word%%=*}= cur=${word#*=}
				elif [[ $long == --input ]]; then
					input=${word#*=}
				fi
			elif ((i == cword)); then
				at_option=1
			elif [[ $takes == 1 ]]; then
				value_of=$long
			fi
			continue
		fi
		((i == cword)) && at_operand=${#operands[@]}
		options_end=1
		operands+=("$word")
	done
}

# The value of an option: $option its long name.
_fntrace_value()
{
	local funcs
	case $1 in
	--filter|--notrace|--args|--return|--trigger)
		if [[ $cmd == report ]]; then
			funcs=$(_fntrace_dir_functions "$input")
		else
			funcs=$(_fntrace_prog_functions "$fntrace" "${operands[0]:-}")
		fi
		case $1 in
		--args|--return) _fntrace_funcs_then @ "$funcs" ;;
		--trigger) _fntrace_funcs_then : "$funcs" ;;
		*) if [[ $cur == '!'* ]]; then prefix+='!'; cur=${cur#!}; fi
		   _fntrace_reply "$funcs" ;;
		esac ;;
	--input) COMPREPLY=($(compgen -d -P "$prefix" -- "$cur")) ;;
	--tracer) _fntrace_reply function_graph function ;;
	--host) COMPREPLY=($(compgen -A hostname -P "$prefix" -S : -- "$cur"))
		compopt -o nospace 2>/dev/null ;;	# the port is the user's
	--pid) _fntrace_reply $(_fntrace_traced_pids) ;;
	esac
}

# FUNC then SEP, the rest of the value being the user's: no space after.
_fntrace_funcs_then()
{
	local sep=$1
	_fntrace_reply $(sed "s/\$/$sep/" <<<"$2")
	compopt -o nospace 2>/dev/null
}

# The operand number $1 (from 0) of $cmd.
_fntrace_operand()
{
	case $cmd:$1 in
	ctl:0|detach:0) _fntrace_reply $(_fntrace_traced_pids) ;;
	attach:0) _fntrace_reply $(ps -o pid= -u "$(id -u)" 2>/dev/null) ;;
	ctl:1) _fntrace_reply $(_fntrace_ctl_files "$fntrace") ;;
	ctl:2) _fntrace_ctl_value "${operands[0]}" "${operands[1]}" ;;
	esac
}

# A value for a control file: the functions the process has for its
# filters (a library's listed as "malloc [libc.so.6]", taken by its name
# alone), the tracers for current_tracer.
_fntrace_ctl_value()
{
	case $2 in
	set_ftrace_filter|set_ftrace_notrace|set_graph_function|set_graph_notrace)
		_fntrace_reply $("$fntrace" ctl -t 2 "$1" available_filter_functions 2>/dev/null |
				 awk '{ print $1 }' | sort -u) ;;
	current_tracer)
		_fntrace_reply $("$fntrace" ctl -t 2 "$1" available_tracers 2>/dev/null) ;;
	esac
}

complete -o bashdefault -o default -F _fntrace fntrace
