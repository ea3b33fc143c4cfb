package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tandemhq/tandem/bench/internal/procstat"
)

// agentProc is an ACP agent (tandem or the floor) spawned over stdio,
// driven as an editor drives it.
type agentProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	next   int
	sid    string
	notes  int // session/update notifications read so far
	marker []byte
	// seen is when the first line holding marker was read.
	seen time.Time
	heap *heapWatch // its stderr, watched for live heap reports
}

// spawn starts argv with env in a fresh home; stderr goes to errw.
func spawn(argv []string, env []string, errw io.Writer) (*agentProc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	heap := &heapWatch{w: errw, c: make(chan int64, 1)}
	cmd.Stderr = heap
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return &agentProc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), heap: heap}, nil
}

// call sends a request and reads until its response, counting the
// notifications before it and answering the agent's permission requests
// with the first option offered to allow.
func (p *agentProc) call(method string, params any) (json.RawMessage, error) {
	p.next++
	id := p.next
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	want := []byte(`"id":` + strconv.Itoa(id) + `,`)
	want2 := []byte(`"id":` + strconv.Itoa(id) + `}`)
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: reading the answer: %w", method, err)
		}
		if p.marker != nil && p.seen.IsZero() && bytes.Contains(line, p.marker) {
			p.seen = time.Now()
		}
		if bytes.Contains(line, []byte(`"method":"session/update"`)) {
			p.notes++
			continue
		}
		if bytes.Contains(line, []byte(`"method":`)) {
			if err := p.answerRequest(line); err != nil {
				return nil, err
			}
			continue
		}
		if !bytes.Contains(line, want) && !bytes.Contains(line, want2) {
			continue
		}
		var r struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s: %w: %s", method, err, line)
		}
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, r.Error)
		}
		return r.Result, nil
	}
}

// answerRequest answers a request the agent sent: permission requests are
// allowed; anything else gets an error.
func (p *agentProc) answerRequest(line []byte) error {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Options []struct {
				OptionID string `json:"optionId"`
				Kind     string `json:"kind"`
			} `json:"options"`
		} `json:"params"`
	}
	if err := json.Unmarshal(line, &r); err != nil || r.ID == nil {
		return nil // a notification of another kind
	}
	var reply map[string]any
	if r.Method == "session/request_permission" && len(r.Params.Options) > 0 {
		opt := r.Params.Options[0].OptionID
		for _, o := range r.Params.Options {
			if strings.HasPrefix(o.Kind, "allow") {
				opt = o.OptionID
				break
			}
		}
		reply = map[string]any{"jsonrpc": "2.0", "id": r.ID, "result": map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": opt}}}
	} else {
		reply = map[string]any{"jsonrpc": "2.0", "id": r.ID, "error": map[string]any{"code": -32601, "message": "not offered"}}
	}
	b, _ := json.Marshal(reply)
	_, err := p.in.Write(append(b, '\n'))
	return err
}

// open answers initialize and opens a session in dir, in mode when set.
func (p *agentProc) open(dir, mode string) error {
	if _, err := p.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "editorbench", "version": "1"}}); err != nil {
		return err
	}
	res, err := p.call("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}})
	if err != nil {
		return err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &s); err != nil {
		return err
	}
	p.sid = s.SessionID
	if mode != "" {
		if _, err := p.call("session/set_mode", map[string]any{"sessionId": p.sid, "modeId": mode}); err != nil {
			return err
		}
	}
	return nil
}

// prompt sends one prompt and returns when its response arrives.
func (p *agentProc) prompt(text string) error {
	_, err := p.call("session/prompt", map[string]any{"sessionId": p.sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
	return err
}

// finish closes stdin, as an editor closing does, and returns the CPU the
// process used in all (user + system, from its rusage).
func (p *agentProc) finish() (time.Duration, error) {
	p.in.Close()
	io.Copy(io.Discard, p.out)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return 0, fmt.Errorf("exit: %w", err)
		}
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-done
		return 0, fmt.Errorf("did not exit within 30s of its stdin closing")
	}
	// ProcessState's times are the child's rusage on Unix and its
	// process times on Windows: the same whole-process CPU, portably.
	return p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime(), nil
}

// kill ends a process whose run failed.
func (p *agentProc) kill() {
	p.in.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// cpuNow is the process's CPU so far, from its threads' scheduler
// statistics (nanoseconds, unlike /proc/PID/stat's ticks): for windows
// inside one run.
func (p *agentProc) cpuNow() time.Duration {
	dir := fmt.Sprintf("/proc/%d/task", p.cmd.Process.Pid)
	ents, _ := os.ReadDir(dir)
	var total time.Duration
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "schedstat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(n)
		}
	}
	return total
}

// rss is the process's resident memory in bytes.
func (p *agentProc) rss() int64 { return procstat.RSS(p.cmd.Process.Pid) }
