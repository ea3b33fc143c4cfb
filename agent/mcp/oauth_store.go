package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/oauth2"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// OAuthFile is where the OAuth clients and tokens of remote servers are
// kept: $TANDEM_HOME/mcp-oauth.json, mode 0600.
func OAuthFile(home string) string { return filepath.Join(home, "mcp-oauth.json") }

// oauthRecord is what signing in to one server left: the client tandem
// registered and its token, enough to refresh without asking again.
type oauthRecord struct {
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	AuthURL      string           `json:"authUrl"`
	TokenURL     string           `json:"tokenUrl"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle"`
	Token        *oauth2.Token    `json:"token"`
}

// oauthFileShape is the file: records by server URL.
type oauthFileShape struct {
	Version int                    `json:"version"`
	Servers map[string]oauthRecord `json:"servers"`
}

const oauthFileVersion = 1

// tokenStore reads and writes the OAuth file. Its content is secret: it is
// never logged, and errors name the file, never a value in it.
type tokenStore struct {
	path string

	mu sync.Mutex // guards the file's read-modify-write within this process
}

func (st *tokenStore) load(url string) (oauthRecord, bool) {
	if st == nil || st.path == "" {
		return oauthRecord{}, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	f, err := st.read()
	if err != nil {
		return oauthRecord{}, false
	}
	r, ok := f.Servers[url]
	return r, ok && r.Token != nil
}

func (st *tokenStore) save(url string, r oauthRecord) error {
	if st == nil || st.path == "" {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	f, err := st.read()
	if err != nil {
		f = oauthFileShape{} // an unreadable file is replaced, not kept half-used
	}
	f.Version = oauthFileVersion
	if f.Servers == nil {
		f.Servers = map[string]oauthRecord{}
	}
	f.Servers[url] = r
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(st.path), 0o700); err != nil {
		return fmt.Errorf("saving MCP sign-in: %w", err)
	}
	if err := atomicfile.Write(st.path, b, 0o600); err != nil {
		return fmt.Errorf("saving MCP sign-in to %s: %w", st.path, err)
	}
	return nil
}

func (st *tokenStore) read() (oauthFileShape, error) {
	var f oauthFileShape
	b, err := os.ReadFile(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil || f.Version != oauthFileVersion {
		return oauthFileShape{}, fmt.Errorf("%s is not a version %d MCP sign-in file", st.path, oauthFileVersion)
	}
	return f, nil
}
