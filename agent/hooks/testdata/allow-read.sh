#!/bin/sh
# PreToolUse on Read: allows through JSON on stdout.
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"reading is fine"}}'
