//go:build !linux

package atomicfile

// spareState is empty where there is no exchange: every replacement is a
// temporary file and a rename.
type spareState struct{}

func (*spareState) close() error { return nil }
