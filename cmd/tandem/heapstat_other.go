//go:build !unix

package main

import "io"

// heapOnSignal has no signal to answer here (see heapstat_unix.go).
func heapOnSignal(bool, string, io.Writer) (stop func()) { return func() {} }
