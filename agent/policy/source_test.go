package policy

import (
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/tools"
)

// TestSourcesAndPaths runs the matcher over rules from several files
// (sources), Claude Code aliases and the three path forms.
func TestSourcesAndPaths(t *testing.T) {
	const home = "/home/u"
	read := func(p string) Call {
		return Call{Tool: tools.ReadFileName, Group: tools.GroupRead, Root: root, Path: p, Home: home}
	}
	withHome := func(c Call) Call { c.Home = home; return c }
	type rule struct{ list, text, source string }
	for _, tc := range []struct {
		name   string
		rules  []rule
		call   Call
		mode   Mode
		want   Decision
		reason string // a part of the reason
	}{
		{"user deny beats local allow", []rule{{"deny", "Bash(rm:*)", "~/.tandem/config.json"}, {"allow", "run_command(rm:*)", ".tandem/settings.local.json"}},
			run("rm -rf x"), ModeCode, Deny, "run_command(rm:*) in ~/.tandem/config.json denies"},
		{"project ask beats user allow", []rule{{"allow", "Bash(git:*)", "~/.tandem/config.json"}, {"ask", "Bash(git push:*)", ".tandem/settings.json"}},
			run("git push origin"), ModeCode, Ask, "run_command(git push:*) (.tandem/settings.json) asks"},
		{"project ask beats full-auto", []rule{{"ask", "Bash(git push:*)", ".tandem/settings.json"}},
			run("git push"), ModeFullAuto, Ask, "asks every time"},
		{"allow names its file", []rule{{"allow", "Bash(go test:*)", ".tandem/settings.local.json"}},
			run("go test ./..."), ModeCode, Allow, "run_command(go test:*) (.tandem/settings.local.json) allows it"},
		{"compound needs every part, across files", []rule{{"allow", "Bash(go test:*)", "a"}, {"allow", "run_command(go vet:*)", "b"}},
			run("go vet ./... && go test ./... && curl x"), ModeCode, Ask, "code mode asks"},
		{"Edit alias covers write_file", []rule{{"allow", "Edit(src/**)", "a"}},
			Call{Tool: tools.WriteFileName, Group: tools.GroupEdit, Root: root, Path: root + "/src/x.go"}, ModeCode, Allow, ""},
		{"Read deny on a read", []rule{{"deny", "Read(.env)", ".tandem/settings.json"}},
			read(root + "/.env"), ModeCode, Deny, "reading .env was refused"},
		{"a bare name denies at any depth", []rule{{"deny", "Read(.env)", "x"}},
			read(root + "/sub/.env"), ModeCode, Deny, ""},
		{"./ anchors a deny", []rule{{"deny", "Read(./.env)", "x"}},
			read(root + "/sub/.env"), ModeCode, Allow, ""},
		{"Claude's / anchors a deny", []rule{{"deny", "Read(/.env)", "x"}},
			read(root + "/sub/.env"), ModeCode, Allow, ""},
		{"a slash anchors", []rule{{"deny", "read_file(sub/.env)", "x"}},
			read(root + "/other/sub/.env"), ModeCode, Allow, ""},
		{"home rule", []rule{{"deny", "Read(~/.ssh/**)", "x"}},
			read(home + "/.ssh/id_ed25519"), ModeCode, Deny, ""},
		{"home rule outside home", []rule{{"deny", "Read(~/.ssh/**)", "x"}},
			read("/etc/.ssh/x"), ModeCode, Allow, ""},
		{"absolute rule", []rule{{"allow", "edit_file(/work/repo/gen/**)", "x"}},
			withHome(edit("gen/a.go")), ModeCode, Allow, ""},
		{"Claude's // is absolute", []rule{{"allow", "Edit(//work/repo/gen/**)", "x"}},
			withHome(edit("gen/a.go")), ModeCode, Allow, ""},
		{"Claude's / is the root", []rule{{"allow", "Edit(/gen/**)", "x"}},
			withHome(edit("gen/a.go")), ModeCode, Allow, ""},
		{"absolute rule elsewhere", []rule{{"allow", "edit_file(/other/**)", "x"}},
			withHome(edit("gen/a.go")), ModeCode, Ask, ""},
		{"protected beats a file's allow", []rule{{"allow", "Edit(**)", "x"}},
			edit("AGENTS.md"), ModeCode, Ask, "protected"},
		{"mcp alias-free name", []rule{{"allow", "mcp__gh__issue", "x"}},
			mcpCall("mcp__gh__issue"), ModeCode, Allow, ""},
		{"a server rule covers its tools", []rule{{"allow", "mcp__gh", "x"}},
			mcpCall("mcp__gh__issue"), ModeCode, Allow, ""},
		{"a server wildcard covers its tools", []rule{{"deny", "mcp__gh__*", "x"}},
			mcpCall("mcp__gh__issue"), ModeFullAuto, Deny, ""},
		{"a server rule is that server only", []rule{{"allow", "mcp__gh", "x"}},
			mcpCall("mcp__ghx__issue"), ModeCode, Ask, ""},
		{"unknown tool names match nothing", []rule{{"deny", "WebFetch", "x"}},
			mcpCall("mcp__srv__fetch"), ModeFullAuto, Allow, ""},
	} {
		var rs Rules
		for _, r := range tc.rules {
			parsed, err := ParseRule(r.text)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			for i := range parsed {
				parsed[i].Source = r.source
			}
			d := map[string]Decision{"allow": Allow, "ask": Ask, "deny": Deny}[r.list]
			rs = rs.Merge(Rules{}.with(d, parsed))
		}
		v := Decide(tc.mode, tc.call, rs)
		if v.Decision != tc.want || !strings.Contains(v.Reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s with %q", tc.name, v.Decision, v.Reason, tc.want, tc.reason)
		}
	}
}

func (rs Rules) with(d Decision, rules []Rule) Rules {
	rs.Add(d, rules...)
	return rs
}

func TestMergeKeepsSourcesApart(t *testing.T) {
	a := Rules{Allow: []Rule{{Tool: "x", Source: "a"}}}
	b := Rules{Allow: []Rule{{Tool: "x", Source: "b"}, {Tool: "x", Source: "a"}}}
	m := a.Merge(b)
	if len(m.Allow) != 2 || len(a.Allow) != 1 {
		t.Errorf("merged %+v; a became %+v", m.Allow, a.Allow)
	}
	if !m.Remove(Allow, Rule{Tool: "x", Source: "b"}) || len(m.Allow) != 1 || m.Remove(Allow, Rule{Tool: "y"}) {
		t.Errorf("remove: %+v", m.Allow)
	}
}
