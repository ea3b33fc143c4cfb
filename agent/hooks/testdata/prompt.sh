#!/bin/sh
# UserPromptSubmit: blocks prompts about secrets, adds a ticket otherwise.
input=$(cat)
if printf '%s' "$input" | grep -q '"prompt":"[^"]*secret'; then
	echo "prompts about secrets are blocked by policy" >&2
	exit 2
fi
echo "Current ticket: TND-42"
