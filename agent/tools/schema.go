package tools

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor derives the JSON schema of a tool's arguments from the struct A
// with jsonschema.For, which reads:
//
//   - `json:"name"` for the property name; a field tagged omitempty (or
//     omitzero) is optional, every other field is required;
//   - `jsonschema:"text"` for the property's description.
//
// On top of that, `enum:"a|b|c"` on a string field lists its allowed values
// (jsonschema-go reserves "word=" tags for itself, so enums get their own
// tag). Properties keep the struct's field order and extra properties are
// refused ("additionalProperties": false).
//
// jsonschema.For lets a slice or pointer be null. The schema the model sees
// does not: the checker treats null as "absent" instead, which is what a
// model sending null for an optional field means, and refuses it for a
// required one.
func schemaFor[A any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[A](nil)
	if err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("arguments must be a struct, got schema type %q", s.Type)
	}
	if err := refine(s, reflect.TypeFor[A]()); err != nil {
		return nil, err
	}
	return s, nil
}

// refine walks the schema alongside the Go type it came from: it drops
// "null" from type lists, applies enum tags and checks that only keywords
// checkArgs enforces appear, so the model is never promised a rule nobody
// checks.
func refine(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	switch t.Kind() {
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			name := jsonName(f)
			prop := s.Properties[name]
			if f.Anonymous || prop == nil {
				continue
			}
			if enum, ok := f.Tag.Lookup("enum"); ok {
				if prop.Type != "string" {
					return fmt.Errorf("field %s: enum tag on a %s", f.Name, prop.Type)
				}
				for _, v := range strings.Split(enum, "|") {
					prop.Enum = append(prop.Enum, v)
				}
			}
			if err := refine(prop, f.Type); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
	case reflect.Slice, reflect.Array:
		if err := refine(s.Items, t.Elem()); err != nil {
			return err
		}
	}
	return supported(s)
}

// supported reports a keyword checkArgs would not enforce.
func supported(s *jsonschema.Schema) error {
	rest := *s
	rest.Type, rest.Description, rest.Enum = "", "", nil
	rest.Properties, rest.PropertyOrder, rest.Required = nil, nil, nil
	rest.Items = nil
	if s.AdditionalProperties != nil {
		if !isFalse(s.AdditionalProperties) {
			return errors.New("additionalProperties other than false")
		}
		rest.AdditionalProperties = nil
	}
	if !reflect.ValueOf(rest).IsZero() {
		return fmt.Errorf("schema uses keywords the argument checker does not enforce: %+v", rest)
	}
	switch s.Type {
	case "object", "array", "string", "integer", "number", "boolean":
		return nil
	}
	return fmt.Errorf("unsupported schema type %q", s.Type)
}

// isFalse reports the schema that matches nothing, jsonschema-go's "false".
func isFalse(s *jsonschema.Schema) bool {
	if s.Not == nil || !reflect.ValueOf(*s.Not).IsZero() {
		return false
	}
	rest := *s
	rest.Not = nil
	return reflect.ValueOf(rest).IsZero()
}

// jsonName is the property name encoding/json uses for f.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
