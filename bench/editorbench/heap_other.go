//go:build !unix

package main

import "os"

// askHeap: no signal to ask with here.
func askHeap(*os.Process) bool { return false }
