package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	testAccessToken  = "secret-access-77"
	testRefreshToken = "secret-refresh-77"
)

// authServer is an OAuth 2.1 authorization server and the MCP server it
// protects, in one local HTTP server: metadata discovery, dynamic client
// registration, an authorization endpoint that approves at once and
// redirects with a code, and a token endpoint that checks PKCE. signIns
// counts visits to the authorization endpoint.
type authServer struct {
	url     string
	signIns atomic.Int32

	mu        sync.Mutex // guards challenge
	challenge string
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	a := &authServer{}
	s := sdk.NewServer(&sdk.Implementation{Name: "guarded", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "whoami", Description: "Who is signed in"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "you"}}}, nil, nil
		})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"resource": a.url + "/mcp", "authorization_servers": []string{a.url}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"issuer": a.url, "authorization_endpoint": a.url + "/authorize",
			"token_endpoint": a.url + "/token", "registration_endpoint": a.url + "/register",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var meta map[string]any
		json.NewDecoder(r.Body).Decode(&meta)
		writeJSON(w, 201, map[string]any{"client_id": "client-1", "redirect_uris": meta["redirect_uris"], "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		a.signIns.Add(1)
		q := r.URL.Query()
		if q.Get("client_id") != "client-1" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "bad authorization request", 400)
			return
		}
		a.mu.Lock()
		a.challenge = q.Get("code_challenge")
		a.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {"code-1"}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		a.mu.Lock()
		ok := base64.RawURLEncoding.EncodeToString(sum[:]) == a.challenge
		a.mu.Unlock()
		if r.Form.Get("grant_type") != "authorization_code" || r.Form.Get("code") != "code-1" || !ok {
			writeJSON(w, 400, map[string]any{"error": "invalid_grant"})
			return
		}
		writeJSON(w, 200, map[string]any{"access_token": testAccessToken, "token_type": "Bearer",
			"expires_in": 3600, "refresh_token": testRefreshToken})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testAccessToken {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.url+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	a.url = ts.URL
	return a
}

// A remote server that answers 401 gets tandem signed in: the user is
// shown the authorization link (here followed by a plain HTTP client, as a
// browser would), the tools arrive, and the token lands in a 0600 file and
// in no log; a second session reuses it without asking.
func TestOAuthSignIn(t *testing.T) {
	a := newAuthServer(t)
	file := OAuthFile(t.TempDir())
	var logs bytes.Buffer
	var logsMu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&logs, &logsMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := Server{Name: "guarded", Type: TypeHTTP, URL: a.url + "/mcp"}

	for session := 1; session <= 2; session++ {
		rec := newRecorder()
		var follow sync.WaitGroup
		m := Start(context.Background(), Options{Root: t.TempDir(), Servers: []Server{srv}, Log: log, OAuthFile: file,
			OnTools: rec.onTools,
			OnNotice: func(msg string) {
				rec.onNotice(msg)
				if _, link, ok := strings.Cut(msg, "Open this link in a browser: "); ok {
					follow.Add(1)
					go func() { // the user opens the link
						defer follow.Done()
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
	if n := a.signIns.Load(); n != 1 {
		t.Errorf("signed in %d times, want once", n)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), testAccessToken) || !strings.Contains(string(b), testRefreshToken) {
		t.Errorf("token file lacks the tokens: %s", b)
	}
	logsMu.Lock()
	defer logsMu.Unlock()
	if strings.Contains(logs.String(), testAccessToken) || strings.Contains(logs.String(), testRefreshToken) || strings.Contains(logs.String(), "code-1") {
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
