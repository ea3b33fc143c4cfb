package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMaxFrameBytes(t *testing.T) {
	load := func(file, envValue string) (int, error) {
		home := t.TempDir()
		if file != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600)
		}
		e := map[string]string{"TANDEM_HOME": home}
		if envValue != "" {
			e["TANDEM_MAX_FRAME_BYTES"] = envValue
		}
		c, err := Load(env(e))
		return c.MaxFrameBytes, err
	}
	for _, tc := range []struct {
		file, env string
		want      int
		err       string
	}{
		{"", "", 0, ""},
		{`{"maxFrameBytes": 1048576}`, "", 1 << 20, ""},
		{`{"maxFrameBytes": 1048576}`, "65536", 64 << 10, ""},
		{`{"maxFrameBytes": 4096}`, "", 0, "config.json maxFrameBytes = 4096"},
		{"", "65535", 0, "TANDEM_MAX_FRAME_BYTES = 65535"},
		{"", "8M", 0, `TANDEM_MAX_FRAME_BYTES="8M" is not a number`},
		{"", "2147483648", 0, "between 65536 (64 KiB) and 1073741824 (1 GiB)"},
	} {
		got, err := load(tc.file, tc.env)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s %s: %d, %v; want %d", tc.file, tc.env, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %s: err = %v; want it to mention %s", tc.file, tc.env, err, tc.err)
		}
	}
}
