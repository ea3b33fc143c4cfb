#!/bin/sh
# Stop: asks for one more round, unless it already did.
input=$(cat)
printf '%s\n' "$input" >> "$HOOK_LOG"
if printf '%s' "$input" | grep -q '"stop_hook_active":false'; then
	echo '{"decision":"block","reason":"run the linter before you stop"}'
fi
exit 0
