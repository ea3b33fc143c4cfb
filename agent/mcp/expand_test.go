package mcp

import (
	"reflect"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "EMPTY": "", "HOST": "h.example"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"Bearer ${TOKEN}", "Bearer t0k", ""},
		{"https://${HOST}/mcp?k=${TOKEN}", "https://h.example/mcp?k=t0k", ""},
		{"${MISSING:-fallback}", "fallback", ""},
		{"${EMPTY:-fallback}", "fallback", ""},
		{"[${EMPTY}]", "[]", ""},
		{"${MISSING:-}", "", ""},
		{"$TOKEN and $$ stay", "$TOKEN and $$ stay", ""},
		{"${MISSING}", "", "MISSING is not set"},
		{"${TOKEN", "", "without its closing }"},
		{"${1X}", "", "not a variable reference"},
		{"${A B}", "", "not a variable reference"},
	} {
		got, err := expand(tc.in, lookup)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// A server whose references cannot be resolved is reported and left out;
// the others load with their values filled in.
func TestParseFileExpandsEnvironment(t *testing.T) {
	env := map[string]string{"GH": "ghp_x", "BIN": "/opt/bin"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	got, err := parseFile([]byte(`{"servers":{
		"gh":{"command":"${BIN}/gh-mcp","args":["--token=${GH}","$LITERAL"],"env":{"GITHUB_TOKEN":"${GH}","LEVEL":"${LEVEL:-info}"}},
		"web":{"url":"https://api.example/${PATH_PART:-v1}/mcp","headers":{"Authorization":"Bearer ${GH}"}},
		"broken":{"command":"srv","env":{"KEY":"${NOT_SET}"}}}}`), lookup)
	want := []Server{
		{Name: "gh", Type: TypeStdio, Command: "/opt/bin/gh-mcp", Args: []string{"--token=ghp_x", "$LITERAL"},
			Env: []NameValue{{"GITHUB_TOKEN", "ghp_x"}, {"LEVEL", "info"}}},
		{Name: "web", Type: TypeHTTP, URL: "https://api.example/v1/mcp", Headers: []NameValue{{"Authorization", "Bearer ghp_x"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers = %+v\nwant %+v", got, want)
	}
	if err == nil || !strings.Contains(err.Error(), `"broken"`) || !strings.Contains(err.Error(), "NOT_SET is not set") {
		t.Errorf("err = %v, want the broken entry named with its variable", err)
	}
}
