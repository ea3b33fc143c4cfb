package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// LimitsFileName is the file in $TANDEM_HOME that keeps the limits servers
// stated when they refused a request as too long.
const LimitsFileName = "context-limits.json"

// limitsVersion is the shape of the limits file.
const limitsVersion = 1

// LimitFile keeps, across processes, the most tokens each server takes per
// model, as learned from its refusals (Windows.Refused). An entry only
// ever goes down; removing it by hand (or the file) forgets it, for a
// server started again with a larger context.
type LimitFile struct {
	Path string

	mu sync.Mutex // serialises this process's read-modify-write of Path
}

type limitsFile struct {
	Version int          `json:"version"`
	Limits  []limitEntry `json:"limits"`
}

type limitEntry struct {
	Endpoint string    `json:"endpoint"`
	Model    string    `json:"model"`
	Tokens   int       `json:"tokens"`
	Learned  time.Time `json:"learned"`
}

// Load returns the limits kept for endpoint, by model. A missing file
// keeps none; an unreadable one, or one of another version, is an error
// and keeps none.
func (f *LimitFile) Load(endpoint string) (map[string]int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	lf, err := f.read()
	out := map[string]int{}
	for _, e := range lf.Limits {
		if e.Endpoint == endpoint && e.Tokens > 0 && (out[e.Model] == 0 || e.Tokens < out[e.Model]) {
			out[e.Model] = e.Tokens
		}
	}
	return out, err
}

// Put keeps tokens as the limit of model at endpoint, unless a lower one
// is kept already (another process may have learned it meanwhile). A file
// that cannot be read is started over: what was just learned matters more.
func (f *LimitFile) Put(endpoint, model string, tokens int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	lf, err := f.read()
	if err != nil {
		lf = limitsFile{}
	}
	lf.Version = limitsVersion
	found := false
	for i := range lf.Limits {
		if e := &lf.Limits[i]; e.Endpoint == endpoint && e.Model == model {
			found = true
			if e.Tokens <= 0 || tokens < e.Tokens {
				e.Tokens, e.Learned = tokens, time.Now().UTC()
			}
		}
	}
	if !found {
		lf.Limits = append(lf.Limits, limitEntry{Endpoint: endpoint, Model: model, Tokens: tokens, Learned: time.Now().UTC()})
	}
	b, err := json.MarshalIndent(lf, "", "  ")
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("models: keeping the context limit: %w", err)
	}
	if err := atomicfile.Write(f.Path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("models: keeping the context limit: %w", err)
	}
	return nil
}

func (f *LimitFile) read() (limitsFile, error) {
	var lf limitsFile
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return limitsFile{Version: limitsVersion}, nil
	}
	if err != nil {
		return limitsFile{}, fmt.Errorf("models: %w", err)
	}
	if err := json.Unmarshal(b, &lf); err != nil {
		return limitsFile{}, fmt.Errorf("models: %s: %w", f.Path, err)
	}
	if lf.Version != limitsVersion {
		return limitsFile{}, fmt.Errorf("models: %s has version %d; this tandem reads %d", f.Path, lf.Version, limitsVersion)
	}
	return lf, nil
}

// Endpoint is the name a server's limits are kept and shown under: its
// base URL without credentials, query or fragment, and without a trailing
// slash. A URL that does not parse names no endpoint ("").
func Endpoint(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return strings.TrimRight(u.String(), "/")
}
