package policy

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/tools"
)

const root = "/work/repo"

func edit(rel string) Call {
	path := filepath.Join(root, rel)
	return Call{Tool: tools.EditFileName, Group: tools.GroupEdit, Root: root, Path: path,
		Protected: tools.Protected(root, path, []string{"AGENTS.md", "CLAUDE.md"})}
}

func run(line string) Call {
	return Call{Tool: tools.RunCommandName, Group: tools.GroupExecute, Root: root, Command: line}
}

func mcpCall(name string) Call { return Call{Tool: name, Group: tools.GroupMCP, Root: root} }

func mustRules(t *testing.T, allow, deny []string) Rules {
	t.Helper()
	var rs Rules
	for _, s := range allow {
		r, err := parseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rs.Add(Allow, r)
	}
	for _, s := range deny {
		r, err := parseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rs.Add(Deny, r)
	}
	return rs
}

// TestModesAndGroups is the mode table: every mode against every group,
// for a plain target and a protected one, with no grants.
func TestModesAndGroups(t *testing.T) {
	read := Call{Tool: tools.ReadFileName, Group: tools.GroupRead, Root: root}
	plan := Call{Tool: tools.UpdatePlanName, Group: tools.GroupPlan, Root: root}
	calls := map[string]Call{
		"read": read, "plan": plan, "edit": edit("src/a.go"), "protected": edit("AGENTS.md"),
		"nested protected": edit("pkg/.git/config"), "command": run("go test ./..."), "mcp": mcpCall("mcp__srv__echo"),
	}
	want := map[Mode]map[string]Decision{
		ModeAsk:      {"read": Allow, "plan": Allow, "edit": Ask, "protected": Ask, "nested protected": Ask, "command": Ask, "mcp": Ask},
		ModeCode:     {"read": Allow, "plan": Allow, "edit": Ask, "protected": Ask, "nested protected": Ask, "command": Ask, "mcp": Ask},
		ModeAutoEdit: {"read": Allow, "plan": Allow, "edit": Allow, "protected": Ask, "nested protected": Ask, "command": Ask, "mcp": Ask},
		ModeFullAuto: {"read": Allow, "plan": Allow, "edit": Allow, "protected": Ask, "nested protected": Ask, "command": Allow, "mcp": Allow},
		"unknown":    {"read": Allow, "plan": Allow, "edit": Ask, "protected": Ask, "nested protected": Ask, "command": Ask, "mcp": Ask},
	}
	// Where tandem has no kernel sandbox (Windows), full-auto cannot lean
	// on one, so its commands ask.
	if noKernelSandbox != "" {
		want[ModeFullAuto]["command"] = Ask
	}
	for mode, row := range want {
		for name, d := range row {
			v := Decide(mode, calls[name], Rules{})
			if v.Decision != d {
				t.Errorf("%s mode, %s: %s (%s), want %s", mode, name, v.Decision, v.Reason, d)
			}
			if v.Reason == "" {
				t.Errorf("%s mode, %s: no reason", mode, name)
			}
			if strings.Contains(name, "protected") && (!v.Protected || v.AllowAlways != nil || v.RejectAlways != nil) {
				t.Errorf("%s mode, %s: protected=%v, offers %+v / %+v; want protected and nothing remembered", mode, name, v.Protected, v.AllowAlways, v.RejectAlways)
			}
			if d == Ask && v.CannotAsk == "" {
				t.Errorf("%s mode, %s: no refusal for a front door that cannot ask", mode, name)
			}
		}
	}
}

