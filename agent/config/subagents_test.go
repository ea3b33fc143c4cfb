package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubagentsConfig reads "subagents": {"maxParallel": N}, refuses a
// negative bound.
func TestSubagentsConfig(t *testing.T) {
	for _, tt := range []struct {
		file    string
		want    int
		wantErr string
	}{
		{`{}`, 0, ""},
		{`{"subagents": {"maxParallel": 5}}`, 5, ""},
		{`{"subagents": {"maxParallel": -1}}`, 0, "subagents.maxParallel is -1"},
		{`{"subagents": {"maxParallel": "two"}}`, 0, "cannot unmarshal"},
	} {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(tt.file), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(env(map[string]string{"TANDEM_HOME": home}))
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.file, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.file, err)
		case c.Subagents.MaxParallel != tt.want:
			t.Errorf("%s: maxParallel %d", tt.file, c.Subagents.MaxParallel)
		}
	}
}
