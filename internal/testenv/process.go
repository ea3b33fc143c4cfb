package testenv

import (
	"bytes"
	"os"
	"sync"
)

// ModelEnv is this process's environment plus what points a tandem child
// at the fake model server (llmtest) listening at anthropicURL, with home
// as its TANDEM_HOME. Later entries win in exec, so a real key or provider
// in the developer's environment cannot leak into a test run.
func ModelEnv(home, anthropicURL string) []string {
	return append(os.Environ(),
		"TANDEM_HOME="+home,
		"TANDEM_PROVIDER=anthropic",
		"ANTHROPIC_API_KEY=test",
		"ANTHROPIC_BASE_URL="+anthropicURL,
	)
}

// SyncBuffer collects a child process's output (its stderr, say) while the
// test reads it from another goroutine.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
