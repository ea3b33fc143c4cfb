package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as a misbehaving MCP server: with
// TANDEM_MCP_FAKE set it speaks raw JSON-RPC on stdin/stdout instead of
// running tests, so the client is exercised against a real process that
// can crash, hang or print garbage on cue.
func TestMain(m *testing.M) {
	if mode := os.Getenv("TANDEM_MCP_FAKE"); mode != "" {
		os.Exit(runFake(mode, os.Getenv("TANDEM_MCP_FAKE_LOG")))
	}
	os.Exit(m.Run())
}

type fakeServer struct {
	outMu sync.Mutex // guards out
	out   *json.Encoder
	logMu sync.Mutex // guards log
	log   *os.File
	extra bool // tools/list_changed was sent: list "extra" instead of "changetools"
}

type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

func runFake(mode, logPath string) int {
	f := &fakeServer{out: json.NewEncoder(os.Stdout)}
	if logPath != "" {
		lf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		f.log = lf
	}
	switch mode {
	case "exit-at-start":
		fmt.Fprintln(os.Stderr, "boom: missing config file")
		return 3
	case "spawn":
		// A grandchild of the client that ignores stdin: only a kill of the
		// process group reaches it.
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		f.record("child %d", child.Process.Pid)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var msg rpcMsg
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintln(os.Stderr, "fake: bad input:", err)
			continue
		}
		if mode == "silent" {
			continue // never answers, not even initialize
		}
		f.handle(msg)
	}
	return 0
}

func (f *fakeServer) record(format string, a ...any) {
	if f.log == nil {
		return
	}
	f.logMu.Lock()
	defer f.logMu.Unlock()
	fmt.Fprintf(f.log, format+"\n", a...)
}

func (f *fakeServer) send(v any) {
	f.outMu.Lock()
	defer f.outMu.Unlock()
	_ = f.out.Encode(v)
}

func (f *fakeServer) reply(id json.RawMessage, result any) {
	f.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (f *fakeServer) handle(msg rpcMsg) {
	switch msg.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		f.reply(msg.ID, map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
			"serverInfo":      map[string]any{"name": "fake", "version": "1"},
		})
	case "ping":
		f.reply(msg.ID, map[string]any{})
	case "tools/list":
		f.reply(msg.ID, map[string]any{"tools": f.tools()})
	case "tools/call":
		f.call(msg)
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		f.record("cancelled %s", p.RequestID)
	case "notifications/initialized", "":
	default:
		if msg.ID != nil {
			f.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
				"error": map[string]any{"code": -32601, "message": "method not found: " + msg.Method}})
		}
	}
}

func (f *fakeServer) tools() []map[string]any {
	names := []string{"echo", "crash", "garbage", "hang", "slow", "fail", "image", "changetools", "bad.name"}
	if f.extra {
		names[7] = "extra"
	}
	var out []map[string]any
	for _, n := range names {
		out = append(out, map[string]any{
			"name": n, "description": "fake " + n,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
		})
	}
	return out
}

func text(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}

func (f *fakeServer) call(msg rpcMsg) {
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	f.record("call %s", p.Name)
	switch p.Name {
	case "echo", "extra", "bad.name":
		args, _ := json.Marshal(p.Arguments)
		f.reply(msg.ID, text("echo "+string(args)))
	case "crash":
		os.Exit(2)
	case "garbage":
		f.outMu.Lock()
		fmt.Fprintln(os.Stdout, "this is not JSON-RPC {{{")
		f.outMu.Unlock()
	case "hang":
		// Stops answering anything, pings included.
		time.Sleep(time.Hour)
	case "slow":
		// Never answers this call, but keeps serving others.
	case "fail":
		r := text("the fake tool failed on purpose")
		r["isError"] = true
		f.reply(msg.ID, r)
	case "image":
		f.reply(msg.ID, map[string]any{"content": []any{
			map[string]any{"type": "text", "text": "a pixel"},
			map[string]any{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
		}})
	case "changetools":
		f.extra = true
		f.reply(msg.ID, text("changed"))
		f.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
	}
}
