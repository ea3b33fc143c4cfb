package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The MCP startup bound comes from TANDEM_MCP_STARTUP_SECONDS, then
// config.json's mcpStartupSeconds; 0 leaves the default to the agent.
func TestMCPStartupWait(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		env        map[string]string
		want       time.Duration
		wantErr    string
	}{
		{name: "unset", env: map[string]string{}, want: 0},
		{name: "file", file: `{"mcpStartupSeconds": 2.5}`, env: map[string]string{}, want: 2500 * time.Millisecond},
		{name: "env wins", file: `{"mcpStartupSeconds": 2}`, env: map[string]string{"TANDEM_MCP_STARTUP_SECONDS": "30"}, want: 30 * time.Second},
		{name: "no wait", env: map[string]string{"TANDEM_MCP_STARTUP_SECONDS": "-1"}, want: -time.Second},
		{name: "not a number", env: map[string]string{"TANDEM_MCP_STARTUP_SECONDS": "soon"}, wantErr: "TANDEM_MCP_STARTUP_SECONDS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			tc.env["TANDEM_HOME"] = home
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Load(env(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to name %s", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.MCPStartupWait != tc.want {
				t.Errorf("MCPStartupWait = %s, %v; want %s", c.MCPStartupWait, err, tc.want)
			}
		})
	}
}
