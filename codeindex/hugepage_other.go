//go:build !linux

package codeindex

func bigSlice[T any](n int) []T { return make([]T, n) }
