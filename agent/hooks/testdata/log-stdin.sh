#!/bin/sh
# Appends the event it reads to $HOOK_LOG, one JSON line per hook run.
cat >> "$HOOK_LOG"
echo >> "$HOOK_LOG"
