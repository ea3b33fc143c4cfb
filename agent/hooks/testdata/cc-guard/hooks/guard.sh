#!/bin/sh
# Refuses rm the way Claude Code hooks do: exit 2, the reason on stderr.
if grep -q '"command":"rm '; then
	echo "cc-guard refuses rm" >&2
	exit 2
fi
exit 0
