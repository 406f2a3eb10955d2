#!/bin/sh
# function-lengths.sh MAX FILE... — list the functions longer than MAX lines
# (from the line of the opening brace at column 0 to the closing one) and
# exit 1 when there is one.  `make lint` runs it on src/cmd and src/suite,
# whose functions are kept short (docs/architecture.md).  It relies on the
# project's style (clang-format): a function body opens with "{" alone at
# the start of a line and closes with "}" alone at the start of a line.
set -eu
max=$1
shift
awk -v max="$max" '
	FNR == 1 { start = 0 }
	/^[a-z_A-Z].*\(/ { sig = $0 }
	/^\{$/ { start = FNR; name = sig }
	/^\}/ && start {
		n = FNR - start + 1
		if (n > max) { printf "%s:%d: %s: %d lines (at most %d)\n", FILENAME, start, name, n, max; bad = 1 }
		start = 0
	}
	END { exit bad }
' "$@"
