package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// Spec defines a built-in tool over its typed arguments A. The JSON schema
// the model sees is derived from A (see schemaFor), so the struct is the one
// place an argument is named, typed, described and marked optional.
type Spec[A any] struct {
	Name  string
	Group Group
	Kind  Kind
	// Doc is the model-facing description (the tool's embedded .md file).
	Doc string
	// Run executes a call whose arguments have already been checked against
	// the schema. It follows Tool.Run's split between results and errors.
	Run func(ctx context.Context, env *Env, args A) (Result, error)
	// Describe titles a call. It gets whatever part of the arguments could
	// be decoded (zero values for the rest) and must not do I/O.
	Describe func(root string, args A) Preview
}

// New turns a Spec into a Tool. The schema is derived and rendered once
// here, so Info returns the same bytes on every call (the request prefix
// stays byte-stable). New panics when A cannot be described by the schema
// subset the checker enforces: that is a programming error every test that
// builds the tool catches, like a bad regexp.MustCompile.
func New[A any](s Spec[A]) Tool {
	if s.Run == nil {
		panic(fmt.Sprintf("tools.New(%s): no Run function", s.Name))
	}
	sc, err := schemaFor[A]()
	if err != nil {
		panic(fmt.Sprintf("tools.New(%s): %v", s.Name, err))
	}
	raw, err := json.Marshal(sc)
	if err != nil {
		panic(fmt.Sprintf("tools.New(%s): rendering the schema: %v", s.Name, err))
	}
	return &typedTool[A]{spec: s, schema: sc, info: Info{
		Name: s.Name, Group: s.Group, Kind: s.Kind, Description: s.Doc, Schema: raw,
	}}
}

// typedTool adapts a Spec to the raw-JSON Tool interface the agent uses.
type typedTool[A any] struct {
	spec   Spec[A]
	schema *jsonschema.Schema
	info   Info
}

func (t *typedTool[A]) Info() Info { return t.info }

// Describe decodes as much as it can and ignores the rest: the editor shows
// the call before its arguments are validated, and the model's input may be
// anything, including not JSON at all.
func (t *typedTool[A]) Describe(root string, input json.RawMessage) Preview {
	var args A
	_ = json.Unmarshal(input, &args)
	if t.spec.Describe == nil {
		return Preview{Title: t.spec.Name}
	}
	return t.spec.Describe(root, args)
}

// Run checks the input against the schema and decodes it. Arguments that do
// not fit are the model's mistake, so they come back as an error result
// naming every problem and the fields the tool takes, never as a Go error.
func (t *typedTool[A]) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	args, msg := decodeArgs[A](t.spec.Name, t.schema, input)
	if msg != "" {
		return Result{Output: msg, IsError: true}, nil
	}
	return t.spec.Run(ctx, env, args)
}
