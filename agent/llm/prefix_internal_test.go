package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// sameHead tells apart two requests differing in any field but Messages,
// so a field added to Request cannot be left out of the head cache's key.
func TestSameHeadComparesEveryField(t *testing.T) {
	typ := reflect.TypeFor[Request]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		var a, b Request
		v := reflect.ValueOf(&b).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Int:
			v.SetInt(1)
		case reflect.Slice:
			if f.Name == "Messages" {
				b.Messages = []Message{Text(RoleUser, "q")}
				if !sameHead(&a, &b) {
					t.Errorf("requests differing only in Messages have different heads")
				}
				continue
			}
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		default:
			t.Fatalf("Request.%s is a %s: teach this test (and sameHead) about it", f.Name, v.Kind())
		}
		if sameHead(&a, &b) {
			t.Errorf("requests differing in %s have the same head", f.Name)
		}
	}
	x := []ToolSpec{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	y := []ToolSpec{{Name: "t", InputSchema: json.RawMessage(`{"type":"objecT"}`)}}
	if sameHead(&Request{Tools: x}, &Request{Tools: y}) {
		t.Errorf("tools differing in their schema have the same head")
	}
}

// A part changed in any field, its rare ones included, no longer matches
// what was kept of it, so a field added to Part cannot be left out of
// keepParts and samePart.
func TestKeptPartComparesEveryField(t *testing.T) {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Part]()) {
		if f.Anonymous {
			continue // PartRare itself: its fields come next
		}
		for _, rare := range []bool{false, true} {
			for _, tool := range []bool{false, true} {
				orig := Part{Type: PartText, Text: "t"}
				if tool {
					orig.ToolCallID = "c" // kept in more
				}
				if rare {
					orig.PartRare = &PartRare{Signature: "s"} // kept whole
				}
				changed := orig
				if len(f.Index) > 1 { // a rare field: change a copy, not orig's
					changed.PartRare = &PartRare{}
					if orig.PartRare != nil {
						*changed.PartRare = *orig.PartRare
					}
				}
				v := reflect.ValueOf(&changed).Elem().FieldByIndex(f.Index)
				switch {
				case v.Kind() == reflect.String:
					v.SetString(v.String() + "x")
				case v.Kind() == reflect.Bool:
					v.SetBool(true)
				case v.Type() == reflect.TypeFor[json.RawMessage]():
					v.SetBytes([]byte(`{}`))
				case v.Type() == reflect.TypeFor[[]Part]():
					v.Set(reflect.ValueOf([]Part{Image("image/png", "d")}))
				case v.Kind() == reflect.Map:
					v.Set(reflect.ValueOf(map[string]json.RawMessage{"k": json.RawMessage(`1`)}))
				default:
					t.Fatalf("Part.%s is a %s: teach this test (and keepParts) about it", f.Name, v.Type())
				}
				k := keptMessage{role: roleCode(RoleUser), parts: 1}
				kept := keepParts(nil, &Message{Role: RoleUser, Content: []Part{orig}}, nil, 0)
				if sameMessage(&k, kept, &Message{Role: RoleUser, Content: []Part{changed}}, &bodyCursor{}) {
					t.Errorf("rare %v, tool %v: a part changed in %s still matches", rare, tool, f.Name)
				}
				if !sameMessage(&k, kept, &Message{Role: RoleUser, Content: []Part{orig}}, &bodyCursor{}) {
					t.Errorf("rare %v, tool %v: the part itself does not match", rare, tool)
				}
			}
		}
	}
}

// A part's JSON (the session log's shape) is the same with its rare
// fields behind a pointer as when they were inline, both ways.
func TestPartJSONKeepsItsShape(t *testing.T) {
	const wire = `{"type":"tool_result","text":"out","tool_call_id":"c","is_error":true,"images":[{"type":"image","media_type":"image/png","data":"d"}]}`
	var p Part
	if err := json.Unmarshal([]byte(wire), &p); err != nil {
		t.Fatal(err)
	}
	if p.ToolCallID != "c" || !p.IsError || len(p.Images()) != 1 || p.Images()[0].MediaType() != "image/png" || p.Images()[0].Data() != "d" {
		t.Errorf("decoded %+v", p)
	}
	if b, _ := json.Marshal(p); string(b) != wire {
		t.Errorf("encoded %s, want %s", b, wire)
	}
	var plain Part
	if err := json.Unmarshal([]byte(`{"type":"text","text":"hi"}`), &plain); err != nil || plain.PartRare != nil {
		t.Errorf("a plain part decoded with rare fields %+v (%v)", plain.PartRare, err)
	}
}

