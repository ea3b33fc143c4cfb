package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation is a server's request for input from the user
// (elicitation/create).
type Elicitation struct {
	Server  string
	Message string
	// URL is set in url mode: the server wants the user to open it.
	URL string
	// ID is a url-mode elicitation's id.
	ID string
	// Schema is a form's requested schema (flat, primitive properties),
	// for a front door that can show the form itself.
	Schema json.RawMessage
	// Content is what accepting a form sends: each field's default, and
	// true for a required yes/no question (the accept is the yes).
	Content map[string]any
	// Missing names required form fields tandem cannot fill without a
	// form; a front door that cannot show one must decline.
	Missing []string
}

// Answer is the user's reply: "accept", "decline" or "cancel".
type Answer struct {
	Action  string
	Content map[string]any
}

// elicitHandler passes a server's elicitation to Options.OnElicit; nil
// when the session has none, so the capability is not advertised.
func (s *server) elicitHandler() func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	if s.m.opts.OnElicit == nil {
		return nil
	}
	return func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		p := req.Params
		e := Elicitation{Server: s.cfg.Name, Message: p.Message}
		if p.Mode == "url" || p.URL != "" {
			e.URL, e.ID = p.URL, p.ElicitationID
		} else {
			e.Content, e.Missing = formDefaults(p.RequestedSchema)
			if b, err := json.Marshal(p.RequestedSchema); err == nil && len(b) > 0 && b[0] == '{' {
				e.Schema = b
			}
		}
		a, err := s.m.opts.OnElicit(ctx, e)
		if err != nil {
			return nil, fmt.Errorf("asking the user: %w", err)
		}
		switch a.Action {
		case "accept":
			return &sdk.ElicitResult{Action: "accept", Content: a.Content}, nil
		case "cancel":
			return &sdk.ElicitResult{Action: "cancel"}, nil
		}
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
}

// elicitSchema is the part of a form's flat schema tandem reads.
type elicitSchema struct {
	Properties map[string]struct {
		Type    string `json:"type"`
		Default any    `json:"default"`
	} `json:"properties"`
	Required []string `json:"required"`
}

// formDefaults reads what accepting the form can send without asking for
// values: defaults, and true for required booleans.
func formDefaults(schema any) (content map[string]any, missing []string) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, nil
	}
	var sc elicitSchema
	if json.Unmarshal(b, &sc) != nil {
		return nil, nil
	}
	content = map[string]any{}
	for name, p := range sc.Properties {
		switch {
		case p.Default != nil:
			content[name] = p.Default
		case p.Type == "boolean" && slices.Contains(sc.Required, name):
			content[name] = true
		case slices.Contains(sc.Required, name):
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	return content, missing
}
