package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// probeArgs exercises every schema feature the adapter supports.
type probeArgs struct {
	Path  string      `json:"path" jsonschema:"A path."`
	Count int         `json:"count,omitempty"`
	Deep  bool        `json:"deep,omitempty"`
	Steps []PlanEntry `json:"steps,omitempty"`
}

// newProbe returns a tool that echoes its decoded arguments.
func newProbe() Tool {
	return New(Spec[probeArgs]{Name: "probe", Group: GroupRead, Kind: KindRead, Doc: "Probe.",
		Run: func(_ context.Context, _ *Env, a probeArgs) (Result, error) {
			b, err := json.Marshal(a)
			return Result{Output: string(b)}, err
		},
		Describe: func(_ string, a probeArgs) Preview { return Preview{Title: "Probe " + a.Path} },
	})
}

func TestAdapterDecodes(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"path":"a","count":3,"deep":true,"steps":[{"content":"c","status":"pending"}]}`,
			`{"path":"a","count":3,"deep":true,"steps":[{"content":"c","status":"pending"}]}`},
		{` {"path":""} `, `{"path":""}`},
		// null for an optional field means "left out".
		{`{"path":"a","count":null,"steps":null}`, `{"path":"a"}`},
		// Integral numbers in any notation are integers.
		{`{"path":"a","count":3.0}`, `{"path":"a","count":3}`},
		{`{"path":"a","count":1e2}`, `{"path":"a","count":100}`},
		{`{"path":"a","count":-9223372036854775808}`, `{"path":"a","count":-9223372036854775808}`},
	}
	for _, c := range cases {
		res, err := newProbe().Run(context.Background(), nil, json.RawMessage(c.in))
		if err != nil || res.IsError || res.Output != c.want {
			t.Errorf("%s: got %+v, %v; want %s", c.in, res, err, c.want)
		}
	}
}

// Every way the arguments can be wrong is a result the model reads, naming
// the field, what was expected and the fields the tool takes; never a Go
// error.
func TestAdapterRefuses(t *testing.T) {
	const fields = "probe takes these fields: path (required string), count (integer), deep (boolean), " +
		`steps (array of object {content (required string), status (required "pending" | "in_progress" | "completed"), priority ("high" | "medium" | "low")})`
	cases := []struct {
		in   string
		want []string
	}{
		{``, []string{`missing required field "path" (string)`, fields}},
		{`null`, []string{`missing required field "path" (string)`}},
		{`{"path":null}`, []string{`missing required field "path" (string)`}},
		{`{"path":"a","Path":"b"}`, []string{`unknown field "Path" (did you mean "path"?)`}},
		{`{"path":"a","cuont":1}`, []string{`unknown field "cuont" (did you mean "count"?)`}},
		{`{"path":"a","verbose":true}`, []string{`unknown field "verbose"` + "\n"}},
		{`{"path":7}`, []string{`"path": expected string, got number 7`}},
		{`{"path":"a","count":"3"}`, []string{`"count": expected integer, got string "3"`}},
		{`{"path":"a","count":1.5}`, []string{`"count": expected integer, got number 1.5`}},
		{`{"path":"a","count":1e30}`, []string{`"count": 1e30 is out of range for an integer`}},
		{`{"path":"a","deep":"yes"}`, []string{`"deep": expected boolean, got string "yes"`}},
		{`{"path":"a","steps":{}}`, []string{`"steps": expected array of object, got object`}},
		{`{"path":"a","steps":[{"content":"c","status":"done","extra":1}]}`, []string{
			`"steps[0].status": expected "pending" | "in_progress" | "completed", got "done"`,
			`unknown field "steps[0].extra"`}},
		{`{"path":"a","steps":[{}]}`, []string{`missing required field "steps[0].content" (string)`, `missing required field "steps[0].status"`}},
		{`["a"]`, []string{"the arguments must be a JSON object, got array", fields}},
		{`"a"`, []string{`the arguments must be a JSON object, got string "a"`}},
		{`{"path":`, []string{"not valid JSON", fields}},
		{`{"path":"a"} {}`, []string{"unexpected data after the arguments object"}},
		// All problems at once, in a stable order.
		{`{"zz":1,"aa":2,"path":false}`, []string{"- unknown field \"aa\"\n- \"path\": expected string, got boolean false\n- unknown field \"zz\""}},
	}
	for _, c := range cases {
		res, err := newProbe().Run(context.Background(), nil, json.RawMessage(c.in))
		if err != nil || !res.IsError || !strings.HasPrefix(res.Output, "Invalid arguments for probe") {
			t.Errorf("%s: got %+v, %v; want an error result", c.in, res, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(res.Output, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.in, w, res.Output)
			}
		}
	}
}

// Describe titles a call before it is validated, so it takes anything.
func TestAdapterDescribeTolerates(t *testing.T) {
	for _, in := range []string{``, `null`, `nonsense`, `[1,2]`, `{"path":12}`, `{"path":"x","count":"many"}`, `{"path":"x"`} {
		p := newProbe().Describe("/r", json.RawMessage(in))
		if !strings.HasPrefix(p.Title, "Probe") {
			t.Errorf("%q: title %q", in, p.Title)
		}
	}
	if p := newProbe().Describe("/r", json.RawMessage(`{"path":"x","count":"many"}`)); p.Title != "Probe x" {
		t.Errorf("a bad field hid the good one: %q", p.Title)
	}
}

func run[A any](context.Context, *Env, A) (Result, error) { return Result{}, nil }

// New refuses an args type whose schema would promise what the checker
// does not enforce.
func TestAdapterRefusesUnsupportedTypes(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: New did not panic", name)
			}
		}()
		f()
	}
	type mapArgs struct {
		M map[string]int `json:"m"`
	}
	type intEnumArgs struct {
		N int `json:"n" enum:"1|2"`
	}
	mustPanic("map", func() { New(Spec[mapArgs]{Name: "m", Run: run[mapArgs]}) })
	mustPanic("enum on an int", func() { New(Spec[intEnumArgs]{Name: "n", Run: run[intEnumArgs]}) })
	mustPanic("not a struct", func() { New(Spec[[]string]{Name: "s", Run: run[[]string]}) })
	mustPanic("no Run", func() { New(Spec[probeArgs]{Name: "p"}) })
}

// The schema is rendered once: every Info, and every construction, gives
// the same bytes (the request prefix must stay byte-stable).
func TestSchemaBytesStable(t *testing.T) {
	first := map[string]string{}
	for _, tool := range Builtin() {
		first[tool.Info().Name] = string(tool.Info().Schema)
	}
	for range 20 {
		for _, tool := range Builtin() {
			if got := string(tool.Info().Schema); got != first[tool.Info().Name] {
				t.Fatalf("%s: schema changed between constructions:\n%s\n%s", tool.Info().Name, first[tool.Info().Name], got)
			}
		}
	}
}

func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"path":"a","steps":[{"content":"c","status":"pending"}]}`, `{"count":1e2}`, `[null]`, `{"steps":[{"status":null}]}`} {
		f.Add(s)
	}
	sc, err := schemaFor[probeArgs]()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		args, msg := decodeArgs[probeArgs]("probe", sc, json.RawMessage(in))
		if msg != "" {
			if !strings.Contains(msg, "probe takes") && !strings.Contains(msg, "Invalid arguments") {
				t.Fatalf("message without guidance: %q", msg)
			}
			return
		}
		// Whatever passed the checker decodes to arguments that re-check clean.
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		if _, again := decodeArgs[probeArgs]("probe", sc, b); again != "" {
			t.Fatalf("accepted %q, decoded to %s, which is then refused: %s", in, b, again)
		}
	})
}

// BenchmarkDecodeArgs is the adapter's cost per call (check and decode)
// for a typical edit_file call, beside a bare json.Unmarshal, which is all
// the tools did before.
func BenchmarkDecodeArgs(b *testing.B) {
	sc, err := schemaFor[editFileArgs]()
	if err != nil {
		b.Fatal(err)
	}
	in := json.RawMessage(`{"path":"src/main.go","old_string":"func main() {\n\tfmt.Println(\"hi\")\n}","new_string":"func main() {\n\tfmt.Println(\"bye\")\n}"}`)
	b.Run("checked", func(b *testing.B) {
		for b.Loop() {
			if _, msg := decodeArgs[editFileArgs]("edit_file", sc, in); msg != "" {
				b.Fatal(msg)
			}
		}
	})
	b.Run("unmarshal-only", func(b *testing.B) {
		for b.Loop() {
			var a editFileArgs
			if err := json.Unmarshal(in, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