// A role or part type the cache has no code for never matches, so a
// history carrying one is encoded anew from there, never sent stale.
func TestPrefixCacheUnknownKindsEncodeAnew(t *testing.T) {
	var c PrefixCache
	var encoded []int
	appendMsg := func(dst []byte, _ byte, i int, m *Message) ([]byte, error) {
		encoded = append(encoded, i)
		return append(dst, m.Content[0].Text...), nil
	}
	msgs := []Message{Text(RoleUser, "a"), Text("system", "b"), {Role: RoleUser, Content: []Part{{Type: "note", Text: "c"}}}, Text(RoleUser, "d")}
	for range 2 {
		encoded = nil
		segs, err := c.Encode([]byte("["), msgs, appendMsg)
		if err != nil {
			t.Fatal(err)
		}
		var body []byte
		for _, s := range segs {
			body = append(body, s...)
		}
		if string(body) != "[abcd" {
			t.Fatalf("body %q", body)
		}
	}
	if !reflect.DeepEqual(encoded, []int{1, 2, 3}) {
		t.Errorf("the second request encoded messages %v, want [1 2 3]", encoded)
	}
}

// The body cursor finds bytes at any offset, across segment bounds, with
// offsets read in increasing order as sharedRun reads them.
func TestBodyCursorEqual(t *testing.T) {
	c := bodyCursor{segs: [][]byte{[]byte("ab"), []byte("cde"), []byte("f")}}
	for _, tc := range []struct {
		at   int
		b    string
		want bool
	}{{0, "ab", true}, {1, "bcd", true}, {2, "x", false}, {3, "def", true}, {4, "ef", true}, {5, "fg", false}, {6, "g", false}} {
		if got := c.equal(tc.at, []byte(tc.b)); got != tc.want {
			t.Errorf("equal(%d, %q) = %v, want %v", tc.at, tc.b, got, tc.want)
		}
	}
}

// Bytes a caller can rewrite in place (a tool input, a replayed extra)
// are kept as where the body holds them, not copied, and still tell a
// rewrite of the same length from the bytes that were sent.
func TestKeptSpansTellRewritesInPlace(t *testing.T) {
	p := Part{Type: PartThinking, Text: "plan", Input: json.RawMessage(`{"a":1}`),
		PartRare: &PartRare{Extra: map[string]json.RawMessage{"reasoning_content": json.RawMessage(`"plan"`)}}}
	m := Message{Role: RoleAssistant, Content: []Part{p}}
	enc := []byte(`{"reasoning_content":"plan","input":{"a":1}}`)
	body := [][]byte{[]byte("[head,"), enc}
	kept := keepParts(nil, &m, enc, len(body[0]))
	more := kept[0].more
	if more.input.copy != nil || more.rare.extra["reasoning_content"].copy != nil {
		t.Fatalf("bytes the body holds were copied: %+v", more)
	}
	k := keptMessage{role: roleCode(RoleAssistant), parts: 1}
	if !sameMessage(&k, kept, &m, &bodyCursor{segs: body}) {
		t.Fatal("the message itself does not match")
	}
	m.Content[0].Extra()["reasoning_content"][1] = 'P'
	if sameMessage(&k, kept, &m, &bodyCursor{segs: body}) {
		t.Error("an extra rewritten in place still matches")
	}
	m.Content[0].Extra()["reasoning_content"][1] = 'p'
	m.Content[0].Input[5] = '2'
	if sameMessage(&k, kept, &m, &bodyCursor{segs: body}) {
		t.Error("an input rewritten in place still matches")
	}
}

// Head keeps the most recently used heads, a hit moving to the front
// without building a new list: the least recently used is the one a new
// head pushes out.
func TestHeadKeepsRecentlyUsed(t *testing.T) {
	var c PrefixCache
	builds := 0
	head := func(model string) []byte {
		b, err := c.Head(&Request{Model: model}, func() ([]byte, error) { builds++; return []byte(model), nil })
		if err != nil || string(b) != model {
			t.Fatalf("Head(%s) = %q, %v", model, b, err)
		}
		return b
	}
	for _, m := range []string{"a", "b", "c", "d"} {
		head(m)
	}
	head("a") // a hit: to the front
	if n := testing.AllocsPerRun(10, func() { head("b") }); n != 0 {
		t.Errorf("a hit allocated %v times", n)
	}
	head("e") // pushes out the least recently used: c
	if builds != 5 {
		t.Fatalf("%d builds, want 5", builds)
	}
	for _, m := range []string{"a", "b", "d", "e"} {
		head(m)
	}
	if builds != 5 {
		t.Errorf("a kept head was built again (%d builds)", builds)
	}
	head("c")
	if builds != 6 {
		t.Errorf("c was kept although least recently used (%d builds)", builds)
	}
}
