// Package fileuri converts between file:// URIs and paths of this OS, the
// one place both front doors (LSP documents, ACP resource links) do so.
// Windows forms are handled on every OS so their tests run on Linux: drive
// letters (file:///C:/x and VS Code's file:///c%3A/x) and UNC shares
// (file://server/share/x). It never touches the file system.
package fileuri

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// ErrNotFile marks a URI that does not name a local file: another scheme,
// a relative path, or a host on a system without UNC shares.
var ErrNotFile = errors.New("not a file URI")

// ToPath turns a file:// URI into a clean absolute path of this OS.
func ToPath(s string) (string, error) { return toPath(s, pathx.Native().Windows) }

// FromPath is the file:// URI of the absolute path p of this OS.
func FromPath(p string) string { return fromPath(p, pathx.Native().Windows) }

func toPath(s string, windows bool) (string, error) {
	if s == "" {
		return "", fmt.Errorf("%w: empty URI", ErrNotFile)
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%w: bad URI %q: %w", ErrNotFile, s, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%w: %q is not a file:// URI", ErrNotFile, s)
	}
	host := u.Host
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	// u.Path is already percent-decoded, so c%3A arrives as c:.
	p := u.Path
	if !windows {
		if host != "" {
			return "", fmt.Errorf("%w: %q names host %q", ErrNotFile, s, host)
		}
		if !strings.HasPrefix(p, "/") {
			return "", fmt.Errorf("%w: %q has no absolute path", ErrNotFile, s)
		}
		// path, not filepath: the rule is the URI's, not the build's OS.
		return path.Clean(p), nil
	}
	if host != "" {
		// file://server/share/x is \\server\share\x.
		segs := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)
		if segs[0] == "" {
			return "", fmt.Errorf("%w: %q names a server but no share", ErrNotFile, s)
		}
		rest := "/"
		if len(segs) == 2 {
			rest = path.Clean("/" + segs[1])
		}
		return `\\` + host + `\` + segs[0] + strings.ReplaceAll(strings.TrimSuffix(rest, "/"), "/", `\`), nil
	}
	p = strings.TrimPrefix(p, "/")
	if len(p) < 3 || p[1] != ':' || p[2] != '/' || !isLetter(p[0]) {
		return "", fmt.Errorf("%w: %q has no drive-absolute path", ErrNotFile, s)
	}
	// Windows reports drives in upper case; VS Code sends them in lower
	// case. One spelling keeps paths from both usable as map keys.
	drive := strings.ToUpper(p[:1]) + ":"
	return drive + strings.ReplaceAll(path.Clean(p[2:]), "/", `\`), nil
}

func fromPath(p string, windows bool) string {
	if !windows {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	slash := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(slash, "//") {
		host, rest, _ := strings.Cut(slash[2:], "/")
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	return (&url.URL{Scheme: "file", Path: "/" + slash}).String()
}

func isLetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }
