//go:build cgo

package sandbox

// The import makes this a cgo package, so helper_linux.c, the sandbox
// helper, is compiled and linked into every binary that imports it.

import "C"
