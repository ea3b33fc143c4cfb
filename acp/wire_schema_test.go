package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tandemhq/tandem/internal/testenv"
)

// wireSchema checks every message tandem writes to a test editor against
// the official ACP schema (schema.unstable.json of @agentclientprotocol/sdk,
// a superset of the stable one): requests and notifications by their
// method, results by the method of the request they answer.
type wireSchema struct {
	doc     map[string]any
	request map[string]string // method tandem calls → definition of its params
	result  map[string]string // method tandem answers → definition of its result

	// stable is the stable schema (schema.json): a message of a method it
	// defines is checked against it, so nothing only the unstable schema
	// allows slips into a stable method; the unstable ones (session/fork)
	// are checked against the unstable schema.
	stable *wireSchema

	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
}

// readWireSchema reads one schema file of the SDK and indexes its methods.
func readWireSchema(path string) (*wireSchema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w := &wireSchema{request: map[string]string{}, result: map[string]string{}, resolved: map[string]*jsonschema.Resolved{}}
	if err := json.Unmarshal(b, &w.doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defs, _ := w.doc["$defs"].(map[string]any)
	for name, d := range defs {
		d, _ := d.(map[string]any)
		method, _ := d["x-method"].(string)
		side, _ := d["x-side"].(string)
		switch {
		case method == "":
		case (side == "client" || side == "protocol") && (strings.HasSuffix(name, "Request") || strings.HasSuffix(name, "Notification")):
			w.request[method] = name
		case side == "agent" && strings.HasSuffix(name, "Response"):
			w.result[method] = name
		}
	}
	return w, nil
}

var (
	wireSchemaOnce sync.Once
	wireSchemaVal  *wireSchema
	wireSchemaErr  error
)

// loadWireSchema returns the checker, or nil when the npm package is not
// installed and the run is not strict (a plain `go test` without node).
func loadWireSchema(t testing.TB) *wireSchema {
	t.Helper()
	wireSchemaOnce.Do(func() {
		dir := os.Getenv("TANDEM_NODE_MODULES")
		if dir == "" {
			dir = filepath.Join(testenv.RepoRoot(t), ".cache", "node", "node_modules")
		}
		schemas := filepath.Join(dir, "@agentclientprotocol", "sdk", "schema", "v1")
		var w, stable *wireSchema
		if w, wireSchemaErr = readWireSchema(filepath.Join(schemas, "schema.unstable.json")); wireSchemaErr != nil {
			return
		}
		if stable, wireSchemaErr = readWireSchema(filepath.Join(schemas, "schema.json")); wireSchemaErr != nil {
			return
		}
		w.stable = stable
		wireSchemaVal = w
	})
	if wireSchemaErr != nil {
		if testenv.Strict() {
			t.Fatalf("the ACP schema is missing (%v); run ./test.sh, which installs it", wireSchemaErr)
		}
		return nil
	}
	return wireSchemaVal
}

func (w *wireSchema) def(name string) (*jsonschema.Resolved, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r, ok := w.resolved[name]; ok {
		return r, nil
	}
	doc := make(map[string]any, len(w.doc))
	for k, v := range w.doc {
		doc[k] = v
	}
	delete(doc, "anyOf")
	doc["$ref"] = "#/$defs/" + name
	b, _ := json.Marshal(doc)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	w.resolved[name] = r
	return r, nil
}

// requestDef and resultDef name the definition of a method's params and
// result in w, "" when w (possibly nil) has none.
func (w *wireSchema) requestDef(method string) string {
	if w == nil {
		return ""
	}
	return w.request[method]
}

func (w *wireSchema) resultDef(method string) string {
	if w == nil {
		return ""
	}
	return w.result[method]
}

// check validates one line tandem wrote; asked maps the ids of the
// client's requests to their methods.
func (w *wireSchema) check(t testing.TB, line []byte, asked func(id string) string) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params any             `json:"params"`
		Result any             `json:"result"`
		Error  any             `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		t.Errorf("tandem wrote a line that is not JSON: %s", line)
		return
	}
	var def string
	var inst any
	by := w
	switch {
	case msg.Method != "":
		def, inst = w.request[msg.Method], msg.Params
		if def == "" {
			t.Errorf("tandem called %s, which the ACP schema has no client method for", msg.Method)
			return
		}
		if d := w.stable.requestDef(msg.Method); d != "" {
			by, def = w.stable, d
		}
	case msg.Error != nil:
		return
	default:
		method := asked(string(msg.ID))
		def, inst = w.result[method], msg.Result
		if def == "" {
			return // an answer to a request the tap did not see
		}
		if d := w.stable.resultDef(method); d != "" {
			by, def = w.stable, d
		}
	}
	r, err := by.def(def)
	if err != nil {
		t.Errorf("resolving %s: %v", def, err)
		return
	}
	if err := r.Validate(inst); err != nil {
		t.Errorf("tandem's %s does not match the ACP schema: %v\n%s", def, err, line)
	}
}

// async returns a function that queues a line for checking on a goroutine
// of its own: resolving the schema's definitions takes long on a busy
// machine, and doing it in the client's read path would slow the editor's
// answers until tandem's own deadlines fire. The queue is drained, and its
// findings reported, when the test ends. A nil checker checks nothing.
func (w *wireSchema) async(t testing.TB, asked func(id string) string) func(line []byte) {
	if w == nil {
		return func([]byte) {}
	}
	lines := make(chan []byte, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for l := range lines {
			w.check(t, l, asked)
		}
	}()
	var once sync.Once
	var mu sync.Mutex
	closed := false
	t.Cleanup(func() {
		once.Do(func() {
			mu.Lock()
			closed = true
			close(lines)
			mu.Unlock()
			<-done
		})
	})
	return func(line []byte) {
		mu.Lock()
		defer mu.Unlock()
		if !closed {
			lines <- bytes.Clone(line)
		}
	}
}

// requestTap records the ids and methods of the requests the client
// writes to tandem, so results can be checked against the right method.
type requestTap struct {
	w       io.WriteCloser
	mu      sync.Mutex
	methods map[string]string
	partial []byte
}

func (r *requestTap) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.partial = append(r.partial, p...)
	for {
		i := bytes.IndexByte(r.partial, '\n')
		if i < 0 {
			break
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(r.partial[:i], &msg) == nil && msg.Method != "" && len(msg.ID) > 0 {
			r.methods[string(msg.ID)] = msg.Method
		}
		r.partial = r.partial[i+1:]
	}
	r.mu.Unlock()
	return r.w.Write(p)
}

func (r *requestTap) Close() error { return r.w.Close() }

func (r *requestTap) method(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.methods[id]
}

// errRecorder is a testing.TB that keeps Errorf calls instead of failing.
type errRecorder struct {
	testing.TB
	errs []string
}

func (e *errRecorder) Errorf(format string, args ...any) {
	e.errs = append(e.errs, format)
}

// TestWireSchemaCatchesBadMessages: the checker every editor test runs
// really rejects what clients reject (a plan entry without a priority, a
// prompt result without a stop reason) and accepts the valid forms.
func TestWireSchemaCatchesBadMessages(t *testing.T) {
	w := loadWireSchema(t)
	if w == nil {
		t.Skip("the ACP schema is not installed; ./test.sh installs it")
	}
	asked := func(id string) string {
		switch id {
		case "7":
			return "session/prompt"
		case "8":
			return "session/fork"
		}
		return ""
	}
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending","priority":"medium"}]}}}`, true},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending"}]}}}`, false},
		{`{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}`, true},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":3,"method":"fs/delete_everything","params":{}}`, false},
		// A stable method is held to the stable schema: an update only the
		// unstable one knows is refused; session/fork, unstable, is checked
		// against the unstable schema.
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p1"}}}`, false},
		{`{"jsonrpc":"2.0","id":8,"result":{"sessionId":"s2"}}`, true},
		{`{"jsonrpc":"2.0","id":8,"result":{}}`, false},
	} {
		rec := &errRecorder{TB: t}
		w.check(rec, []byte(c.line), asked)
		if ok := len(rec.errs) == 0; ok != c.ok {
			t.Errorf("%s: accepted %v, want %v (%v)", c.line, ok, c.ok, rec.errs)
		}
	}
}
