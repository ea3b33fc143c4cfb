package plugin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// pinRE finds a content pin in an archive's file name:
// anything-sha256-<64 hex>.tar.gz.
var pinRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`sha256-([0-9a-fA-F]{64})`) })

// InstallOptions say where a plugin goes.
type InstallOptions struct {
	Dir       string // the plugins folder to install into (user or project)
	Overwrite bool   // replace an installed plugin of the same name
	Client    *http.Client
}

// Install installs the plugin at source — a folder, a .tar.gz or .tgz
// file, or an https URL of one (plain http only to a loopback address) —
// into o.Dir/<name>, and returns it. It is not enabled: that is the
// user's separate decision. A file name carrying sha256-<hex> pins the
// archive's bytes; other bytes are refused.
func Install(ctx context.Context, source string, o InstallOptions) (*Plugin, error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(o.Dir, ".install-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	stage := filepath.Join(tmp, "x")
	if err := os.Mkdir(stage, 0o755); err != nil {
		return nil, err
	}
	if err := unpackSource(ctx, source, stage, o.Client); err != nil {
		return nil, err
	}
	root, err := pluginRoot(stage)
	if err != nil {
		return nil, err
	}
	p, err := ReadFolder(root, ScopeUser)
	if err != nil {
		return nil, err
	}
	dest := filepath.Join(o.Dir, p.Manifest.Name)
	if _, err := os.Lstat(dest); err == nil {
		if !o.Overwrite {
			return nil, fmt.Errorf("%s is already installed at %s (use --overwrite to replace it)", p.Manifest.Name, dest)
		}
		if err := os.RemoveAll(dest); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(root, dest); err != nil {
		return nil, err
	}
	p.Dir = dest
	return p, nil
}

// unpackSource puts the plugin's files into stage.
func unpackSource(ctx context.Context, source, stage string, c *http.Client) error {
	if strings.HasPrefix(source, "https://") || strings.HasPrefix(source, "http://") {
		data, err := download(ctx, source, c)
		if err != nil {
			return err
		}
		return extractTarGz(bytes.NewReader(data), stage)
	}
	st, err := os.Stat(source)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return copyFolder(source, stage)
	}
	if st.Size() > MaxInstallBytes {
		return fmt.Errorf("%s is larger than %d bytes: %w", source, MaxInstallBytes, errLimit)
	}
	data, err := os.ReadFile(source)
	if err != nil {
		return err
	}
	if err := checkPin(filepath.Base(source), data); err != nil {
		return err
	}
	return extractTarGz(bytes.NewReader(data), stage)
}

// download fetches an archive: https, or http to a loopback address;
// capped in size; checked against a pin in its name.
func download(ctx context.Context, raw string, c *http.Client) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) {
		return nil, fmt.Errorf("%s: plugins are downloaded over https only (plain http only from this machine)", raw)
	}
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Minute}
	}
	c2 := *c
	c2.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if r.URL.Scheme != "https" && !(r.URL.Scheme == "http" && loopback(r.URL.Hostname())) {
			return fmt.Errorf("refusing a redirect to %s: plugins are downloaded over https only", r.URL.Redacted())
		}
		if len(via) >= 10 {
			return errors.New("too many redirects")
		}
		return nil
	}
	c = &c2
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", raw, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxInstallBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInstallBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes: %w", raw, MaxInstallBytes, errLimit)
	}
	return data, checkPin(path.Base(u.Path), data)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkPin verifies the sha256 a file name carries, if any.
func checkPin(name string, data []byte) error {
	m := pinRE().FindStringSubmatch(name)
	if m == nil {
		return nil
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, m[1]) {
		return fmt.Errorf("%s: the content's sha256 is %s, not the %s its name pins", name, got, m[1])
	}
	return nil
}

// pluginRoot finds the plugin in what was unpacked: at the top, or in
// its one top-level folder.
func pluginRoot(stage string) (string, error) {
	if isPluginDir(stage) {
		return stage, nil
	}
	entries, err := os.ReadDir(stage)
	if err != nil {
		return "", err
	}
	if len(entries) == 1 && entries[0].IsDir() && isPluginDir(filepath.Join(stage, entries[0].Name())) {
		return filepath.Join(stage, entries[0].Name()), nil
	}
	return "", errors.New("no plugin.json (or .claude-plugin/plugin.json) at the top of what was installed")
}

func isPluginDir(d string) bool {
	return fileExists(filepath.Join(d, ManifestFile)) || fileExists(filepath.Join(d, ".claude-plugin", ManifestFile))
}

// Remove deletes an installed plugin's folder. Bundled and provisioned
// plugins are not the user's to remove.
func Remove(p *Plugin) error {
	if p.Scope != ScopeUser && p.Scope != ScopeProject {
		return fmt.Errorf("%s is a %s plugin and cannot be removed", p.Manifest.Name, p.Scope)
	}
	return os.RemoveAll(p.Dir)
}
