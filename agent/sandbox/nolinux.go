//go:build !linux

package sandbox

// LandlockABI is 0: Landlock is Linux's.
func LandlockABI() int { return 0 }

// Main does nothing off Linux: there is no helper process; macOS confines
// through sandbox-exec, which is a program of its own.
func Main() {}

// Unguarded reports nothing off Linux: protected entries there are never
// bind-mounted away, so nothing is created behind one's back.
type Unguarded struct{}

// Snapshot records nothing off Linux.
func Snapshot([]string) Unguarded { return Unguarded{} }

// Created is nil off Linux.
func (Unguarded) Created() []string { return nil }
