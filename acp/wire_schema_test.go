package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// wireSchema checks every message tandem writes to a test editor against
// the official ACP schema, version 1.21 as vendored in testdata/acpschema:
// requests and notifications by their method, results by the method of
// the request they answer. The check is strict: an object may carry only
// the properties the schema names (or anything under _meta), so a field
// only the unstable schema defines fails the stable one even though the
// schema files themselves leave objects open.
type wireSchema struct {
	doc     map[string]any
	request map[string]string // method tandem calls → definition of its params
	result  map[string]string // method tandem answers → definition of its result

	// stable is the stable schema (schema.json), set on the unstable one
	// (schema.unstable.json, a superset). A client that did not opt in to
	// the unstable protocol (optedIn) is held to stable for every method
	// stable defines; the unstable-only ones (session/fork) are checked
	// against the unstable schema whoever calls them.
	stable *wireSchema

	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
}

// schemaDir is where the ACP schema is vendored (see its SOURCE file).
const schemaDir = "testdata/acpschema"

// readWireSchema reads one schema file and indexes its methods.
func readWireSchema(path string) (*wireSchema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w := &wireSchema{request: map[string]string{}, result: map[string]string{}, resolved: map[string]*jsonschema.Resolved{}}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w.doc = closeObjects(doc, false).(map[string]any)
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

// closeObjects returns schema node n with `unevaluatedProperties: false`
// on every schema that describes a value in a message (site: a property's
// schema, an array's items, a map's values, the root), and nowhere else:
// the definitions and the members of allOf/anyOf/oneOf stay open, because
// a closed part would refuse the properties its siblings add (a session
// update's sessionUpdate beside its content chunk). unevaluatedProperties
// sees the properties every applied part named, so the closed site admits
// exactly the union. A site that constrains nothing keeps its rule.
func closeObjects(n any, site bool) any {
	m, ok := n.(map[string]any)
	if !ok {
		return n
	}
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		switch k {
		case "properties", "$defs":
			sub, _ := v.(map[string]any)
			c := make(map[string]any, len(sub))
			for name, s := range sub {
				c[name] = closeObjects(s, k == "properties")
			}
			out[k] = c
		case "items", "additionalProperties":
			out[k] = closeObjects(v, true)
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			c := make([]any, len(list))
			for i, s := range list {
				c[i] = closeObjects(s, false)
			}
			out[k] = c
		default:
			out[k] = v // const, enum, default: values, not schemas
		}
	}
	if site && constrains(m) {
		out["unevaluatedProperties"] = false
	}
	return out
}

