#!/usr/bin/env bash
set -e

log() {
  echo "$@" >&2
}

function build {
  log building
}

build
