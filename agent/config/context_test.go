package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContextSettings(t *testing.T) {
	load := func(file string, e map[string]string) (Config, error) {
		home := t.TempDir()
		if file != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600)
		}
		e["TANDEM_HOME"] = home
		return Load(env(e))
	}
	c, err := load(`{"contextWindows":{"qwen3:8b":40960},"compactAt":0.7}`, map[string]string{"TANDEM_CONTEXT_WINDOW": "65536"})
	if err != nil {
		t.Fatal(err)
	}
	if c.ContextWindows["qwen3:8b"] != 40960 || c.ContextWindow != 65536 || c.CompactAt != 0.7 {
		t.Errorf("got windows %v env %d compactAt %v", c.ContextWindows, c.ContextWindow, c.CompactAt)
	}
	if c, _ := load("", map[string]string{}); c.CompactAt != DefaultCompactAt || c.ContextWindow != 0 {
		t.Errorf("defaults: compactAt %v window %d", c.CompactAt, c.ContextWindow)
	}
	for _, bad := range []struct{ file, env, want string }{
		{`{"contextWindows":{"m":0}}`, "", "contextWindows"},
		{`{"compactAt":1.5}`, "", "compactAt"},
		{"", "128k", "TANDEM_CONTEXT_WINDOW"},
	} {
		e := map[string]string{}
		if bad.env != "" {
			e["TANDEM_CONTEXT_WINDOW"] = bad.env
		}
		if _, err := load(bad.file, e); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s %s: err = %v, want it to mention %s", bad.file, bad.env, err, bad.want)
		}
	}
}
