package mcp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The JSON of Server is ACP's session/new mcpServers entry, both ways.
func TestServerACPShape(t *testing.T) {
	for _, tc := range []struct {
		name string
		wire string
		want Server
	}{
		{"stdio", `{"name":"fs","command":"npx","args":["-y","pkg"],"env":[{"name":"A","value":"1"}]}`,
			Server{Name: "fs", Type: TypeStdio, Command: "npx", Args: []string{"-y", "pkg"}, Env: []NameValue{{"A", "1"}}}},
		{"http", `{"type":"http","name":"web","url":"https://x/mcp","headers":[{"name":"Authorization","value":"Bearer t"}]}`,
			Server{Name: "web", Type: TypeHTTP, URL: "https://x/mcp", Headers: []NameValue{{"Authorization", "Bearer t"}}}},
		{"sse", `{"type":"sse","name":"old","url":"http://localhost:1/sse","headers":[]}`,
			Server{Name: "old", Type: TypeSSE, URL: "http://localhost:1/sse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got Server
			if err := json.Unmarshal([]byte(tc.wire), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("decoded %+v, want %+v", got, tc.want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var back Server
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("round trip: %s -> %+v (%v)", b, back, err)
			}
			if got.Type == TypeStdio && strings.Contains(string(b), `"type"`) {
				t.Errorf("stdio entry carries a type, which ACP's do not: %s", b)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		s    Server
		want string // "" = valid
	}{
		{Server{Name: "a", Type: TypeStdio, Command: "x"}, ""},
		{Server{Name: "a", Command: "x"}, ""},
		{Server{Type: TypeStdio, Command: "x"}, "name is empty"},
		{Server{Name: "a", Type: TypeStdio}, "needs a command"},
		{Server{Name: "a", Type: TypeHTTP, URL: "localhost:8080"}, "http(s) URL"},
		{Server{Name: "a", Type: TypeSSE, URL: "https://h/sse"}, ""},
		{Server{Name: "a", Type: "websocket", URL: "ws://h"}, "stdio, http or sse"},
	} {
		err := tc.s.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidServer)) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.s, err, tc.want)
		}
	}
}

func TestParseFile(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []Server
		err        string
	}{
		{"servers key", `{"servers":{
			"web":{"url":"https://x/mcp","headers":{"X-B":"2","X-A":"1"}},
			"fs":{"command":"npx","args":["-y","pkg"],"env":{"K":"V"}},
			"old":{"type":"sse","url":"http://h/sse"}}}`,
			[]Server{
				{Name: "fs", Type: TypeStdio, Command: "npx", Args: []string{"-y", "pkg"}, Env: []NameValue{{"K", "V"}}},
				{Name: "old", Type: TypeSSE, URL: "http://h/sse"},
				{Name: "web", Type: TypeHTTP, URL: "https://x/mcp", Headers: []NameValue{{"X-A", "1"}, {"X-B", "2"}}},
			}, ""},
		{"mcpServers key", `{"mcpServers":{"fs":{"command":"srv"}}}`,
			[]Server{{Name: "fs", Type: TypeStdio, Command: "srv"}}, ""},
		{"bad entry kept apart", `{"servers":{"ok":{"command":"srv"},"bad":{"type":"http"}}}`,
			[]Server{{Name: "ok", Type: TypeStdio, Command: "srv"}}, `"bad"`},
		{"not JSON", `{"servers":`, nil, "invalid MCP server entry"},
		{"empty", `{}`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseFile([]byte(tc.file))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("servers = %+v, want %+v", got, tc.want)
			}
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// Editor entries beat the project's, which beat the user's.
func TestLoadAndMergePrecedence(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "mcp.json"), `{"servers":{"a":{"command":"user-a"},"b":{"command":"user-b"},"c":{"command":"user-c"}}}`)
	write(filepath.Join(root, ".tandem", "mcp.json"), `{"servers":{"b":{"command":"project-b"},"c":{"command":"project-c"},"d":{"command":"project-d"}}}`)
	files, err := Load(home, root)
	if err != nil {
		t.Fatal(err)
	}
	editor := []Server{{Name: "c", Type: TypeHTTP, URL: "http://editor/c"}, {Name: "e", Command: "editor-e"}}
	var got []string
	for _, s := range Merge(files, editor) {
		got = append(got, s.Name+"="+s.Command+s.URL)
	}
	want := []string{"a=user-a", "b=project-b", "c=http://editor/c", "d=project-d", "e=editor-e"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged = %v, want %v", got, want)
	}

	if s, err := Load(t.TempDir(), t.TempDir()); err != nil || len(s) != 0 {
		t.Errorf("no files: %v, %v", s, err)
	}
	write(filepath.Join(root, ".tandem", "mcp.json"), `not json`)
	s, err := Load(home, root)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, ".tandem", "mcp.json")) || len(s) != 3 {
		t.Errorf("broken project file: %d servers, err %v; want the user's 3 and an error naming the file", len(s), err)
	}
}

func TestServerStringHidesSecrets(t *testing.T) {
	s := Server{Name: "w", Type: TypeHTTP, URL: "https://user:pw@h/mcp?token=abc", Headers: []NameValue{{"Authorization", "Bearer xyz"}}}
	if str := s.String(); strings.Contains(str, "abc") || strings.Contains(str, "pw") || strings.Contains(str, "xyz") {
		t.Errorf("String() = %q leaks a secret", str)
	}
}

func TestServerEnvWithholdsProviderKeys(t *testing.T) {
	base := []string{"PATH=/bin", "ANTHROPIC_API_KEY=secret", "OPENAI_API_KEY=secret2", "KEEP=1", "OVER=old"}
	got := serverEnv(base, []NameValue{{"OVER", "new"}, {"OPENAI_API_KEY", "given"}})
	want := []string{"PATH=/bin", "KEEP=1", "OVER=new", "OPENAI_API_KEY=given"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("env = %v, want %v", got, want)
	}
}

// Load reads (as a front door would, in two LoadFile calls) the user's and the project's servers, project entries winning
// on a name clash. Editor-supplied servers go on top with
// Merge(files, editor). An empty home or root skips that file. Whatever
// could be read is returned even when the error is not nil.
func Load(home, root string) ([]Server, error) {
	var lists [][]Server
	var errs []error
	for _, p := range []string{ifSet(home, UserFile), ifSet(root, ProjectFile)} {
		if p == "" {
			continue
		}
		list, err := LoadFile(p)
		if err != nil {
			errs = append(errs, err)
		}
		lists = append(lists, list)
	}
	return Merge(lists...), errors.Join(errs...)
}

func ifSet(dir string, path func(string) string) string {
	if dir == "" {
		return ""
	}
	return path(dir)
}
