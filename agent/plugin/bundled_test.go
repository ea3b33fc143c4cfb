package plugin_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/plugin"
)

// A bundled plugin that ships enabled runs without the user's say, from a
// copy taken out of the binary, until the user disables it.
func TestBundledDefaultEnabled(t *testing.T) {
	python(t)
	src, err := os.ReadFile("testdata/testplugin.py")
	if err != nil {
		t.Fatal(err)
	}
	bundled := fstest.MapFS{
		"hello/plugin.json": {Data: []byte(`{"name":"hello","version":"1.0.0","defaultEnabled":true,"main":"python3 plugin.py",
			"permissions":{"systemPrompt":true},"config":{"type":"object","properties":{"promptRule":{"type":"string","default":"Say hello."}}}}`)},
		"hello/plugin.py": {Data: src, Mode: 0o755},
		"README.md":       {Data: []byte("not a plugin")},
	}
	home, root := t.TempDir(), t.TempDir()
	srv := llmtest.NewServer(t)
	provider := anthropic.New(anthropic.Options{APIKey: "test", BaseURL: srv.URL})
	rt := plugin.New(plugin.Options{Home: home, Bundled: bundled, Environ: os.Environ(), Poll: 50 * time.Millisecond})
	cfg := agent.Config{Provider: provider, Model: "m", Home: home}
	rt.Contribute(&cfg.Pipeline)
	a := agent.New(cfg)
	defer a.Close(context.Background())
	s, err := a.NewSession(context.Background(), agent.SessionOptions{Cwd: root, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}}, llmtest.Reply{Text: []string{"hi"}})
	prompt(t, s, "one")
	cat, err := rt.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Disable("hello"); err != nil {
		t.Fatal(err)
	}
	prompt(t, s, "two")
	reqs := srv.Requests()
	if !strings.HasSuffix(reqs[0].System, "Say hello.") || strings.Contains(reqs[1].System, "Say hello.") {
		t.Errorf("system prompts: %q / %q", reqs[0].System, reqs[1].System)
	}
	if err := plugin.Remove(mustFind(t, cat, "hello").Plugin); err == nil {
		t.Error("a bundled plugin was removed")
	}
}

func mustFind(t *testing.T, c *plugin.Catalog, name string) *plugin.Status {
	t.Helper()
	s, err := c.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
