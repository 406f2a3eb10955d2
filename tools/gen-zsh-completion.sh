#!/bin/sh
# gen-zsh-completion.sh FSGAUGE VERSION > _fsgauge
#
# Writes the zsh completion of fsgauge from the binary's own texts, as
# gen-man.sh writes the manual page: the commands and their one-line
# descriptions from `fsgauge --help`, each command's options (with the
# argument each takes and the first clause of its description) from
# `fsgauge COMMAND --help`, the built-in workload names from `fsgauge
# list`, the engines from `fsgauge --version`, untar's synthetic trees
# from `fsgauge untar --help`.  Nothing is typed in twice, so the file
# cannot drift from the option tables; it is rebuilt with the binary.
#
# An option line of a help text is two spaces, an optional short option
# and comma, then the option, its argument (`--json FILE`, `-f[SIZE]`,
# `--progress[=WHEN]`) and, after two or more spaces or on the lines
# below (indented further), its description.
set -eu
bin=$1
version=$2

# a word for zsh, in single quotes
q() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

commands=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[ -n "$commands" ] || { echo "gen-zsh-completion.sh: no commands in '$bin --help'" >&2; exit 1; }
workloads=$("$bin" list)
[ -n "$workloads" ] || { echo "gen-zsh-completion.sh: '$bin list' lists nothing" >&2; exit 1; }
engines=$("$bin" --version | sed -n 's/^engines: *//p' | tr ' ' '\n' | grep -v '^faulty' | tr '\n' ' ')
synthetic=$("$bin" untar --help 2>/dev/null |
	sed -n '/^synthetic trees/,/^$/s/^  \([a-z][a-z0-9_-]*\)  .*/\1/p' | tr '\n' ' ')

cat <<HEAD
#compdef fsgauge
# zsh completion for fsgauge $version, generated from its help texts by
# tools/gen-zsh-completion.sh (do not edit: \`make\` writes it again).
# Installed as share/zsh/vendor-completions/_fsgauge.

HEAD

echo "(( \$+functions[_fsgauge_workloads] )) ||"
echo "_fsgauge_workloads() {"
echo "	local -a w"
echo "	w=("
printf '%s\n' "$workloads" | while read -r name desc; do
	printf '\t\t%s\n' "$(q "$name:$desc")"
done
echo "	)"
echo "	_describe -t workloads 'built-in workload' w"
echo "}"
echo
echo "(( \$+functions[_fsgauge_workload_or_file] )) ||"
echo "_fsgauge_workload_or_file() {"
echo "	_alternative 'workloads:built-in workload:_fsgauge_workloads' \\"
echo "		'files:workload file:_files -g \"*.f(-.)\"'"
echo "}"
echo

# The option lines of a help text as SHORT LONG ARG OPTIONAL REPEATABLE
# DESC (its first clause), apart by
# the unit separator (\037: a tab is white space to read, which would merge
# the empty fields).
us=$(printf '\037')
options() {
	awk -v US="$us" '
	function flush() {
		if (have) {
			d = desc
			# the first clause: without parentheses, up to a semicolon
			out = ""; depth = 0
			for (i = 1; i <= length(d); i++) {
				ch = substr(d, i, 1)
				if (ch == "(") depth++
				else if (ch == ")" && depth > 0) depth--
				else if (depth == 0) out = out ch
			}
			gsub(/  +/, " ", out); gsub(/ ,/, ",", out)
			sub(/;.*/, "", out); sub(/[ ,:]+$/, "", out)
			if (length(out) > 72) {
				out = substr(out, 1, 72); sub(/ [^ ]*$/, "", out)
			}
			print short US long US arg US optional US (desc ~ /repeatable/) US out
		}
		have = 0
	}
	/^  -[A-Za-z0-9]/ || /^      --[A-Za-z0-9]/ {
		flush()
		line = $0; sub(/^ +/, "", line)
		short = ""; long = ""; arg = ""; optional = 0
		if (match(line, /^-[A-Za-z0-9], /)) {
			short = substr(line, 2, 1); line = substr(line, 5)
		}
		# the option, then its argument up to two spaces
		spec = line; desc = ""
		if (match(line, /  +/)) {
			spec = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH)
		}
		if (match(spec, /^--[A-Za-z0-9][A-Za-z0-9_-]*/)) {
			long = substr(spec, 3, RLENGTH - 2)
		} else {
			match(spec, /^-[A-Za-z0-9]/)
			short = substr(spec, 2, 1)
		}
		rest = substr(spec, RLENGTH + 1)
		if (rest ~ /^\[/) {
			optional = 1; arg = rest
			gsub(/^\[=?|\]$/, "", arg)
		} else {
			arg = rest; sub(/^ /, "", arg)
		}
		have = 1
		next
	}
	have && /^                    +[^ ]/ {
		l = $0; sub(/^ +/, "", l)
		desc = (desc == "" ? l : desc " " l)
		next
	}
	{ flush() }
	END { flush() }
	'
}

