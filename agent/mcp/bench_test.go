package mcp

import (
	"context"
	"testing"
	"time"
)

// BenchmarkConnect measures how long a session waits for server-everything's
// tools over each transport: process start (stdio), initialize and
// tools/list. The HTTP servers run already, as remote servers would.
//
//	go test -run '^$' -bench Connect -benchtime 10x ./agent/mcp
func BenchmarkConnect(b *testing.B) {
	for _, transport := range []Type{TypeStdio, TypeHTTP, TypeSSE} {
		b.Run(string(transport), func(b *testing.B) {
			srv := everything(b, transport)
			var total time.Duration
			for b.Loop() {
				m := Start(context.Background(), Options{Root: b.TempDir(), Servers: []Server{srv}})
				<-m.Ready()
				st := m.Status()[0]
				if st.State != "ready" {
					b.Fatalf("server not ready: %+v", st)
				}
				total += st.ConnectTime
				m.Close()
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "connect-ms")
		})
	}
}
