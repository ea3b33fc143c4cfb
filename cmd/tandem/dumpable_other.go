//go:build !linux

package main

// notDumpable has no portable equivalent; elsewhere the OS's own process
// isolation is all there is.
func notDumpable() error { return nil }
