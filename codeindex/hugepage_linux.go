//go:build linux

package codeindex

import (
	"syscall"
	"unsafe"
)

// hugePage is the transparent huge page size on the platforms tandem runs on.
const hugePage = 2 << 20

// bigSlice returns a zeroed slice of n elements whose memory is, where the
// kernel allows, backed by transparent huge pages. On virtual machines the
// first touch of each 4 KiB page is expensive: reading the 16 MB cache of
// the Go tree into ordinary memory took 77 ms and a first pass over it
// another 40 ms, against 5 ms and 2 ms on huge pages. The advice covers
// only this allocation's address range and is a hint: where it is refused,
// the slice is ordinary memory.
func bigSlice[T any](n int) []T {
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size < 2*hugePage {
		return make([]T, n)
	}
	s := make([]T, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	first := (start + hugePage - 1) &^ (hugePage - 1)
	last := (start + size) &^ (hugePage - 1)
	if last > first {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), first-start)), last-first), syscall.MADV_HUGEPAGE)
	}
	return s
}
