// Package mcptest serves MCP servers for tests over real HTTP: an
// authorization server with the MCP server it protects, for OAuth sign-in.
// It is for tests only and never reaches tandem's binary.
package mcptest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tokens the server hands out.
const (
	AccessToken  = "secret-access-77"
	RefreshToken = "secret-refresh-77"
)

// AuthServer is an OAuth 2.1 authorization server and the MCP server it
// protects, in one local HTTP server: metadata discovery, dynamic client
// registration, an authorization endpoint that approves at once and
// redirects with a code, and a token endpoint that checks PKCE.
type AuthServer struct {
	// URL is the server's base; the MCP endpoint is URL + "/mcp".
	URL     string
	signIns atomic.Int32

	mu        sync.Mutex // guards challenge
	challenge string
}

// NewAuthServer starts one, closed when the test ends.
func NewAuthServer(t testing.TB) *AuthServer {
	t.Helper()
	a := &AuthServer{}
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
		writeJSON(w, 200, map[string]any{"resource": a.URL + "/mcp", "authorization_servers": []string{a.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"issuer": a.URL, "authorization_endpoint": a.URL + "/authorize",
			"token_endpoint": a.URL + "/token", "registration_endpoint": a.URL + "/register",
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
		writeJSON(w, 200, map[string]any{"access_token": AccessToken, "token_type": "Bearer",
			"expires_in": 3600, "refresh_token": RefreshToken})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+AccessToken {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	a.URL = ts.URL
	return a
}

// SignIns counts visits to the authorization endpoint.
func (a *AuthServer) SignIns() int { return int(a.signIns.Load()) }
