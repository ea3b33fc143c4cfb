#!/bin/sh
# SessionStart: its stdout is context.
cat > /dev/null
echo "The release branch is frozen."
