package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/testenv"
)

// attack is one escape attempt of testdata/attacks (see its README): a
// tool call the fake model makes in a mode, and what must hold afterwards.
type attack struct {
	file                       string
	mode, tool, args, errText  string
	setup, swap, answer, asked string
	want, lacks                *regexp.Regexp
	same, absent               []string
	noproc                     bool
}

func loadAttacks(t *testing.T, expand func(string) string) []attack {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(t), "testdata", "attacks")
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) < 40 {
		t.Fatalf("the corpus has %d attacks (%v); want at least 40", len(names), err)
	}
	var out []attack
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		a := attack{file: strings.TrimSuffix(filepath.Base(name), ".txt"), answer: "allow"}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("%s: bad line %q", name, line)
			}
			switch k {
			case "mode":
				a.mode = v
			case "tool":
				a.tool = v
			case "args":
				a.args = v
			case "error":
				a.errText = expand(v)
			case "setup":
				a.setup = expand(v)
			case "swap":
				a.swap = expand(v)
			case "answer":
				a.answer = v
			case "asked":
				a.asked = v
			case "want":
				a.want = regexp.MustCompile(v)
			case "lacks":
				a.lacks = regexp.MustCompile(v)
			case "same":
				a.same = strings.Fields(expand(v))
			case "absent":
				a.absent = strings.Fields(expand(v))
			case "noproc":
				a.noproc = v == "yes"
			default:
				t.Fatalf("%s: unknown key %q", name, k)
			}
		}
		f.Close()
		if a.mode == "" || (a.tool == "") == (a.errText == "") || a.want == nil {
			t.Fatalf("%s: needs a mode, a want, and a tool or an error", name)
		}
		out = append(out, a)
	}
	return out
}

// The secrets the corpus's tandem holds: a provider key and a token in its
// environment, another provider key in config.json.
const (
	atkAnthropicKey = "sk-ant-api03-corpusSECRETcorpusSECRETcorpus00"
	atkGitHubToken  = "ghp_corpusSECRETcorpusSECRETcorpusSECRET01"
	atkOpenAIKey    = "sk-proj-corpusSECRETcorpusSECRETcorpusSECRETcorpus02"
)

