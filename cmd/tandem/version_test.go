package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// A plain `go build` in a clone prints the commit, its date and the Go
// version from the build info, and a pseudo-version naming that commit.
func TestVersionFromBuildInfo(t *testing.T) {
	root := testenv.RepoRoot(t)
	git := testenv.Program(t, "git")
	rev, err := exec.Command(git, "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	head := strings.TrimSpace(string(rev))
	// -buildvcs=true: a GOFLAGS=-buildvcs=false in the environment (this
	// machine's go env has one) would leave the build info without them.
	b, err := exec.Command(buildTandem(t, "-buildvcs=true"), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	field := map[string]string{}
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		field[k] = strings.TrimSpace(v)
	}
	if want := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH; field["go"] != want {
		t.Errorf("go %q, want %q", field["go"], want)
	}
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		// Go stamps no VCS information in a git worktree (its .git is a
		// file), so such a build is plainly a development one.
		if lines[0] != "tandem dev" || len(field) != 1 {
			t.Errorf("a build in a worktree says\n%s\nwant only the version dev and the Go version", out)
		}
		return
	}
	first, _ := strings.CutPrefix(lines[0], "tandem ")
	if first == "dev" || !strings.Contains(first, head[:12]) {
		t.Errorf("first line %q: want the pseudo-version of %s", lines[0], head[:12])
	}
	if c, _, _ := strings.Cut(field["commit"], " "); c != head {
		t.Errorf("commit %q, want %s\n%s", field["commit"], head, out)
	}
	if _, err := time.Parse(time.RFC3339, field["date"]); err != nil {
		t.Errorf("date %q: %v", field["date"], err)
	}
}

// What each kind of build records becomes the version, the commit and the
// date, and only a release is held to plugins' version ranges.
func TestReadBuild(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "a19bc7e087c21358e02949a90a46e62c1cf191d9"},
		{Key: "vcs.time", Value: "2026-12-04T18:00:00+01:00"}, {Key: "vcs.modified", Value: "true"}}
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261204170000-a19bc7e087c2+dirty"}, Settings: vcs}
	for _, c := range []struct {
		name                  string
		bi                    *debug.BuildInfo
		version, commit, date string
		want                  buildInfo
	}{
		{name: "checkout", bi: checkout, want: buildInfo{Version: "v0.0.0-20261204170000-a19bc7e087c2+dirty",
			Commit: "a19bc7e087c21358e02949a90a46e62c1cf191d9", Modified: true, Date: "2026-12-04T17:00:00Z"}},
		{name: "release", bi: checkout, version: "1.2.3", commit: "0123", date: "2026-01-02T03:04:05Z",
			want: buildInfo{Version: "1.2.3", Release: true, Commit: "0123", Date: "2026-01-02T03:04:05Z"}},
		{name: "go install", bi: &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			want: buildInfo{Version: "v1.4.0", Release: true}},
		{name: "no build info", want: buildInfo{Version: "dev"}},
		{name: "devel", bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, want: buildInfo{Version: "dev"}},
	} {
		got := readBuild(c.bi, c.version, c.commit, c.date)
		c.want.Go = got.Go
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if v := readBuild(checkout, "", "", "").PluginVersion(); v != "dev" {
		t.Errorf("a checkout's plugin version is %q, want dev", v)
	}
	if v := readBuild(nil, "1.2.3", "", "").PluginVersion(); v != "1.2.3" {
		t.Errorf("a release's plugin version is %q, want 1.2.3", v)
	}
}

// The release build's stamps are what `tandem version`, ACP's agentInfo
// and LSP's serverInfo say.
func TestVersionStamped(t *testing.T) {
	bin := buildTandem(t, "-ldflags", "-X main.version=1.2.3 -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-01-02T03:04:05Z")
	home := t.TempDir()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "tandem 1.2.3\ncommit  0123456789abcdef0123456789abcdef01234567\ndate    2026-01-02T03:04:05Z\ngo      " +
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if string(out) != want {
		t.Errorf("tandem version:\n%s\nwant:\n%s", out, want)
	}

	for _, kind := range []string{"acp", "lsp"} {
		cmd := exec.Command(bin, kind)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home}
		cmd.Dir = home
		in, stdout := testenv.Start(t, cmd, &testenv.SyncBuffer{})
		framing := testenv.Lines
		params := map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}
		if kind == "lsp" {
			framing = testenv.ContentLength
			params = map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}
		}
		peer := testenv.NewPeer(t, stdout, in, framing, nil)
		var res struct {
			AgentInfo  struct{ Version string } `json:"agentInfo"`
			ServerInfo struct{ Version string } `json:"serverInfo"`
		}
		var raw json.RawMessage
		if err := peer.Call("initialize", params, &raw); err != nil {
			t.Fatalf("%s initialize: %v", kind, err)
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if got := res.AgentInfo.Version + res.ServerInfo.Version; got != "1.2.3" {
			t.Errorf("%s initialize names version %q, want 1.2.3: %s", kind, got, raw)
		}
		peer.Close()
		if err := testenv.WaitExit(cmd, 10*time.Second); err != nil {
			t.Logf("%s exit: %v", kind, err)
		}
	}
}

// buildTandem builds cmd/tandem with the given flags into a temporary
// directory.
func buildTandem(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tandem")
	build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, "./cmd/tandem")...)
	build.Dir = testenv.RepoRoot(t)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", flags, err, b)
	}
	return bin
}
