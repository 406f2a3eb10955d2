# bash completion for fsgauge -*- shell-script -*-
#
# Installed as share/bash-completion/completions/fsgauge.  Everything is
# read from the fsgauge being completed, so it cannot drift from it: the
# commands from `fsgauge --help`, the built-in workload names from
# `fsgauge list`, a command's options from `fsgauge COMMAND --help`
# (each read once per shell).

_fsgauge_cache_cmds=
declare -A _fsgauge_cache_opts 2>/dev/null || true

_fsgauge_commands()
{
	if [[ -z $_fsgauge_cache_cmds ]]; then
		_fsgauge_cache_cmds=$("$1" --help 2>/dev/null |
			sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
	fi
	printf '%s\n' "$_fsgauge_cache_cmds"
}

# The long and short options a command's help lists.
_fsgauge_options()
{
	local bin=$1 cmd=$2
	if [[ -z ${_fsgauge_cache_opts[$cmd]+set} ]]; then
		_fsgauge_cache_opts[$cmd]=$("$bin" "$cmd" --help 2>/dev/null |
			grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[ ,]*//' |
			sort -u)
	fi
	printf '%s\n' "${_fsgauge_cache_opts[$cmd]}"
}

_fsgauge()
{
	local cur prev bin cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	bin=${COMP_WORDS[0]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done

	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(_fsgauge_commands "$bin") --help --version" -- "$cur"))
		return
	fi

	case $prev in
	-d | --dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--json | -o | --tarball | -f)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--engine)
		COMPREPLY=($(compgen -W "psync io_uring libaio null faulty:" -- "$cur"))
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_fsgauge_options "$bin" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	run | show)
		# a built-in name or a workload file
		COMPREPLY=($(compgen -W "$("$bin" list 2>/dev/null | awk '{print $1}')" -- "$cur")
			$(compgen -f -X '!*.f' -- "$cur") $(compgen -d -- "$cur"))
		;;
	compare | report)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	help)
		COMPREPLY=($(compgen -W "$(_fsgauge_commands "$bin")" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _fsgauge fsgauge
