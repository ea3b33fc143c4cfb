#!/bin/sh
# PreToolUse on Write: refuses through JSON on stdout.
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"the tree is frozen for the release"}}'
