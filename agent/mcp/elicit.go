package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

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
			// Known before the answer leaves: the user may finish the step
			// behind the link before tandem has sent it.
			s.urls.add(e)
		} else {
			e.Content, e.Missing = formDefaults(p.RequestedSchema)
			if b, err := json.Marshal(p.RequestedSchema); err == nil && len(b) > 0 && b[0] == '{' {
				e.Schema = b
			}
		}
		a, err := s.m.opts.OnElicit(ctx, e)
		if err != nil || a.Action != "accept" {
			s.urls.take(e.ID) // nothing to complete
		}
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

// urlElicits are the url-mode elicitations of one server that the user
// was shown and has not seen completed, by id.
type urlElicits struct {
	mu   sync.Mutex // guards byID
	byID map[string]Elicitation
}

func (u *urlElicits) add(e Elicitation) {
	if e.ID == "" {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byID == nil {
		u.byID = map[string]Elicitation{}
	}
	u.byID[e.ID] = e
}

// take removes and returns the elicitation id names.
func (u *urlElicits) take(id string) (Elicitation, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e, ok := u.byID[id]
	delete(u.byID, id)
	return e, ok
}

// elicitCompleteHandler passes a server's notifications/elicitation/complete
// to Options.OnElicitDone, once, and only for a url-mode elicitation of
// this server the user accepted: a server cannot make tandem announce a
// step it never showed.
func (s *server) elicitCompleteHandler() func(context.Context, *sdk.ElicitationCompleteNotificationRequest) {
	if s.m.opts.OnElicitDone == nil {
		return nil
	}
	return func(_ context.Context, req *sdk.ElicitationCompleteNotificationRequest) {
		if req.Params == nil {
			return
		}
		if e, ok := s.urls.take(req.Params.ElicitationID); ok {
			s.m.events.push(event{elicitDone: &e})
		}
	}
}

// capabilities is what tandem tells a server it supports: roots (the SDK's
// default) and, when the session can ask the user, both elicitation
// modes, a form and a link to open (url mode), which the editor shows
// itself or tandem puts in its permission prompt.
func (s *server) capabilities() *sdk.ClientCapabilities {
	caps := &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}}
	if s.m.opts.OnElicit != nil {
		caps.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
	}
	return caps
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
