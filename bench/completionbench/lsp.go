package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/bench/internal/procstat"
)

// server is a `tandem lsp` process and the bench's side of its stdio: a
// small Content-Length client of its own, with requests in flight at once
// (as an editor typing has).
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser

	writeMu sync.Mutex

	mu      sync.Mutex // guards seq and pending
	seq     int
	pending map[int]chan answer
	done    chan struct{} // closed when stdout ends
}

// answer is a response and when the bench read it.
type answer struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	At time.Time
}

func startServer(bin string, env []string, stderr io.Writer) (*server, error) {
	cmd := exec.Command(bin, "lsp")
	cmd.Env = env
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, in: in, pending: map[int]chan answer{}, done: make(chan struct{})}
	go s.read(bufio.NewReaderSize(out, 1<<16))
	return s, nil
}

func (s *server) read(r *bufio.Reader) {
	defer close(s.done)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		at := time.Now()
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil || m.Method != "" {
			continue // notifications and the server's own requests
		}
		s.mu.Lock()
		ch := s.pending[*m.ID]
		delete(s.pending, *m.ID)
		s.mu.Unlock()
		if ch != nil {
			ch <- answer{Result: m.Result, Error: m.Error, At: at}
		}
	}
}

func (s *server) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err = fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

// start sends a request and returns where its answer will come, and when
// it was written.
func (s *server) start(method string, params any) (chan answer, time.Time, error) {
	s.mu.Lock()
	s.seq++
	id := s.seq
	ch := make(chan answer, 1)
	s.pending[id] = ch
	s.mu.Unlock()
	at := time.Now()
	return ch, at, s.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

func (s *server) call(method string, params any) (answer, error) {
	ch, _, err := s.start(method, params)
	if err != nil {
		return answer{}, err
	}
	return s.await(method, ch)
}

func (s *server) await(method string, ch chan answer) (answer, error) {
	select {
	case a := <-ch:
		if a.Error != nil {
			return a, fmt.Errorf("%s: error %d: %s", method, a.Error.Code, a.Error.Message)
		}
		return a, nil
	case <-s.done:
		return answer{}, fmt.Errorf("%s: tandem exited", method)
	case <-time.After(60 * time.Second):
		return answer{}, fmt.Errorf("%s: no answer within 60s", method)
	}
}

func (s *server) notify(method string, params any) error {
	return s.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// stop shuts the server down as an editor does.
func (s *server) stop() {
	s.call("shutdown", nil)
	s.notify("exit", nil)
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// rss is the process's resident memory in bytes.
func (s *server) rss() int64 { return procstat.RSS(s.cmd.Process.Pid) }

// editor helpers: the LSP messages the bench sends.

func fileURI(path string) string { return "file://" + path }

func (s *server) open(path, text string) error {
	return s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": text}})
}

func (s *server) insert(path string, version, line, char int, text string) error {
	pos := map[string]int{"line": line, "character": char}
	return s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(path), "version": version},
		"contentChanges": []map[string]any{{"range": map[string]any{"start": pos, "end": pos}, "text": text}},
	})
}

// complete sends textDocument/inlineCompletion (kind 1 invoked, 2
// automatic).
func (s *server) complete(path string, line, char, kind int) (chan answer, time.Time, error) {
	return s.start("textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path)},
		"position":     map[string]int{"line": line, "character": char},
		"context":      map[string]any{"triggerKind": kind},
	})
}

// suggestion is the first item's text of an inlineCompletion answer.
func suggestion(a answer) string {
	var l struct {
		Items []struct {
			InsertText string `json:"insertText"`
		} `json:"items"`
	}
	json.Unmarshal(a.Result, &l)
	if len(l.Items) == 0 {
		return ""
	}
	return l.Items[0].InsertText
}
