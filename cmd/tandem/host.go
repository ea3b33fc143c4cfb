package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/agent/tools"
)

// cliHost serves a session on the command line: updates go to the chosen
// output, edits and commands run on this machine, and questions are asked
// on the terminal, answered by --yes or --allow, or cannot be asked.
type cliHost struct {
	local.Host
	out   output
	in    *keyboard // nil without a terminal on stdin
	yes   bool
	allow []ruleSpec

	mu       sync.Mutex        // guards the fields below
	preAsked map[string]string // tool call id -> the --allow rule that covers it
	shown    map[string]string // path -> new content a prompt showed as a diff
	couldNot bool              // a question found nobody to answer it
	// isProtected is tools.Protected with the session's instruction file
	// names; --allow never covers a protected path.
	isProtected func(path string) bool
}

var _ agent.Host = (*cliHost)(nil)

// Send shows u; a compaction as the tool call it is shown as everywhere
// but in ACP clients with compaction entities.
func (h *cliHost) Send(u agent.Update) { h.out.send(u.ToolCallForm()) }

// setRoot confines edits to the session root, even if a tool's own check
// missed.
func (h *cliHost) setRoot(root string, instructionFiles []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Root = root
	h.isProtected = func(path string) bool { return tools.Protected(root, path, instructionFiles) }
}

func (h *cliHost) cannotAsk() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.couldNot
}

// RequestPermission settles a question the policy could not. --yes is the
// user's consent to everything, given up front; an --allow rule is consent
// to what it covers; otherwise a terminal asks, and without one there is
// nobody to ask and the policy refuses (ErrCannotAsk).
func (h *cliHost) RequestPermission(ctx context.Context, req agent.PermissionRequest) (agent.Decision, error) {
	h.mu.Lock()
	rule, allowed := h.preAsked[req.ToolCall.ID]
	delete(h.preAsked, req.ToolCall.ID)
	h.mu.Unlock()
	switch {
	case h.yes:
		h.out.permission(req, "allowed", "--yes")
		return agent.Decision{Kind: agent.AllowOnce}, nil
	case allowed:
		h.out.permission(req, "allowed", "--allow "+rule)
		return agent.Decision{Kind: agent.AllowOnce}, nil
	case h.in == nil:
		h.mu.Lock()
		h.couldNot = true
		h.mu.Unlock()
		h.out.permission(req, "cannot_ask", "nobody")
		return agent.Decision{}, agent.ErrCannotAsk
	}
	w := h.out.screen().hold()
	defer h.out.screen().release()
	h.showRequest(w, req)
	d, err := h.readAnswer(ctx, w, req.Options)
	if err == nil {
		outcome := "rejected"
		if d.Kind == agent.AllowOnce || d.Kind == agent.AllowAlways {
			outcome = "allowed"
		}
		h.out.permission(req, outcome, "user")
	}
	return d, err
}

// showRequest prints what the call wants to do: its title, then the diff
// (hunks with a few lines of context, coloured on a terminal) or the
// command line.
func (h *cliHost) showRequest(w io.Writer, req agent.PermissionRequest) {
	st := h.out.screen().style
	fmt.Fprintf(w, "\n%s\n", st.bold(req.ToolCall.Title))
	for _, c := range req.ToolCall.Content {
		switch {
		case c.Type == "diff" && c.NewText != nil:
			fe := edits.FileEdit{Path: c.Path, New: *c.NewText, Create: c.OldText == nil}
			if c.OldText != nil {
				fe.Old = *c.OldText
			}
			for _, l := range st.diff(edits.Unified(h.shownPath(c.Path), fe)) {
				fmt.Fprintln(w, l)
			}
			h.mu.Lock()
			if h.shown == nil {
				h.shown = map[string]string{}
			}
			h.shown[c.Path] = fe.New
			h.mu.Unlock()
		case c.Content != nil:
			fmt.Fprintln(w, c.Content.Text)
		}
	}
}

// readAnswer lists the options, one key each (the "always" ones say what
// they remember), and reads keys until one is offered. Enter and EOF reject.
func (h *cliHost) readAnswer(ctx context.Context, w io.Writer, options []agent.PermissionOption) (agent.Decision, error) {
	keys := map[agent.PermissionKind]string{agent.AllowOnce: "y", agent.AllowAlways: "a", agent.RejectOnce: "n", agent.RejectAlways: "v"}
	choices := map[string]agent.PermissionKind{}
	var letters []string
	for _, o := range options {
		if k, ok := keys[o.Kind]; ok {
			fmt.Fprintf(w, "  [%s] %s\n", k, o.Name)
			choices[k] = o.Kind
			letters = append(letters, k)
		}
	}
	for {
		fmt.Fprintf(w, "Choose [%s] (Enter rejects): ", strings.Join(letters, "/"))
		line, err := h.in.readLine(ctx)
		if err == io.EOF {
			fmt.Fprintln(w)
			return agent.Decision{Kind: agent.RejectOnce}, nil
		}
		if err != nil {
			fmt.Fprintln(w)
			return agent.Decision{}, err
		}
		answer := strings.ToLower(strings.TrimSpace(line))
		if word, ok := map[string]string{"": "n", "yes": "y", "always": "a", "no": "n", "never": "v"}[answer]; ok {
			answer = word
		}
		if k, ok := choices[answer]; ok {
			return agent.Decision{Kind: k}, nil
		}
	}
}

// ApplyEdit writes through the local host and shows an edit no prompt
// showed (auto-approved by the mode, --yes or --allow) as a diff.
func (h *cliHost) ApplyEdit(ctx context.Context, fe edits.FileEdit) (edits.Result, error) {
	h.mu.Lock()
	lh := h.Host
	shown, ok := h.shown[fe.Path]
	delete(h.shown, fe.Path)
	h.mu.Unlock()
	r, err := lh.ApplyEdit(ctx, fe)
	if err == nil && r.Applied && !(ok && shown == fe.New) {
		h.out.edited(h.shownPath(fe.Path), fe)
	}
	return r, err
}

// shownPath is path as the user reads it: relative to the session root
// when inside it.
func (h *cliHost) shownPath(path string) string {
	h.mu.Lock()
	root := h.Root
	h.mu.Unlock()
	if rel, err := filepath.Rel(root, path); err == nil && root != "" && filepath.IsLocal(rel) {
		return rel
	}
	return path
}
