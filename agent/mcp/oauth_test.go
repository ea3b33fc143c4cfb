package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/mcp/mcptest"
)

// A remote server that answers 401 gets tandem signed in: the user is
// shown the authorization link (here followed by a plain HTTP client, as a
// browser would; the time it takes does not count against the connect
// deadline), the tools arrive, and the token lands in a 0600 file and
// in no log; a second session reuses it without asking.
func TestOAuthSignIn(t *testing.T) {
	a := mcptest.NewAuthServer(t)
	file := OAuthFile(t.TempDir())
	var logs bytes.Buffer
	var logsMu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&logs, &logsMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := Server{Name: "guarded", Type: TypeHTTP, URL: a.URL + "/mcp"}

	for session := 1; session <= 2; session++ {
		rec := newRecorder()
		var follow sync.WaitGroup
		m := Start(context.Background(), Options{Root: t.TempDir(), Servers: []Server{srv}, Log: log, OAuthFile: file,
			ConnectTimeout: time.Second,
			OnTools:        rec.onTools,
			OnNotice: func(msg string) {
				rec.onNotice(msg)
				if _, link, ok := strings.Cut(msg, "Open this link in a browser: "); ok {
					follow.Add(1)
					go func() { // the user opens the link, slower than the connect deadline
						defer follow.Done()
						time.Sleep(1500 * time.Millisecond)
						if resp, err := http.Get(link); err == nil {
							resp.Body.Close()
						}
					}()
				}
			}})
		waitTools(t, m, rec, 1)
		if _, notices := rec.snapshot(); (session == 1) != (len(notices) == 1) {
			t.Errorf("session %d: notices %q", session, notices)
		}
		m.Close()
		follow.Wait()
	}
	if n := a.SignIns(); n != 1 {
		t.Errorf("signed in %d times, want once", n)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), mcptest.AccessToken) || !strings.Contains(string(b), mcptest.RefreshToken) {
		t.Errorf("token file lacks the tokens: %s", b)
	}
	logsMu.Lock()
	defer logsMu.Unlock()
	if strings.Contains(logs.String(), mcptest.AccessToken) || strings.Contains(logs.String(), mcptest.RefreshToken) || strings.Contains(logs.String(), "code-1") {
		t.Errorf("a token reached the log:\n%s", logs.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
