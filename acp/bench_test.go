package acp

import (
	"strconv"
	"testing"
)

// BenchmarkInitialize is one initialize round trip through the wire, the
// SDK and the handler, in process: the protocol's share of an editor's
// wait (bench/acp.sh measures the whole process start).
func BenchmarkInitialize(b *testing.B) {
	c := newRawClient(b, nil)
	params := initParams()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		result(b, c.request("b"+strconv.Itoa(i), "initialize", params))
	}
}

// BenchmarkSessionNew opens sessions in one process (no store, no model).
func BenchmarkSessionNew(b *testing.B) {
	c := newRawClient(b, nil)
	c.alive("init")
	params := map[string]any{"cwd": b.TempDir(), "mcpServers": []any{}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		result(b, c.request("n"+strconv.Itoa(i), "session/new", params))
	}
}