// constrains reports whether schema m says what an object may hold: it
// names properties or defers to other schemas, and does not itself say
// what else it takes (additionalProperties, as _meta does). A schema with
// neither, such as a tool call's rawInput, admits any value and stays so.
func constrains(m map[string]any) bool {
	if _, ok := m["additionalProperties"]; ok {
		return false
	}
	for _, k := range []string{"properties", "$ref", "allOf", "anyOf", "oneOf"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

var (
	wireSchemaOnce sync.Once
	wireSchemaVal  *wireSchema
	wireSchemaErr  error
)

// loadWireSchema returns the checker (the unstable schema, with the stable
// one beside it).
func loadWireSchema(t testing.TB) *wireSchema {
	t.Helper()
	wireSchemaOnce.Do(func() {
		var w, stable *wireSchema
		if w, wireSchemaErr = readWireSchema(filepath.Join(schemaDir, "schema.unstable.json")); wireSchemaErr != nil {
			return
		}
		if stable, wireSchemaErr = readWireSchema(filepath.Join(schemaDir, "schema.json")); wireSchemaErr != nil {
			return
		}
		w.stable = stable
		wireSchemaVal = w
	})
	if wireSchemaErr != nil {
		t.Fatalf("reading the vendored ACP schema: %v", wireSchemaErr)
	}
	return wireSchemaVal
}

// def resolves one definition of w, to validate a value against it.
func (w *wireSchema) def(name string) (*jsonschema.Resolved, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r, ok := w.resolved[name]; ok {
		return r, nil
	}
	doc := make(map[string]any, len(w.doc)+1)
	for k, v := range w.doc {
		doc[k] = v
	}
	delete(doc, "anyOf")
	doc["$ref"] = "#/$defs/" + name
	doc["unevaluatedProperties"] = false
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

// unstableClientCaps lists the client capabilities only the unstable
// schema defines, as dotted paths ("plan", "session.compaction"): the
// properties of ClientCapabilities, and of the objects it refers to, that
// schema.json lacks. A client sending one opted in to the unstable
// protocol.
func (w *wireSchema) unstableClientCaps() []string {
	defs := func(s *wireSchema) map[string]any { d, _ := s.doc["$defs"].(map[string]any); return d }
	props := func(s *wireSchema, def string) map[string]any {
		d, _ := defs(s)[def].(map[string]any)
		p, _ := d["properties"].(map[string]any)
		return p
	}
	var out []string
	var walk func(def, prefix string)
	walk = func(def, prefix string) {
		stable := props(w.stable, def)
		for name, p := range props(w, def) {
			if _, ok := stable[name]; !ok {
				out = append(out, prefix+name)
				continue
			}
			if ref := refOf(p); ref != "" {
				walk(ref, prefix+name+".")
			}
		}
	}
	walk("ClientCapabilities", "")
	slices.Sort(out)
	return out
}

// refOf is the definition a property's schema refers to, directly or as
// the one non-null member of an allOf/anyOf; "" when none.
func refOf(p any) string {
	m, _ := p.(map[string]any)
	if r, ok := m["$ref"].(string); ok {
		return strings.TrimPrefix(r, "#/$defs/")
	}
	for _, k := range []string{"allOf", "anyOf"} {
		list, _ := m[k].([]any)
		for _, s := range list {
			if r := refOf(s); r != "" {
				return r
			}
		}
	}
	return ""
}

// optedIn reports whether a client that sent caps in initialize opted in
// to the unstable protocol.
func (w *wireSchema) optedIn(caps json.RawMessage) bool {
	var v map[string]any
	if json.Unmarshal(caps, &v) != nil {
		return false
	}
	for _, path := range w.unstableClientCaps() {
		var cur any = v
		for _, part := range strings.Split(path, ".") {
			m, _ := cur.(map[string]any)
			cur = m[part]
		}
		if cur != nil {
			return true
		}
	}
	return false
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

// clientSide is what the check needs of the client's half of the
// conversation: the method of each request it sent, and the capabilities
// of its last initialize.
type clientSide interface {
	method(id string) string
	capabilities() json.RawMessage
}

// check validates one line tandem wrote to the client c.
func (w *wireSchema) check(t testing.TB, line []byte, c clientSide) {
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
	stable := w.stable
	if w.optedIn(c.capabilities()) {
		stable = nil // the unstable schema throughout
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
		if d := stable.requestDef(msg.Method); d != "" {
			by, def = stable, d
		}
	case msg.Error != nil:
		return
	default:
		method := c.method(string(msg.ID))
		def, inst = w.result[method], msg.Result
		if def == "" {
			return // an answer to a request the tap did not see
		}
		if d := stable.resultDef(method); d != "" {
			by, def = stable, d
		}
	}
	r, err := by.def(def)
	if err != nil {
		t.Errorf("resolving %s: %v", def, err)
		return
	}
	which := "schema.unstable.json"
	if by == w.stable {
		which = "schema.json"
	}
	if err := r.Validate(inst); err != nil {
		t.Errorf("tandem's %s does not match the ACP schema (%s): %v\n%s", def, which, err, line)
	}
}

// async returns a function that queues a line for checking on a goroutine
// of its own: resolving the schema's definitions takes long on a busy
// machine, and doing it in the client's read path would slow the editor's
// answers until tandem's own deadlines fire. The queue is drained, and its
// findings reported, when the test ends.
func (w *wireSchema) async(t testing.TB, c clientSide) func(line []byte) {
	lines := make(chan []byte, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for l := range lines {
			w.check(t, l, c)
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
// writes to tandem, so results can be checked against the right method,
// and the capabilities it sent, so they are checked against the schema it
// speaks.
type requestTap struct {
	w       io.WriteCloser
	mu      sync.Mutex
	methods map[string]string
	caps    json.RawMessage
	partial []byte
}

func newRequestTap(w io.WriteCloser) *requestTap {
	return &requestTap{w: w, methods: map[string]string{}}
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
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			} `json:"params"`
		}
		if json.Unmarshal(r.partial[:i], &msg) == nil && msg.Method != "" && len(msg.ID) > 0 {
			r.methods[string(msg.ID)] = msg.Method
			if msg.Method == "initialize" {
				r.caps = msg.Params.ClientCapabilities
			}
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

func (r *requestTap) capabilities() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.caps
}

// errRecorder is a testing.TB that keeps Errorf calls instead of failing.
type errRecorder struct {
	testing.TB
	errs []string
}

func (e *errRecorder) Errorf(format string, args ...any) {
	e.errs = append(e.errs, format)
}

// fakeClient is a clientSide for checking lines by hand.
type fakeClient struct {
	methods map[string]string
	caps    string
}

func (f fakeClient) method(id string) string       { return f.methods[id] }
func (f fakeClient) capabilities() json.RawMessage { return json.RawMessage(f.caps) }

// TestWireSchemaCatchesBadMessages: the checker every editor test runs
// really rejects what clients reject (a plan entry without a priority, a
// prompt result without a stop reason, a field the schema does not name)
// and accepts the valid forms; a client that opted in to the unstable
// protocol is held to the unstable schema, one that did not to the stable.
func TestWireSchemaCatchesBadMessages(t *testing.T) {
	w := loadWireSchema(t)
	methods := map[string]string{"7": "session/prompt", "8": "session/fork", "9": "initialize"}
	stable := fakeClient{methods: methods, caps: `{"fs":{"readTextFile":true},"auth":{"terminal":true},"_meta":{"terminal-auth":true}}`}
	unstable := fakeClient{methods: methods, caps: `{"fs":{"readTextFile":true},"session":{"compaction":{}}}`}
	const usage = `{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3}}}`
	const envVar = `{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":1,"authMethods":[{"id":"k","name":"Key","type":"env_var","vars":[{"name":"K"}]}]}}`
	const fork = `{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"fork":{}}},"authMethods":[]}}`
	for _, c := range []struct {
		line   string
		client fakeClient
		ok     bool
	}{
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending","priority":"medium"}]}}}`, stable, true},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending"}]}}}`, stable, false},
		{`{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}`, stable, true},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, stable, false},
		{`{"jsonrpc":"2.0","id":3,"method":"fs/delete_everything","params":{}}`, stable, false},
		// A field no schema names fails, at any depth; anything goes in _meta.
		{`{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn","colour":"red"}}`, unstable, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","bold":true}}}}`, stable, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","_meta":{"bold":true}}}}}`, stable, true},
		// A value the schema leaves free (a tool's raw input) stays free.
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"Run","rawInput":{"command":"ls","more":{"x":1}}}}}`, stable, true},
		// What only the unstable schema has reaches only the clients that
		// opted in: an update, the turn's usage, the fork capability. 1.21
		// has no env_var login method at all.
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p1"}}}`, stable, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p1"}}}`, unstable, true},
		{usage, stable, false},
		{usage, unstable, true},
		{fork, stable, false},
		{fork, unstable, true},
		{envVar, stable, false},
		{envVar, unstable, false},
		{`{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":1,"authMethods":[{"id":"l","name":"Log in","type":"terminal","args":["login"],"env":{"A":"1"}},{"id":"k","name":"Key","_meta":{"terminal-auth":{"command":"/bin/t","args":["login"],"label":"t"}}}]}}`, stable, true},
		// session/fork, unstable only, is checked against the unstable
		// schema whoever calls it.
		{`{"jsonrpc":"2.0","id":8,"result":{"sessionId":"s2"}}`, stable, true},
		{`{"jsonrpc":"2.0","id":8,"result":{}}`, stable, false},
	} {
		rec := &errRecorder{TB: t}
		w.check(rec, []byte(c.line), c.client)
		if ok := len(rec.errs) == 0; ok != c.ok {
			t.Errorf("%s (caps %s): accepted %v, want %v (%v)", c.line, c.client.caps, ok, c.ok, rec.errs)
		}
	}
}
