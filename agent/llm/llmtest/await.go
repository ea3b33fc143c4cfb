package llmtest

import (
	"testing"
	"time"
)

// awaitBound only bounds a failure: Await returns as soon as the request
// it waits for is recorded.
const awaitBound = 10 * time.Second

// Await waits until the server has received n model requests (title
// requests are not counted) and returns them all, in arrival order. A
// request counts as soon as it is recorded, before a handler runs or any
// of its reply is written, so a test can act while a scripted reply hangs
// or a handler holds it. It wakes at each arrival rather than polling, and fails the
// test if fewer than n arrived 10 s later.
func (s *Server) Await(t testing.TB, n int) []*Request {
	t.Helper()
	var got []*Request
	if !s.arrivals.Wait(awaitBound, func() bool {
		got = s.Requests()
		return len(got) >= n
	}) {
		t.Fatalf("llmtest: %d model requests in %s, want %d", len(got), awaitBound, n)
	}
	return got
}
