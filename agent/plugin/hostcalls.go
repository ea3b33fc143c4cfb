package plugin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/internal/pathx"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// maxHostFile caps a file read or written through the host.
const maxHostFile = 2 << 20

// hostMethods are the calls a plugin may make to the host, each checked
// against the plugin's permissions when it is made.
func (i *instance) hostMethods() jsonrpc.Methods {
	return jsonrpc.Methods{
		sdk.HostLog: jsonrpc.Typed(func(_ context.Context, p sdk.LogParams) (struct{}, error) {
			msg := p.Message
			if len(msg) > 8000 {
				msg = msg[:8000] + "…"
			}
			switch p.Level {
			case "debug":
				i.log.Debug(msg)
			case "warn":
				i.log.Warn(msg)
			case "error":
				i.log.Error(msg)
			default:
				i.log.Info(msg)
			}
			return struct{}{}, nil
		}),
		sdk.HostReadFile: jsonrpc.Typed(func(_ context.Context, p sdk.PathParams) (sdk.ReadFileResult, error) {
			root, rel, err := i.scoped(p.Path, false)
			if err != nil {
				return sdk.ReadFileResult{}, err
			}
			defer root.Close()
			st, err := root.Stat(rel)
			if err == nil && st.Size() > maxHostFile {
				return sdk.ReadFileResult{}, fmt.Errorf("%s is larger than %d bytes", p.Path, maxHostFile)
			}
			b, err := root.ReadFile(rel)
			return sdk.ReadFileResult{Content: string(b)}, err
		}),
		sdk.HostWriteFile: jsonrpc.Typed(func(_ context.Context, p sdk.WriteFileParams) (struct{}, error) {
			if len(p.Content) > maxHostFile {
				return struct{}{}, fmt.Errorf("content is larger than %d bytes", maxHostFile)
			}
			root, rel, err := i.scoped(p.Path, true)
			if err != nil {
				return struct{}{}, err
			}
			defer root.Close()
			if err := root.MkdirAll(filepath.Dir(rel), 0o700); err != nil {
				return struct{}{}, err
			}
			return struct{}{}, root.WriteFile(rel, []byte(p.Content), 0o600)
		}),
		sdk.HostModel:       jsonrpc.Typed(i.model),
		sdk.HostApplyEdit:   jsonrpc.Typed(i.applyEdit),
		sdk.HostMarker:      jsonrpc.Typed(i.marker),
		sdk.HostRewind:      jsonrpc.Typed(i.rewind),
		sdk.HostDeliver:     jsonrpc.Typed(i.deliver),
		sdk.HostMCPCallTool: jsonrpc.Typed(i.mcpCall),
		sdk.HostListFiles: jsonrpc.Typed(func(_ context.Context, p sdk.PathParams) (sdk.ListFilesResult, error) {
			root, rel, err := i.scoped(p.Path, false)
			if err != nil {
				return sdk.ListFilesResult{}, err
			}
			defer root.Close()
			entries, err := fs.ReadDir(root.FS(), filepath.ToSlash(rel))
			r := sdk.ListFilesResult{Entries: []sdk.DirEntry{}}
			for _, e := range entries {
				r.Entries = append(r.Entries, sdk.DirEntry{Name: e.Name(), Dir: e.IsDir()})
			}
			return r, err
		}),
	}
}

var errDenied = errors.New("denied")

// scoped resolves a path a plugin names (relative ones against the
// session root) and allows it only inside the plugin's data folder or a
// permissions.filesystem entry, after symlinks: a link inside a grant
// pointing outside it is outside. A path to write may not exist yet; its
// nearest existing parent is what is checked. The file is then reached
// through an os.Root at the grant, so a link swapped in after the check
// cannot lead out either. The caller closes the root.
func (i *instance) scoped(p string, write bool) (*os.Root, string, error) {
	if p == "" {
		return nil, "", jsonrpc.InvalidParams("path is empty")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(i.sess.root, p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p, write)
	if err != nil {
		return nil, "", err
	}
	for _, g := range i.grants() {
		gr, err := filepath.EvalSymlinks(g)
		if err != nil {
			continue
		}
		if rel, ok := pathx.Within(gr, real); ok {
			root, err := os.OpenRoot(gr)
			if rel == "" {
				rel = "."
			}
			return root, rel, err
		}
	}
	return nil, "", &jsonrpc.Error{Code: sdk.CodeDenied, Message: fmt.Sprintf("%v: %s is outside the plugin's permissions.filesystem", errDenied, p)}
}

// grants are the folders a plugin may reach: its data folder, and each
// permissions.filesystem entry (relative to the session root, "~/" to the
// user's home, or absolute).
func (i *instance) grants() []string {
	out := []string{i.rt.dataDir(i.name())}
	for _, g := range i.st.Manifest.Permissions.Filesystem {
		switch {
		case strings.HasPrefix(g, "~/"):
			if h, err := os.UserHomeDir(); err == nil {
				out = append(out, filepath.Join(h, g[2:]))
			}
		case filepath.IsAbs(g):
			out = append(out, filepath.Clean(g))
		default:
			out = append(out, filepath.Join(i.sess.root, g))
		}
	}
	return out
}

// realPath resolves symlinks in p; for a write, of its nearest existing
// ancestor, with the rest appended.
func realPath(p string, write bool) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil || !write || !errors.Is(err, os.ErrNotExist) {
		return real, err
	}
	dir, rest := filepath.Dir(p), filepath.Base(p)
	for {
		r, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, os.ErrNotExist) || filepath.Dir(dir) == dir {
			return "", err
		}
		dir, rest = filepath.Dir(dir), filepath.Join(filepath.Base(dir), rest)
	}
}
