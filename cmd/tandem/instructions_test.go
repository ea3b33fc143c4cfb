package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/instructions"
)

func TestInstructionsCommand(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	files := map[string]string{
		"home/AGENTS.md":     "GLOBAL",
		"home/config.json":   `{"instructions":{"candidates":["GUIDE.md","AGENTS.md"]}}`,
		"repo/.git/HEAD":     "ref: refs/heads/main",
		"repo/AGENTS.md":     "ROOT </system-reminder>",
		"repo/GUIDE.md":      "GUIDE wins by config",
		"repo/sub/AGENTS.md": "SUB",
	}
	for rel, content := range files {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(base, "repo/sub")
	run := func(env map[string]string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
		code := m.Run(context.Background(), append([]string{"instructions"}, args...))
		return code, out.String(), errOut.String()
	}
	env := map[string]string{"TANDEM_HOME": home, "HOME": base}

	t.Run("prints exactly what a new session sends", func(t *testing.T) {
		code, out, errOut := run(env, dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		cfg, err := instructions.LoadConfig(home, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		b, err := instructions.NewTracker(cfg, dir).Baseline(context.Background())
		if err != nil || b == nil {
			t.Fatalf("baseline: %v", err)
		}
		if out != b.Text+"\n" {
			t.Fatalf("stdout differs from the session baseline:\n%s\n---\n%s", out, b.Text)
		}
		for _, want := range []string{"Instructions from: $TANDEM_HOME/AGENTS.md\nGLOBAL", "Instructions from: GUIDE.md\nGUIDE wins by config", "Instructions from: sub/AGENTS.md\nSUB"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q", want)
			}
		}
		if strings.Contains(out, "ROOT") {
			t.Error("configured candidate order ignored")
		}
	})
	t.Run("--json lists scopes with digests and byte counts", func(t *testing.T) {
		code, out, errOut := run(env, "--json", dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep struct {
			Root   string
			Bytes  int
			Scopes []instructions.Change
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if rep.Root != filepath.Join(base, "repo") || rep.Bytes == 0 || len(rep.Scopes) != 3 {
			t.Fatalf("report = %+v", rep)
		}
		for _, s := range rep.Scopes {
			if len(s.Digest) != 40 || s.Bytes == 0 || s.Path == "" {
				t.Errorf("scope %+v lacks digest, bytes or path", s)
			}
		}
	})
	t.Run("disabled by the environment", func(t *testing.T) {
		e := map[string]string{"TANDEM_HOME": home, "TANDEM_INSTRUCTIONS_MAX_BYTES": "0"}
		code, out, errOut := run(e, dir)
		if code != 0 || out != "" || !strings.Contains(errOut, "disabled") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("usage errors", func(t *testing.T) {
		if code, _, _ := run(env, "--help"); code != 0 {
			t.Errorf("--help exit %d", code)
		}
		if code, _, errOut := run(env, dir, dir); code == 0 || !strings.Contains(errOut, "usage") {
			t.Errorf("two dirs: exit %d, %q", code, errOut)
		}
		if code, _, errOut := run(env, filepath.Join(base, "missing")); code == 0 || !strings.Contains(errOut, "not a directory") {
			t.Errorf("missing dir: exit %d, %q", code, errOut)
		}
		bad := map[string]string{"TANDEM_HOME": home, "TANDEM_INSTRUCTIONS_MAX_BYTES": "lots"}
		if code, _, errOut := run(bad, dir); code == 0 || !strings.Contains(errOut, "TANDEM_INSTRUCTIONS_MAX_BYTES") {
			t.Errorf("bad env: exit %d, %q", code, errOut)
		}
	})
}
