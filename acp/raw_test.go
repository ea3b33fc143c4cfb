package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
)

// rawClient drives Serve in-process with hand-written JSON lines, for
// protocol tests that must send what no SDK would (malformed input).
type rawClient struct {
	t     testing.TB
	w     io.WriteCloser // records the requests' methods for the schema check
	lines chan []byte
	done  chan struct{}
	err   error            // what Serve returned, once done is closed
	seen  []map[string]any // messages read but not yet consumed
}

func newRawClient(t testing.TB, a *agent.Agent) *rawClient {
	t.Helper()
	if a == nil {
		a = agent.New(agent.Config{Home: t.TempDir()})
	}
	return newRawClientWith(t, Options{Agent: a})
}

// newRawClientWith serves o (its Version set to "test").
func newRawClientWith(t testing.TB, o Options) *rawClient {
	t.Helper()
	o.Version = "test"
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	// What tandem writes is checked against the ACP schema here as in the
	// SDK-driven tests; answers to malformed requests are errors, which the
	// check leaves alone.
	tap := newRequestTap(inW)
	check := loadWireSchema(t).async(t, tap)
	c := &rawClient{t: t, w: tap, lines: make(chan []byte, 1024), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.err = Serve(context.Background(), inR, outW, o)
		outW.Close()
	}()
	go func() {
		defer close(c.lines)
		r := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				check(line)
				c.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after stdin closed")
		}
	})
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// request sends a request with a string id and returns its response.
func (c *rawClient) request(id, method string, params any) map[string]any {
	c.t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(string(b))
	return c.response(id)
}

// response waits for the response with the given id, keeping other
// messages for later.
func (c *rawClient) response(id any) map[string]any {
	c.t.Helper()
	want, _ := json.Marshal(id)
	return c.waitFor(fmt.Sprintf("response %s", want), func(m map[string]any) bool {
		got, _ := json.Marshal(m["id"])
		_, isReq := m["method"]
		return !isReq && string(got) == string(want)
	})
}

// waitFor returns the first message (already seen or arriving within 10 s)
// that match accepts.
func (c *rawClient) waitFor(what string, match func(map[string]any) bool) map[string]any {
	c.t.Helper()
	for i, m := range c.seen {
		if match(m) {
			c.seen = append(c.seen[:i], c.seen[i+1:]...)
			return m
		}
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("server closed its output while waiting for %s", what)
			}
			m, err := decode(line)
			if err != nil {
				c.t.Fatalf("server wrote a line that is not JSON: %q", line)
			}
			if match(m) {
				return m
			}
			c.seen = append(c.seen, m)
		case <-timeout:
			c.t.Fatalf("no %s within 10s; seen %v", what, c.seen)
		}
	}
}

// errorCode returns the error code of a response, failing when it succeeded.
func errorCode(t testing.TB, resp map[string]any) int {
	t.Helper()
	e, ok := resp["error"].(map[string]any)
	if !ok {
		t.Fatalf("want an error response, got %v", resp)
	}
	n, _ := e["code"].(json.Number).Int64()
	return int(n)
}

func result(t testing.TB, resp map[string]any) map[string]any {
	t.Helper()
	r, ok := resp["result"].(map[string]any)
	if !ok {
		t.Fatalf("want a result, got %v", resp)
	}
	return r
}

func initParams() map[string]any {
	return map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}
}

// unstableInitParams is initParams for a client that opts into the
// unstable schema's parts (see unstableClientCaps).
func unstableInitParams() map[string]any {
	return map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"session": map[string]any{"compaction": map[string]any{}}}}
}

// alive checks the server still answers after whatever came before.
func (c *rawClient) alive(id string) {
	c.t.Helper()
	r := result(c.t, c.request(id, "initialize", initParams()))
	if r["protocolVersion"] != json.Number("1") {
		c.t.Fatalf("initialize after bad input answered %v", r)
	}
}

// drainNotes returns the messages seen so far without an id.
func (c *rawClient) notifications(method string) []map[string]any {
	var out []map[string]any
	for _, m := range c.seen {
		if m["method"] == method {
			out = append(out, m)
		}
	}
	return out
}

// decode reads one message keeping numbers exact (ids may be any JSON number).
func decode(line []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var m map[string]any
	err := dec.Decode(&m)
	return m, err
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func timeoutC() <-chan time.Time { return time.After(10 * time.Second) }
