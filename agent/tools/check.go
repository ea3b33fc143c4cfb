package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// decodeArgs checks a call's raw arguments against the tool's schema and
// decodes them into A. On failure it returns a message for the model naming
// every problem and the fields the tool takes.
//
// Unknown fields are refused rather than ignored: a misspelt optional
// argument (old_strng, replaceAll) silently ignored changes what the call
// does, while an error costs one round trip and names the right spelling.
// Missing or null input counts as an empty object, and null for an optional
// field counts as leaving it out, which is what models mean by it.
func decodeArgs[A any](tool string, s *jsonschema.Schema, input json.RawMessage) (A, string) {
	var args A
	trimmed := bytes.TrimSpace(input)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber() // keeps integers exact and tells 1 from 1.5
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.Decode(new(any)) != io.EOF {
		err = errors.New("unexpected data after the arguments object")
	}
	if err != nil {
		return args, fmt.Sprintf("Invalid arguments for %s: not valid JSON (%v).\n%s", tool, err, takes(tool, s))
	}
	c := checker{}
	v = c.value(s, v, "")
	if len(c.problems) > 0 {
		return args, fmt.Sprintf("Invalid arguments for %s:\n- %s\n%s", tool, strings.Join(c.problems, "\n- "), takes(tool, s))
	}
	if c.changed {
		if trimmed, err = json.Marshal(v); err != nil {
			return args, fmt.Sprintf("Invalid arguments for %s: %v", tool, err)
		}
	}
	if err := json.Unmarshal(trimmed, &args); err != nil {
		// The checker and encoding/json disagree; still the model's input.
		return args, fmt.Sprintf("Invalid arguments for %s: %v.\n%s", tool, err, takes(tool, s))
	}
	return args, ""
}

// takes is the closing line of an arguments error: what the tool accepts.
func takes(tool string, s *jsonschema.Schema) string {
	if len(s.PropertyOrder) == 0 {
		return fmt.Sprintf("%s takes no arguments: send {}.", tool)
	}
	return fmt.Sprintf("%s takes these fields: %s. Call it again with corrected arguments.", tool, fieldList(s))
}

// checker walks a decoded JSON value against a schema, collecting problems
// worded for the model. It rewrites integers written as 3.0 or 1e2 to plain
// digits (marking changed), since encoding/json refuses those for an int.
type checker struct {
	problems []string
	changed  bool
}

func (c *checker) add(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) value(s *jsonschema.Schema, v any, path string) any {
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			c.wrongType(s, v, path)
			return v
		}
		c.object(s, m, path)
	case "array":
		a, ok := v.([]any)
		if !ok {
			c.wrongType(s, v, path)
			return v
		}
		for i := range a {
			a[i] = c.value(s.Items, a[i], fmt.Sprintf("%s[%d]", path, i))
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			c.wrongType(s, v, path)
		} else if s.Enum != nil && !slices.Contains(s.Enum, any(str)) {
			c.add("%s: expected %s, got %q", field(path), typeName(s), str)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			c.wrongType(s, v, path)
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			c.wrongType(s, v, path)
		}
	case "integer":
		return c.integer(s, v, path)
	}
	return v
}

func (c *checker) object(s *jsonschema.Schema, m map[string]any, path string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // map order is random; messages must not be
	for _, k := range keys {
		prop, known := s.Properties[k]
		switch {
		case !known:
			c.add("unknown field %s%s", field(join(path, k)), suggest(k, s.PropertyOrder))
		case m[k] == nil:
			if !slices.Contains(s.Required, k) {
				delete(m, k)
			}
		default:
			m[k] = c.value(prop, m[k], join(path, k))
		}
	}
	for _, k := range s.Required {
		if m[k] == nil {
			c.add("missing required field %s (%s)", field(join(path, k)), shortType(s.Properties[k]))
		}
	}
}

func (c *checker) integer(s *jsonschema.Schema, v any, path string) any {
	n, ok := v.(json.Number)
	if !ok {
		c.wrongType(s, v, path)
		return v
	}
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return v
	}
	f, err := n.Float64()
	switch {
	case err != nil || f != math.Trunc(f):
		c.add("%s: expected integer, got number %s", field(path), n)
	case math.Abs(f) >= 1<<63:
		c.add("%s: %s is out of range for an integer", field(path), n)
	default:
		c.changed = true
		return json.Number(strconv.FormatInt(int64(f), 10))
	}
	return v
}

func (c *checker) wrongType(s *jsonschema.Schema, v any, path string) {
	if path == "" {
		c.add("the arguments must be a JSON object, got %s", jsonType(v))
		return
	}
	c.add("%s: expected %s, got %s", field(path), shortType(s), jsonType(v))
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func field(path string) string { return strconv.Quote(path) }

// jsonType names a decoded value's JSON type, with short scalars shown.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("boolean %t", v)
	case json.Number:
		return "number " + string(v)
	case string:
		if cut, ok := truncateRunes(v, 40); ok {
			v = cut + "…"
		}
		return fmt.Sprintf("string %q", v)
	case []any:
		return "array"
	default:
		return "object"
	}
}

// typeName renders a schema for the model: string, "high" | "low",
// array of object {content (required string), …}.
func typeName(s *jsonschema.Schema) string {
	switch {
	case s.Enum != nil:
		quoted := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			quoted[i] = fmt.Sprintf("%q", e)
		}
		return strings.Join(quoted, " | ")
	case s.Type == "array":
		return "array of " + typeName(s.Items)
	case s.Type == "object":
		return "object {" + fieldList(s) + "}"
	}
	return s.Type
}

// shortType names a schema's type without spelling out its fields: the
// closing line of the message lists them once.
func shortType(s *jsonschema.Schema) string {
	switch s.Type {
	case "array":
		return "array of " + shortType(s.Items)
	case "object":
		return "object"
	}
	return typeName(s)
}

// fieldList is "path (required string), offset (integer)" in schema order.
func fieldList(s *jsonschema.Schema) string {
	parts := make([]string, 0, len(s.PropertyOrder))
	for _, name := range s.PropertyOrder {
		t := typeName(s.Properties[name])
		if slices.Contains(s.Required, name) {
			t = "required " + t
		}
		parts = append(parts, name+" ("+t+")")
	}
	return strings.Join(parts, ", ")
}
