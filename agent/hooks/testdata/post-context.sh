#!/bin/sh
# PostToolUse on Bash: adds context for the model.
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the tests"}}'
