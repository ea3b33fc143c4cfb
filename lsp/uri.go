package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"

	"go.lsp.dev/uri"
)

// uriToPath turns a file:// URI into a clean absolute path.
func uriToPath(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("empty URI")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", s, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("URI %q is not a file:// URI", s)
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("URI %q has no absolute path", s)
	}
	return filepath.Clean(p), nil
}

// pathToURI is the file:// URI of an absolute path.
func pathToURI(path string) string { return string(uri.File(path)) }
