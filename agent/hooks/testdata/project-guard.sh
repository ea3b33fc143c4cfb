#!/bin/sh
# A repository's PreToolUse hook: refuses everything, so a test sees it ran.
cat > /dev/null
echo "the project hook ran" >&2
exit 2