// TestGrants checks what grants cover, in code mode where nothing else
// approves edits, commands or MCP tools.
func TestGrants(t *testing.T) {
	for _, tc := range []struct {
		name        string
		allow, deny []string
		call        Call
		want        Decision
	}{
		{"prefix covers more arguments", []string{"run_command(go test:*)"}, nil, run("go test -run X ./pkg"), Allow},
		{"prefix covers the bare prefix", []string{"run_command(go test:*)"}, nil, run("go test"), Allow},
		{"prefix is word by word", []string{"run_command(go test:*)"}, nil, run("go testx ./..."), Ask},
		{"another subcommand asks", []string{"run_command(go test:*)"}, nil, run("go vet ./..."), Ask},
		{"another program asks", []string{"run_command(go test:*)"}, nil, run("rm -rf /"), Ask},
		{"quotes are removed before matching", []string{"run_command(go test:*)"}, nil, run(`'go' "test" ./...`), Allow},
		{"exact rule", []string{"run_command(npm run lint)"}, nil, run("npm run lint"), Allow},
		{"exact rule takes no further words", []string{"run_command(npm run lint)"}, nil, run("npm run lint --fix"), Ask},
		{"and-list needs every part", []string{"run_command(go test:*)"}, nil, run("go test ./... && rm -rf x"), Ask},
		{"and-list with every part granted", []string{"run_command(go test:*)", "run_command(go vet:*)"}, nil, run("go vet ./... && go test ./..."), Allow},
		{"semicolon", []string{"run_command(go test:*)"}, nil, run("go test ./...; rm -rf x"), Ask},
		{"pipe", []string{"run_command(go test:*)"}, nil, run("go test ./... | sh"), Ask},
		{"pipe with every part granted", []string{"run_command(go test:*)", "run_command(tail:*)"}, nil, run("go test ./... 2>&1 | tail -5"), Allow},
		{"command substitution", []string{"run_command(go test:*)"}, nil, run("go test $(rm -rf x)"), Ask},
		{"backticks", []string{"run_command(go test:*)"}, nil, run("go test `rm -rf x`"), Ask},
		{"substitution in double quotes", []string{"run_command(go test:*)"}, nil, run(`go test "$(rm -rf x)"`), Ask},
		{"subshell", []string{"run_command(go test:*)"}, nil, run("(go test ./...; rm -rf x)"), Ask},
		{"granted subshell", []string{"run_command(go test:*)"}, nil, run("(go test ./...)"), Allow},
		{"process substitution", []string{"run_command(diff:*)"}, nil, run("diff <(rm -rf x) y"), Ask},
		{"redirection to a file", []string{"run_command(go test:*)"}, nil, run("go test ./... > out.txt"), Ask},
		{"append to a file", []string{"run_command(go test:*)"}, nil, run("go test ./... >> .git/hooks/pre-commit"), Ask},
		{"both streams to a file", []string{"run_command(go test:*)"}, nil, run("go test ./... &> out.txt"), Ask},
		{">&file is a file", []string{"run_command(go test:*)"}, nil, run("go test ./... >&out.txt"), Ask},
		{"descriptor duplication is fine", []string{"run_command(go test:*)"}, nil, run("go test ./... 2>&1"), Allow},
		{"output to /dev/null is fine", []string{"run_command(go test:*)"}, nil, run("go test ./... > /dev/null 2>&1"), Allow},
		{"input from a file is fine", []string{"run_command(wc:*)"}, nil, run("wc -l < go.mod"), Allow},
		{"variable assignment", []string{"run_command(go test:*)"}, nil, run("GOFLAGS=-exec=rm go test ./..."), Ask},
		{"background", []string{"run_command(go test:*)"}, nil, run("go test ./... &"), Ask},
		{"loop", []string{"run_command(go test:*)"}, nil, run("for p in a b; do go test $p; done"), Ask},
		{"unparseable", []string{"run_command(go test:*)"}, nil, run("go test 'unterminated"), Ask},
		{"expanded program", []string{"run_command(go test:*)"}, nil, run("$GO test ./..."), Ask},
		{"escaped program", []string{"run_command(go test:*)"}, nil, run(`g\o test ./...`), Ask},
		{"brace expansion", []string{"run_command(go test:*)"}, nil, run("{go,rm} test"), Ask},
		{"assigning expansion", []string{"run_command(go test:*)"}, nil, run("go test ${X:=y}"), Ask},
		{"plain expansion in arguments", []string{"run_command(go test:*)"}, nil, run("go test $PKG"), Allow},
		{"bare tool rule", []string{"run_command"}, nil, run("anything > at-all"), Allow},
		{"deny beats allow", []string{"run_command(go test:*)"}, []string{"run_command(go test:*)"}, run("go test ./..."), Deny},
		{"deny matches one part", nil, []string{"run_command(rm:*)"}, run("go test ./... && rm -rf x"), Deny},
		{"deny matches inside substitution", nil, []string{"run_command(rm:*)"}, run("echo $(rm -rf x)"), Deny},
		{"deny matches inside a loop", nil, []string{"run_command(rm:*)"}, run("for f in a; do rm $f; done"), Deny},
		{"deny in full auto too", nil, []string{"run_command(rm:*)"}, run("rm x"), Deny},
		{"edit in granted tree", []string{"edit_file(src/**)"}, nil, edit("src/a/b.go"), Allow},
		{"edit outside granted tree", []string{"edit_file(src/**)"}, nil, edit("lib/a.go"), Ask},
		{"a tree is not a file named like it", []string{"edit_file(src/**)"}, nil, edit("src"), Ask},
		{"exact file grant", []string{"edit_file(main.go)"}, nil, edit("main.go"), Allow},
		{"exact file grant is exact", []string{"edit_file(main.go)"}, nil, edit("other.go"), Ask},
		{"a bare name matches at any depth", []string{"edit_file(main.go)"}, nil, edit("cmd/x/main.go"), Allow},
		{"./ anchors a bare name", []string{"edit_file(./main.go)"}, nil, edit("cmd/x/main.go"), Ask},
		{"./ anchored name at the root", []string{"edit_file(./main.go)"}, nil, edit("main.go"), Allow},
		{"a bare glob at any depth", []string{"edit_file(*.lock)"}, nil, edit("web/yarn.lock"), Allow},
		{"glob stays in its directory", []string{"edit_file(docs/*.md)"}, nil, edit("docs/sub/x.md"), Ask},
		{"glob in its directory", []string{"edit_file(docs/*.md)"}, nil, edit("docs/x.md"), Allow},
		{"grant is per tool", []string{"write_file(src/**)"}, nil, edit("src/a.go"), Ask},
		{"protected beats a grant", []string{"edit_file(src/**)", "edit_file"}, nil, edit("src/AGENTS.md"), Ask},
		{"deny on a protected path", nil, []string{"edit_file(src/**)"}, edit("src/AGENTS.md"), Deny},
		{"mcp tool grant", []string{"mcp__srv__echo"}, nil, mcpCall("mcp__srv__echo"), Allow},
		{"mcp grant is per tool", []string{"mcp__srv__echo"}, nil, mcpCall("mcp__srv__rm"), Ask},
		{"mcp grant is per server", []string{"mcp__srv__echo"}, nil, mcpCall("mcp__other__echo"), Ask},
		{"mcp deny", nil, []string{"mcp__srv__rm"}, mcpCall("mcp__srv__rm"), Deny},
	} {
		mode := ModeCode
		if strings.Contains(tc.name, "full auto") {
			mode = ModeFullAuto
		}
		v := Decide(mode, tc.call, mustRules(t, tc.allow, tc.deny))
		if v.Decision != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Decision, v.Reason, tc.want)
		}
		if v.Decision == Deny && !strings.Contains(v.Reason, "always reject") && !strings.Contains(v.Reason, "denies") {
			t.Errorf("%s: deny reason %q does not say why", tc.name, v.Reason)
		}
	}
}

