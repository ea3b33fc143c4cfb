#!/bin/sh
# PreToolUse on Bash: refuses rm with exit 2; stderr is the reason.
input=$(cat)
printf '%s\n' "$input" >> "$HOOK_LOG"
if printf '%s' "$input" | grep -q '"command":"rm '; then
	echo "rm is not allowed here; move files to ./trash instead" >&2
	exit 2
fi
exit 0
