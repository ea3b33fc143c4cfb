package llmtest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TokenServer is a fake OAuth2 token endpoint for Google service
// accounts: it checks the JWT assertion (RS256) against the account's
// public key and answers with an access token shaped like Google's
// ("ya29.…"), or refuses as Google does.
type TokenServer struct {
	URL string // the token endpoint, the key file's token_uri

	hs  *httptest.Server
	key *rsa.PublicKey

	mu     sync.Mutex // guards the fields below
	issued []string
	refuse int
	claims map[string]any
}

// ServiceAccount writes a service account's key file (project
// "sa-project", an RSA key made here) whose token_uri is a TokenServer
// started for the test, and returns its path and the server.
func ServiceAccount(t testing.TB) (string, *TokenServer) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ts := &TokenServer{key: &key.PublicKey}
	ts.hs = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.hs.Close)
	ts.URL = ts.hs.URL + "/token"
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	file := mustJSON(map[string]string{
		"type": "service_account", "project_id": "sa-project", "private_key_id": "0123abcd",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": "tandem-test@sa-project.iam.gserviceaccount.com", "client_id": "1234567890",
		"token_uri": ts.URL,
	})
	path := filepath.Join(t.TempDir(), "service-account.json")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, ts
}

// Issued returns the access tokens handed out so far.
func (ts *TokenServer) Issued() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.issued...)
}

// Claims returns the claims of the last accepted assertion.
func (ts *TokenServer) Claims() map[string]any {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.claims
}

// Refuse makes every later request fail with status and Google's
// invalid_grant body (0: answer again).
func (ts *TokenServer) Refuse(status int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.refuse = status
}

func (ts *TokenServer) serve(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fail := func(status int, desc string) {
		w.WriteHeader(status)
		w.Write(mustJSON(map[string]string{"error": "invalid_grant", "error_description": desc}))
	}
	if ts.refuse != 0 {
		fail(ts.refuse, "Invalid JWT Signature.")
		return
	}
	if r.ParseForm() != nil || r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		fail(http.StatusBadRequest, "unsupported grant type")
		return
	}
	parts := strings.Split(r.PostForm.Get("assertion"), ".")
	if len(parts) != 3 {
		fail(http.StatusBadRequest, "not a JWT")
		return
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(ts.key, crypto.SHA256, sum[:], sig) != nil {
		fail(http.StatusBadRequest, "Invalid JWT Signature.")
		return
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	ts.claims = nil
	json.Unmarshal(payload, &ts.claims)
	tok := fmt.Sprintf("ya29.c.llmtest-%d-%s", len(ts.issued), strings.Repeat("t", 40))
	ts.issued = append(ts.issued, tok)
	w.Write(mustJSON(map[string]any{"access_token": tok, "expires_in": 3599, "token_type": "Bearer"}))
}