// TestProposals checks what "Always allow" and "Always reject" would
// remember, and the option names users see.
func TestProposals(t *testing.T) {
	for _, tc := range []struct {
		name       string
		allow      []string
		call       Call
		allowRules string // the rules joined by " "; "" = not offered
		allowName  string
		rejectName string // "" = not offered
	}{
		{"go test", nil, run("go test ./..."), "run_command(go test:*)",
			"Always allow `go test …` in this project", "Always reject `go test …` in this project"},
		{"flag after the program", nil, run("ls -la"), "run_command(ls:*)",
			"Always allow `ls …` in this project", "Always reject `ls …` in this project"},
		{"path after the program", nil, run("cat go.mod"), "run_command(cat:*)",
			"Always allow `cat …` in this project", "Always reject `cat …` in this project"},
		{"compound", nil, run("go vet ./... && go test ./..."), "run_command(go vet:*) run_command(go test:*)",
			"Always allow `go vet …` and `go test …` in this project", ""},
		{"compound, part granted", []string{"run_command(go test:*)"}, run("go test ./... && rm -rf x"), "run_command(rm:*)",
			"Always allow `rm …` in this project", ""},
		{"redirection", nil, run("go test ./... > out.txt"), "", "", "Always reject `go test …` in this project"},
		{"runner", nil, run("sudo make install"), "", "", "Always reject `sudo make …` in this project"},
		{"runner in a pipe", nil, run("ls | xargs rm"), "", "", ""},
		{"quoted program", nil, run("'my tool' run x"), "run_command('my tool' run:*)",
			"Always allow `'my tool' run …` in this project", "Always reject `'my tool' run …` in this project"},
		{"edit in a directory", nil, edit("src/pkg/a.go"), "edit_file(src/pkg/**) write_file(src/pkg/**)",
			"Always allow edits in src/pkg/ in this project", "Always reject edits in src/pkg/ in this project"},
		{"edit at the root", nil, edit("main.go"), "edit_file(./main.go) write_file(./main.go)",
			"Always allow edits to main.go in this project", "Always reject edits to main.go in this project"},
		{"edit of a glob-like name", nil, edit("src/[x].go"), "", "", ""},
		{"protected", nil, edit("docs/CLAUDE.md"), "", "", ""},
		{"mcp", nil, mcpCall("mcp__srv__echo"), "mcp__srv__echo",
			"Always allow `echo` (MCP server srv) in this project", "Always reject `echo` (MCP server srv) in this project"},
	} {
		v := Decide(ModeCode, tc.call, mustRules(t, tc.allow, nil))
		if v.Decision != Ask {
			t.Fatalf("%s: %s, want ask", tc.name, v.Decision)
		}
		var got, name, reject string
		if v.AllowAlways != nil {
			var rs []string
			for _, r := range v.AllowAlways.Rules {
				rs = append(rs, r.String())
			}
			got, name = strings.Join(rs, " "), v.AllowAlways.Option
		}
		if v.RejectAlways != nil {
			reject = v.RejectAlways.Option
		}
		if got != tc.allowRules || name != tc.allowName || reject != tc.rejectName {
			t.Errorf("%s:\n allow %q %q\n want  %q %q\n reject %q, want %q", tc.name, got, name, tc.allowRules, tc.allowName, reject, tc.rejectName)
		}
		// What is proposed must cover the call once granted.
		if v.AllowAlways != nil {
			rs := mustRules(t, tc.allow, nil)
			rs.Add(Allow, v.AllowAlways.Rules...)
			if d := Decide(ModeCode, tc.call, rs).Decision; d != Allow {
				t.Errorf("%s: after granting %s the call still gets %s", tc.name, got, d)
			}
		}
		if v.RejectAlways != nil {
			var rs Rules
			rs.Add(Deny, v.RejectAlways.Rules...)
			if d := Decide(ModeCode, tc.call, rs).Decision; d != Deny {
				t.Errorf("%s: after rejecting always the call still gets %s", tc.name, d)
			}
		}
	}
}

