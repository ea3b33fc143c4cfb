#!/bin/sh
# Any hook: fails with exit 1, a warning for the user and nothing else.
cat > /dev/null
echo "this hook is broken" >&2
exit 1
