package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
)

// checkOnline sends the provider one small request when --online asks for
// it: the key is accepted and the model exists, or the line says which.
func (d *doctor) checkOnline(ctx context.Context) []finding {
	if !d.online {
		return []finding{{levelInfo, "online", "not checked", "tandem doctor --online sends the provider one small request"}}
	}
	if f, ok := d.onlineGoogle(ctx); ok {
		return f
	}
	p, err := newProvider(d.cfg, llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}, d.m.redactor())
	if err != nil || p == nil {
		return []finding{{levelFail, "online", "no provider to ask", "configure one (see provider above)"}}
	}
	return d.smallRequest(ctx, p)
}

// smallRequest sends p one request of a few tokens: the key is accepted
// and the model exists, or the line says which.
func (d *doctor) smallRequest(ctx context.Context, p llm.Provider) []finding {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	req := &llm.Request{Model: d.cfg.Model, MaxTokens: 16,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "Reply with the word OK."}}}}}
	_, err := p.Stream(ctx, req, func(llm.Event) {})
	var pe *llm.Error
	switch {
	case err == nil:
		return []finding{{levelOK, "online", fmt.Sprintf("%s answered with %s in %s", d.cfg.Provider, d.cfg.Model, time.Since(start).Round(time.Millisecond)), ""}}
	case errors.As(err, &pe) && pe.KeyEnv != "":
		return []finding{{levelFail, "online", fmt.Sprintf("the key was refused (HTTP %d)", pe.Status), "check " + pe.KeyEnv}}
	case errors.As(err, &pe) && pe.Status == 404:
		return []finding{{levelFail, "online", "model " + d.cfg.Model + " not found" + modelsHint(ctx, d.cfg), "set TANDEM_MODEL (or model in config.json) to one it offers"}}
	}
	return []finding{{levelFail, "online", err.Error(), "check the base URL and the network"}}
}

// checkMCP starts the user's MCP servers ($TANDEM_HOME/mcp.json) and lists
// their tools. A project's servers (.tandem/mcp.json) are only counted:
// they start after the user allows them in a session, never from here.
func (d *doctor) checkMCP(ctx context.Context) []finding {
	var out []finding
	user, err := mcp.LoadFile(mcp.UserFile(d.cfg.Home))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		out = append(out, finding{levelFail, "mcp", err.Error(), "correct " + mcp.UserFile(d.cfg.Home)})
	}
	if len(user) > 0 {
		m := mcp.Start(ctx, mcp.Options{Root: d.dir, Servers: user, Log: slog.New(slog.DiscardHandler), Version: currentBuild().Version})
		select {
		case <-m.Ready():
		case <-time.After(mcp.DefaultConnectTimeout + time.Second):
		}
		for _, s := range m.Status() {
			if s.State == "ready" {
				out = append(out, finding{levelOK, "mcp " + s.Name, fmt.Sprintf("%s in %s", plural(s.Tools, "tool"), s.ConnectTime.Round(time.Millisecond)), ""})
				continue
			}
			out = append(out, finding{levelFail, "mcp " + s.Name, s.State + ": " + s.Err, "check its command and arguments in " + mcp.UserFile(d.cfg.Home)})
		}
		m.Close()
	}
	project, err := mcp.LoadFile(mcp.ProjectFile(d.dir))
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		out = append(out, finding{levelFail, "mcp", err.Error(), "correct " + mcp.ProjectFile(d.dir)})
	case len(project) > 0:
		out = append(out, finding{levelInfo, "mcp", fmt.Sprintf("%s in %s, not started", plural(len(project), "project server"), mcp.ProjectFile(d.dir)),
			"they start once you allow them in a session"})
	}
	if len(out) == 0 {
		out = append(out, finding{levelInfo, "mcp", "no MCP servers configured", ""})
	}
	return out
}

// editorKit is an editor tandem has a kit for, and where its setup shows
// that the kit is installed.
type editorKit struct {
	name     string
	programs []string
	config   []string // files or directories, under $HOME, that mention tandem once installed
	readme   string
}

func editorKits() []editorKit {
	return []editorKit{
		{"zed", []string{"zed", "zeditor"}, []string{".config/zed/settings.json"}, "editors/zed/README.md"},
		{"neovim", []string{"nvim"}, []string{".config/nvim"}, "editors/neovim/README.md"},
		{"vscode", []string{"code", "codium"}, []string{".vscode/extensions", ".vscode-oss/extensions"}, "editors/vscode/README.md"},
		{"emacs", []string{"emacs"}, []string{".emacs.d", ".config/emacs", ".emacs"}, "editors/emacs/README.md"},
		{"helix", []string{"hx", "helix"}, []string{".config/helix/languages.toml"}, "README.md (Helix)"},
	}
}

func (d *doctor) checkEditors(context.Context) []finding {
	home := d.m.Getenv("HOME")
	var out []finding
	for _, k := range editorKits() {
		path := ""
		for _, p := range k.programs {
			if found, err := exec.LookPath(p); err == nil {
				path = found
				break
			}
		}
		if path == "" {
			continue
		}
		if mentionsTandem(home, k.config) {
			out = append(out, finding{levelOK, k.name, path + ", tandem configured", ""})
		} else {
			out = append(out, finding{levelWarn, k.name, path + ", tandem not configured", "see " + k.readme})
		}
	}
	if len(out) == 0 {
		out = append(out, finding{levelInfo, "editors", "none of zed, nvim, code, emacs, hx on PATH", "tandem run works without one"})
	}
	return out
}

// mentionsTandem reports whether any of the paths under home names tandem:
// a file containing the word, or a directory with an entry or a small file
// that does (an installed extension, a plugin spec). The walk is bounded.
func mentionsTandem(home string, paths []string) bool {
	if home == "" {
		return false
	}
	budget := 2000
	for _, p := range paths {
		found := false
		filepath.WalkDir(filepath.Join(home, p), func(path string, e fs.DirEntry, err error) error {
			budget--
			if err != nil || found || budget < 0 {
				return filepath.SkipAll
			}
			if strings.Contains(strings.ToLower(e.Name()), "tandem") {
				found = true
				return filepath.SkipAll
			}
			if info, err := e.Info(); err == nil && e.Type().IsRegular() && info.Size() < 1<<20 {
				if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), "tandem") {
					found = true
					return filepath.SkipAll
				}
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}