func TestCannotAskMessages(t *testing.T) {
	for _, tc := range []struct {
		mode Mode
		call Call
		want []string
	}{
		{ModeFullAuto, edit("AGENTS.md"), []string{"AGENTS.md is a protected file", "cannot show permission prompts", "Nothing was changed"}},
		{ModeCode, edit("src/a.go"), []string{"cannot show permission prompts", "in code mode edits need", "auto-edit or full-auto mode"}},
		{ModeAutoEdit, run("go test ./..."), []string{"`go test ./...` was refused", "cannot show permission prompts", "switch to full-auto mode", "run the command themselves"}},
		{ModeCode, mcpCall("mcp__srv__echo"), []string{"cannot show permission prompts", "full-auto mode"}},
	} {
		v := Decide(tc.mode, tc.call, Rules{})
		for _, w := range tc.want {
			if !strings.Contains(v.CannotAsk, w) {
				t.Errorf("%s %+v: %q lacks %q", tc.mode, tc.call, v.CannotAsk, w)
			}
		}
	}
}

func TestAskRule(t *testing.T) {
	var rs Rules
	rs.Add(Ask, Rule{Tool: tools.RunCommandName, Specifier: "git push:*"})
	rs.Add(Allow, Rule{Tool: tools.RunCommandName})
	v := Decide(ModeFullAuto, run("git push origin main"), rs)
	if v.Decision != Ask || v.AllowAlways != nil || !strings.Contains(v.CannotAsk, "git push:*") {
		t.Errorf("an ask rule in full-auto: %+v", v)
	}
}

func TestRefusal(t *testing.T) {
	err := Refusal("no, because")
	if !errors.Is(err, tools.ErrRejected) || err.Error() != "no, because" {
		t.Errorf("Refusal: %v, Is(ErrRejected) %v", err, errors.Is(err, tools.ErrRejected))
	}
}
