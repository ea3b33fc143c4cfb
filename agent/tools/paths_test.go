package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/instructions"
)

// escapeTree builds a workspace root beside an "outside" directory, with
// symlinks leading in and out of the root in every way a path can.
func escapeTree(t *testing.T) (root, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	writeTree(t, base, map[string]string{
		"root/a.txt":         "a\n",
		"root/sub/b.txt":     "b\n",
		"outside/secret.txt": "secret\n",
		"root-evil/x":        "evil\n",
	})
	links := map[string]string{
		"link_in":       "sub",
		"link_out":      outside,
		"link_out_rel":  "../outside",
		"file_link_out": filepath.Join(outside, "secret.txt"),
		"dangling_out":  filepath.Join(base, "nowhere", "x"),
		"dangling_in":   "sub/new.txt",
		"sub/deep_out":  "../../outside",
		"chain":         "link_in/../link_out",
		"loop1":         "loop2",
		"loop2":         "loop1",
		"abs_in":        filepath.Join(root, "sub"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(root, filepath.Join(base, "rootlink")); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func TestResolveRefusesEscapes(t *testing.T) {
	root, outside := escapeTree(t)
	cases := []string{
		"..",
		"../outside/secret.txt",
		"./../outside",
		"sub/../../outside/secret.txt",
		"sub/./../../outside",
		"link_in/../../outside/secret.txt",
		"/etc/passwd",
		filepath.Join(outside, "secret.txt"),
		root + "/../outside/secret.txt",
		root + "-evil/x", // shares the root's name as a prefix
		"link_out",
		"link_out/secret.txt",
		"link_out/new-file.txt", // a new file whose parent leads out
		"link_out_rel/secret.txt",
		"file_link_out",
		"dangling_out", // writing it would create a file outside
		"sub/deep_out/secret.txt",
		"chain/secret.txt",
		"loop1",
		"a.txt\x00.png",
		"",
		"~",
		"~/.ssh/id_rsa",
		"~root/.bashrc",
		`C:\Windows\System32`,
		"c:/windows/win.ini",
		"C:",
		`\\server\share\file`,
		"//server/share/file",
		`..\..\outside\secret.txt`,
		"%2e%2e/outside/secret.txt",
		"..%2foutside",
		"%2E%2E%5Coutside",
		"sub%00.txt",
		"file:///etc/passwd",
	}
	for _, p := range cases {
		got, err := Resolve(root, p)
		if err == nil {
			t.Errorf("Resolve(%q) = %q, want refusal", p, got)
			continue
		}
		if !errors.Is(err, ErrPathRefused) {
			t.Errorf("Resolve(%q) error %v does not wrap ErrPathRefused", p, err)
		}
		if !strings.Contains(err.Error(), "refused") {
			t.Errorf("Resolve(%q) error %q is not clear", p, err)
		}
	}
	if len(cases) < 20 {
		t.Fatalf("only %d escape forms", len(cases))
	}
}

func TestResolveAccepts(t *testing.T) {
	root, _ := escapeTree(t)
	base := filepath.Dir(root)
	cases := []struct {
		root, path, want string
	}{
		{root, "a.txt", "a.txt"},
		{root, "./sub/b.txt", "sub/b.txt"},
		{root, "sub/../a.txt", "a.txt"},
		{root, filepath.Join(root, "sub", "b.txt"), "sub/b.txt"},
		{root, ".", "."},
		{root, "link_in/b.txt", "sub/b.txt"},
		{root, "abs_in/b.txt", "sub/b.txt"},
		{root, "dangling_in", "sub/new.txt"},
		{root, "new/dir/file.txt", "new/dir/file.txt"},
		{root, "sub/b.txt/child", "sub/b.txt/child"}, // not a dir: the I/O reports it
		{root, "name with spaces/ü.txt", "name with spaces/ü.txt"},
		{root, "..foo", "..foo"},
		{root, "a%20b.txt", "a%20b.txt"},
		// The root as the user spells it, through a symlink.
		{filepath.Join(base, "rootlink"), "a.txt", "a.txt"},
		{filepath.Join(base, "rootlink"), filepath.Join(base, "rootlink", "sub", "b.txt"), "sub/b.txt"},
		{filepath.Join(base, "rootlink"), filepath.Join(root, "a.txt"), "a.txt"},
	}
	for _, c := range cases {
		got, err := Resolve(c.root, c.path)
		if err != nil {
			t.Errorf("Resolve(%q, %q): %v", c.root, c.path, err)
			continue
		}
		want := filepath.Join(root, filepath.FromSlash(c.want))
		if got != want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.root, c.path, got, want)
		}
	}
}

func TestProtected(t *testing.T) {
	root := "/work/repo"
	cases := []struct {
		path string
		want bool
	}{
		{".git/config", true},
		{".git", true},
		{".GIT/config", true},
		{"sub/.Tandem/settings.json", true},
		{"vendor/lib/.git/HEAD", true},
		{".tandem/config.json", true},
		{".vscode/settings.json", true},
		{".claude/commands/review.md", true},
		{".claude/settings.json", true},
		{".agents/skills/pdf/SKILL.md", true},
		{"app.code-workspace", true},
		{"sub/team.CODE-WORKSPACE", true},
		{"AGENTS.md", true},
		{"CLAUDE.md", true},
		{"AGENTS.local.md", true},
		{"deep/er/CLAUDE.local.md", true},
		{"pkg/agents.md", true}, // case-insensitive file systems
		{"/elsewhere/main.go", true},
		{"main.go", false},
		{"docs/AGENTS.md.bak", false},
		{"gitignore/.gitignore", false},
		{".github/workflows/ci.yml", false},
		{"src/git/x.go", false},
		{"README.md", false},
		{"docs/TEAM.md", true}, // a configured candidate
		{"TEAM.local.md", true},
		{"TEAM.md.orig", false},
	}
	names := instructions.Config{Candidates: []string{"TEAM.md"}, LocalCandidates: []string{"TEAM.local.md"}}.FileNames()
	for _, c := range cases {
		abs := c.path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, c.path)
		}
		if got := Protected(root, abs, names); got != c.want {
			t.Errorf("Protected(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// Every path-taking tool refuses an escape before asking anything, and the
// file outside stays untouched.
func TestToolsRefuseEscapesBeforeAsking(t *testing.T) {
	root, outside := escapeTree(t)
	secret := filepath.Join(outside, "secret.txt")
	calls := []struct {
		tool Tool
		args map[string]any
	}{
		{NewReadFile(), map[string]any{"path": "link_out/secret.txt"}},
		{NewReadFile(), map[string]any{"path": "../outside/secret.txt"}},
		{NewListFiles(), map[string]any{"path": "link_out"}},
		{NewListFiles(), map[string]any{"path": ".."}},
		{NewSearchFiles(), map[string]any{"pattern": "secret", "path": "../outside"}},
		{NewSearchFiles(), map[string]any{"pattern": "secret", "path": "file_link_out"}},
		{NewWriteFile(), map[string]any{"path": "file_link_out", "content": "pwned"}},
		{NewWriteFile(), map[string]any{"path": "dangling_out", "content": "pwned"}},
		{NewWriteFile(), map[string]any{"path": secret, "content": "pwned"}},
		{NewEditFile(), map[string]any{"path": "link_out_rel/secret.txt", "old_string": "secret", "new_string": "pwned"}},
		{NewEditFile(), map[string]any{"path": "link_out/fresh.txt", "old_string": "", "new_string": "pwned"}},
	}
	for _, c := range calls {
		f := &fixture{root: root, host: &testHost{}, asker: &asker{}}
		f.env = &Env{Root: root, Host: f.host, Ask: f.asker.ask}
		res := f.run(t, c.tool, c.args)
		if !res.IsError || !strings.Contains(res.Output, "refused") {
			t.Errorf("%s %v: got %+v, want a refusal", c.tool.Info().Name, c.args, res)
		}
		if f.asker.count() != 0 {
			t.Errorf("%s %v: asked for permission before refusing", c.tool.Info().Name, c.args)
		}
		if len(res.Touched) != 0 {
			t.Errorf("%s %v: touched %v", c.tool.Info().Name, c.args, res.Touched)
		}
	}
	if data, _ := os.ReadFile(secret); string(data) != "secret\n" {
		t.Fatalf("outside file changed to %q", data)
	}
	if _, err := os.Lstat(filepath.Join(outside, "fresh.txt")); err == nil {
		t.Fatal("a file was created outside the root")
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(root), "nowhere")); err == nil {
		t.Fatal("a dangling link's target was created")
	}
}

// The spelling rules of both systems, checked on any OS: on Windows its own
// absolute forms pass (Resolve then holds them to the root), what Win32
// reads in surprising ways does not; elsewhere Windows forms are refused.
func TestCheckSpellingPerOS(t *testing.T) {
	for _, c := range []struct {
		p       string
		windows bool
		ok      bool
	}{
		{`src\a.go`, true, true},
		{`C:\Repo\a.go`, true, true},
		{`c:/repo/a.go`, true, true},
		{`\\server\share\repo\a.go`, true, true},
		{`C:a.go`, true, false},
		{`C:`, true, false},
		{`\Repo\a.go`, true, false},
		{`\\?\C:\Repo\a.go`, true, false},
		{`\\.\pipe\x`, true, false},
		{`.git::$INDEX_ALLOCATION\config`, true, false},
		{`a.txt:secret`, true, false},
		{`file:///C:/Repo/a.go`, true, false},
		{`src%5ca.go`, true, false},
		{`src\a.go`, false, false},
		{`C:\Repo\a.go`, false, false},
		{`\\server\share\a`, false, false},
		{`src/a.go`, false, true},
	} {
		err := checkSpelling(c.p, c.windows)
		if (err == nil) != c.ok {
			t.Errorf("checkSpelling(%q, windows=%v) = %v, want ok=%v", c.p, c.windows, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrPathRefused) {
			t.Errorf("checkSpelling(%q) = %v, not ErrPathRefused", c.p, err)
		}
	}
}