// TestAttackCorpus runs every attempt of testdata/attacks against the real
// binary, one after another in one session of one `tandem acp` process
// with the default sandbox and "network": "deny": each must be refused or
// contained, with the reason in the result the model reads, no secret may
// reach the editor, the model, the session files or the log, and the
// session must answer at the end.
func TestAttackCorpus(t *testing.T) {
	if ok, why := sandbox.Available(); !ok {
		if testenv.Strict() {
			t.Fatalf("the corpus needs Landlock: %s", why)
		}
		t.Skipf("the corpus needs Landlock: %s", why)
	}
	srv := llmtest.NewServer(t)
	// Requests beyond an attempt's two (a compaction summary after the
	// 9 MiB one) get a plain answer: the corpus is about what the tools do.
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	home, tmp, homeDir, outside := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	ws := workspace(t, map[string]string{
		"AGENTS.md": "be careful\n", "CLAUDE.md": "be kind\n", "main.go": "package main\n",
		".tandem/settings.json": "{}\n", ".vscode/tasks.json": "{}\n", "proj.code-workspace": "{}\n",
		"sub/keep.txt": "keep\n",
	})
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for p, body := range map[string]string{
		filepath.Join(ws, ".git/hooks/pre-commit"): "#!/bin/sh\n",
		filepath.Join(outside, "secret.txt"):       "secret\n",
		filepath.Join(outside, "linked.txt"):       "linked\n",
		filepath.Join(home, "config.json"):         `{"sandbox": {"network": "deny"}, "openaiApiKey": "` + atkOpenAIKey + `"}`,
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u, _ := url.Parse(srv.BaseURL(llmtest.Anthropic))

	ed := newEditor(t)
	cmd := exec.Command("env", "TMPDIR="+tmp, "HOME="+homeDir, "GITHUB_TOKEN="+atkGitHubToken,
		"ANTHROPIC_API_KEY="+atkAnthropicKey, testenv.Tandem(t), "acp")
	p := startCmd(t, cmd, srv, home, ed)
	p.initialize(t, false, false) // tandem reads, writes and runs everything itself
	sid := p.newSession(t, ws)

	var mark string
	expand := func(s string) string {
		return strings.NewReplacer("$OUTSIDE", outside, "$WS", ws, "$HOMEDIR", homeDir, "$TANDEM_HOME", home,
			"$TANDEM_PID", strconv.Itoa(p.cmd.Process.Pid), "$LLMPORT", u.Port(), "$MARK", mark,
			"$ANTHROPIC_KEY", atkAnthropicKey, "$TOKEN_VALUE", atkGitHubToken).Replace(s)
	}
	attacks := loadAttacks(t, expand)
	for i, a := range attacks {
		t.Run(a.file, func(t *testing.T) {
			mark = "tandem-attack-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(i)
			runAttack(t, p, ed, srv, sid, ws, a, expand, mark)
		})
	}

	srv.Enqueue(llmtest.Reply{Text: []string{"still here"}})
	if r, err := p.prompt(t, sid, "are you there?"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("the session did not survive the corpus: %q, %v", r, err)
	}
	checkNoSecrets(t, ed, srv, home, p.stderr.String())
}

func runAttack(t *testing.T, p *tandemProcess, ed *editor, srv *llmtest.Server, sid sdk.SessionId, ws string, a attack, expand func(string) string, mark string) {
	if a.setup != "" {
		if out, err := shell(ws, a.setup); err != nil {
			t.Fatalf("setup: %v %s", err, out)
		}
	}
	before := map[string][]byte{}
	for _, f := range a.same {
		before[f], _ = os.ReadFile(f)
	}
	if _, err := p.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: sdk.SessionModeId(a.mode)}); err != nil {
		t.Fatal(err)
	}
	asked := 0
	ed.mu.Lock()
	ed.answer = func(req sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		asked++
		if a.swap != "" {
			if out, err := shell(ws, a.swap); err != nil {
				t.Errorf("swap: %v %s", err, out)
			}
		}
		kind := map[string]string{"allow": "allow_once", "always": "allow_always", "reject": "reject_once"}[a.answer]
		for _, o := range req.Options {
			if string(o.Kind) == kind {
				return sdk.NewRequestPermissionOutcomeSelected(o.OptionId)
			}
		}
		t.Errorf("no %s option offered: %+v", kind, req.Options)
		return sdk.NewRequestPermissionOutcomeCancelled()
	}
	ed.mu.Unlock()

	id := "atk-" + a.file
	if a.errText != "" {
		srv.Enqueue(llmtest.Reply{StreamError: a.errText})
		_, err := p.prompt(t, sid, a.file)
		if err == nil || !a.want.MatchString(err.Error()) || (a.lacks != nil && a.lacks.MatchString(err.Error())) {
			t.Errorf("the prompt's error: %v", err)
		}
		return
	}
	args := expand(a.args)
	if strings.Contains(args, "$BIG") {
		args = strings.Replace(args, "$BIG", strings.Repeat("x", 9<<20), 1)
	}
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: id, Name: a.tool, Args: args}}}, llmtest.Reply{Text: []string{"ok"}})
	// A long deadline: the 9 MiB attempt is slow under -race on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	resp, err := p.conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(a.file)}})
	if r := resp.StopReason; err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("the turn did not end normally: %q, %v", r, err)
	}
	result := ""
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			for _, part := range m.Content {
				// The first one: compaction may stub it in later requests.
				if part.Type == llm.PartToolResult && part.ToolCallID == id && result == "" {
					result = part.Text
				}
			}
		}
	}
	t.Logf("the model read: %s", clipForLog(result))
	if !a.want.MatchString(result) {
		t.Errorf("the model read %q; want it to match %s", clipForLog(result), a.want)
	}
	if a.lacks != nil && a.lacks.MatchString(result) {
		t.Errorf("the model read %q, which matches %s", clipForLog(result), a.lacks)
	}
	if (a.asked == "yes" && asked == 0) || (a.asked == "no" && asked != 0) {
		t.Errorf("asked %d times; want asked: %s", asked, a.asked)
	}
	for _, f := range a.same {
		if now, _ := os.ReadFile(f); string(now) != string(before[f]) {
			t.Errorf("%s changed: %q -> %q", f, before[f], now)
		}
	}
	for _, f := range a.absent {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s exists", f)
			os.Remove(f)
		}
	}
	if a.noproc {
		if !strings.Contains(args, mark) {
			t.Fatal("noproc needs $MARK in the command")
		}
		testenv.WaitNoProcess(t, mark, 10*time.Second)
	}
}

func shell(dir, script string) ([]byte, error) {
	c := exec.Command("sh", "-c", script)
	c.Dir = dir
	return c.CombinedOutput()
}

func clipForLog(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// checkNoSecrets looks for the corpus's secrets in everything tandem sent
// or kept: the editor's updates and permission requests, the model's
// requests, the session files and the log.
func checkNoSecrets(t *testing.T, ed *editor, srv *llmtest.Server, home, stderr string) {
	t.Helper()
	var all strings.Builder
	ed.mu.Lock()
	for _, us := range ed.updates {
		for _, u := range us {
			all.WriteString(u.raw)
		}
	}
	perms, _ := json.Marshal(ed.permissions)
	all.Write(perms)
	ed.mu.Unlock()
	for _, r := range srv.Requests() {
		b, _ := json.Marshal(r.Messages)
		all.Write(b)
	}
	filepath.WalkDir(filepath.Join(home, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	all.WriteString(stderr)
	for _, s := range []string{atkAnthropicKey, atkGitHubToken, atkOpenAIKey} {
		if strings.Contains(all.String(), s) {
			t.Errorf("the secret %.12s… left tandem", s)
		}
	}
}
