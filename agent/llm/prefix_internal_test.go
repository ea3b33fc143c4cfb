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
