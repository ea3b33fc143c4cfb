//go:build unix

package instructions

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	cases := []struct {
		name    string
		file    string // config.json content; "" for none
		env     map[string]string
		want    func(home string) Config
		wantErr string
	}{
		{name: "no config file: defaults", want: func(h string) Config { return DefaultConfig(h) }},
		{name: "config without instructions key", file: `{"provider":"openai"}`, want: func(h string) Config { return DefaultConfig(h) }},
		{name: "every key", file: `{"instructions":{"candidates":["GUIDE.md","AGENTS.md"],"localCandidates":["GUIDE.local.md"],"maxBytes":1000,"maxSourceBytes":2048,"rootMarkers":[".hg",".git"]}}`,
			want: func(h string) Config {
				c := DefaultConfig(h)
				c.Candidates, c.LocalCandidates, c.RootMarkers = []string{"GUIDE.md", "AGENTS.md"}, []string{"GUIDE.local.md"}, []string{".hg", ".git"}
				c.MaxBytes, c.MaxSourceBytes = 1000, 2048
				return c
			}},
		{name: "unsafe names dropped", file: `{"instructions":{"candidates":["", ".", "..", "a/b", "a\\b", "OK.md"]}}`,
			want: func(h string) Config { c := DefaultConfig(h); c.Candidates = []string{"OK.md"}; return c }},
		{name: "empty lists stay empty", file: `{"instructions":{"candidates":[],"localCandidates":[]}}`,
			want: func(h string) Config {
				c := DefaultConfig(h)
				c.Candidates, c.LocalCandidates = []string{}, []string{}
				return c
			}},
		{name: "non-positive maxSourceBytes means the default", file: `{"instructions":{"maxSourceBytes":0}}`,
			want: func(h string) Config { return DefaultConfig(h) }},
		{name: "environment beats the file", file: `{"instructions":{"maxBytes":1000}}`, env: map[string]string{"TANDEM_INSTRUCTIONS_MAX_BYTES": "0"},
			want: func(h string) Config { c := DefaultConfig(h); c.MaxBytes = 0; return c }},
		{name: "negative maxBytes kept (disables)", file: `{"instructions":{"maxBytes":-1}}`,
			want: func(h string) Config { c := DefaultConfig(h); c.MaxBytes = -1; return c }},
		{name: "bad environment value", env: map[string]string{"TANDEM_INSTRUCTIONS_MAX_BYTES": "64k"}, wantErr: "TANDEM_INSTRUCTIONS_MAX_BYTES"},
		{name: "bad JSON", file: `{"instructions":{"maxBytes":"big"}}`, wantErr: "config.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.file != "" {
				write(t, filepath.Join(home, "config.json"), tc.file)
			}
			env := map[string]string{"TANDEM_HOME": home}
			for k, v := range tc.env {
				env[k] = v
			}
			got, err := LoadConfig("", func(k string) string { return env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one mentioning %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want(home)
			want.HomeLabel = "$TANDEM_HOME"
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestResolveHome(t *testing.T) {
	cases := []struct {
		env       map[string]string
		home      string
		wantLabel string
	}{
		{map[string]string{"HOME": "/u"}, "/u/.tandem", "~/.tandem"},
		{map[string]string{"HOME": "/u", "TANDEM_HOME": "/srv/t/"}, "/srv/t", "$TANDEM_HOME"},
		{map[string]string{"HOME": "/u", "TANDEM_HOME": "~/th"}, "/u/th", "$TANDEM_HOME"},
	}
	for _, tc := range cases {
		home, label := ResolveHome(func(k string) string { return tc.env[k] })
		if home != tc.home || label != tc.wantLabel {
			t.Errorf("%v: got %q %q, want %q %q", tc.env, home, label, tc.home, tc.wantLabel)
		}
	}
	// An explicit home with TANDEM_HOME unset is the default home.
	cfg, err := LoadConfig(t.TempDir(), func(string) string { return "" })
	if err != nil || cfg.HomeLabel != "~/.tandem" {
		t.Fatalf("label = %q, %v", cfg.HomeLabel, err)
	}
}

func TestFileNames(t *testing.T) {
	got := Config{Candidates: []string{"TEAM.md", "AGENTS.md", "../x.md"}, LocalCandidates: []string{}}.FileNames()
	want := []string{"AGENTS.md", "CLAUDE.md", "AGENTS.local.md", "CLAUDE.local.md", "TEAM.md"}
	if !slices.Equal(got, want) {
		t.Errorf("FileNames = %q, want %q (defaults always, unsafe names dropped, no duplicates)", got, want)
	}
}