# the completion of an option's argument, from the argument's name
action() {
	case $1/$2 in
	engine/* | ioengine/*) echo "($engines)" ;;
	on-error/*) echo "(stop continue)" ;;
	progress/*) echo "(auto always never)" ;;
	synthetic/*) echo "($synthetic)" ;;
	*/DIR | */RUNDIR | */dir) echo "_files -/" ;;
	*/FILE | */FILE.f | */F1*) echo "_files" ;;
	*) echo " " ;;
	esac
}

# zsh's _arguments: a backslash before ], [, : and \ in a description
spec_esc() {
	printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/\[/\\[/g' -e 's/]/\\]/g' -e 's/:/\\:/g'
}

for c in $commands; do
	fn=$(printf '%s' "$c" | tr '-' '_')
	echo "(( \$+functions[_fsgauge_$fn] )) ||"
	echo "_fsgauge_$fn() {"
	echo "	_arguments -s -S \\"
	"$bin" "$c" --help | options | while IFS=$us read -r short long arg optional rep desc; do
		d=$(spec_esc "$desc")
		name=${long:-$short}
		msg=$(spec_esc "$(printf '%s' "$arg" | tr 'A-Z' 'a-z')")
		act=$(action "$name" "$arg")
		[ "$rep" = 1 ] && rep='*' || rep=
		excl=
		if [ -n "$short" ] && [ -n "$long" ] && [ -z "$rep" ]; then
			excl="(-$short --$long)"
		fi
		for form in ${short:+-$short} ${long:+--$long}; do
			if [ -z "$arg" ]; then
				s="$excl$rep$form[$d]"
			elif [ "$optional" = 1 ]; then
				case $form in
				--*) s="$excl$rep$form=-[$d]::$msg:$act" ;;
				*) s="$excl$rep$form-[$d]::$msg:$act" ;;
				esac
			else
				case $form in
				--*) s="$excl$rep$form=[$d]:$msg:$act" ;;
				*) s="$excl$rep$form+[$d]:$msg:$act" ;;
				esac
			fi
			printf '\t\t%s \\\n' "$(q "$s")"
		done
	done
	# the operands
	case $c in
	run | show) echo "		'1:workload:_fsgauge_workload_or_file' \\" ;;
	compare | report) echo "		'*:result file:_files -g \"*.json(-.)\"' \\" ;;
	io) echo "		'*:fio job file:_files' \\" ;;
	devcheck) echo "		'1:block device:_files' \\" ;;
	clean) echo "		'1:directory:_files -/' \\" ;;
	list | untar | iozone | bonnie | verify) ;;
	*) echo "		'*:file:_files' \\" ;;
	esac
	echo "		&& return"
	echo "}"
	echo
done

echo "(( \$+functions[_fsgauge_commands] )) ||"
echo "_fsgauge_commands() {"
echo "	local -a c"
echo "	c=("
"$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\)  *\(.*\)/\1:\2/p' |
	while read -r line; do
		printf '\t\t%s\n' "$(q "$line")"
	done
echo "	)"
echo "	_describe -t commands 'fsgauge command' c"
echo "}"
echo
cat <<'TAIL'
_fsgauge() {
	local curcontext=$curcontext state line ret=1
	typeset -A opt_args
	_arguments -C \
		'(- *)'{-h,--help}'[list the commands]' \
		'(- *)--version[the version and the compiled-in features]' \
		'1: :->command' \
		'*:: :->args' && ret=0
	case $state in
	command)
		_fsgauge_commands && ret=0
		;;
	args)
		curcontext=${curcontext%:*:*}:fsgauge-$words[1]:
		if (( $+functions[_fsgauge_${words[1]//-/_}] )); then
			_fsgauge_${words[1]//-/_} && ret=0
		else
			_files && ret=0
		fi
		;;
	esac
	return ret
}

_fsgauge "$@"
TAIL
