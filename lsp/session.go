package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent"
	cmdpkg "github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/local"
)

// session is one agent session served on this connection, and its
// agent.Host: it carries the session's updates to the client as
// tandem/update and turns the agent's file, edit and permission needs into
// LSP requests.
type session struct {
	srv  *Server
	id   string
	seq  uint64         // creation order on this connection
	sess *agent.Session // nil until NewSession/LoadSession returns

	sendMu sync.Mutex // guards ready and held; held while writing so updates keep their order
	ready  bool
	held   []agent.Update

	progressMu sync.Mutex        // guards progress
	progress   []*promptProgress // the prompts waiting for an answer, in order

	noticeOnce sync.Once // the "no way to ask the user" notice

	previewMu sync.Mutex      // guards preview
	preview   map[string]bool // paths whose next edit goes to the refactor preview (preview.go)
}

var _ agent.Host = (*session)(nil)

type updateParams struct {
	SessionID string       `json:"sessionId"`
	Update    agent.Update `json:"update"`
}

// Send forwards u as tandem/update. Updates the session produces before
// the client has its id (while NewSession runs) wait until the
// newSession response is on the wire.
func (ss *session) Send(u agent.Update) {
	u = u.ToolCallForm() // LSP clients show a compaction as a tool call
	ss.sendMu.Lock()
	defer ss.sendMu.Unlock()
	if !ss.ready {
		ss.held = append(ss.held, u)
		return
	}
	ss.write(u)
}

func (ss *session) write(u agent.Update) {
	if err := ss.srv.conn.notify("tandem/update", updateParams{SessionID: ss.id, Update: u}); err != nil {
		ss.srv.log.Warn("cannot send tandem/update", "session", ss.id, "err", err)
	}
	if u.Type == agent.ToolCallStarted && u.Tool != nil && u.Tool.Title != "" {
		// Answers come in order: the oldest prompt waiting is the one
		// whose part of the turn runs.
		var p *progress
		ss.progressMu.Lock()
		if len(ss.progress) > 0 {
			p = ss.progress[0].p
		}
		ss.progressMu.Unlock()
		p.report(u.Tool.Title)
	}
}

// announceCommands sends the session's slash commands (built-in, custom,
// skills, MCP prompts) as an available_commands_update, as ACP does; the
// session sends another whenever the list changes.
func (ss *session) announceCommands() {
	ss.Send(agent.Update{Type: agent.AvailableCommandsUpdate, Commands: ss.sess.Commands()})
}

// release marks the session's id as known to the client and sends what
// was held back.
func (ss *session) release() {
	ss.sendMu.Lock()
	defer ss.sendMu.Unlock()
	ss.ready = true
	for _, u := range ss.held {
		ss.write(u)
	}
	ss.held = nil
}

// ReadFile serves the editor's view: an open buffer, or content an applied
// edit left in an editor buffer, else the disk.
func (ss *session) ReadFile(ctx context.Context, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("read %q: %w", path, local.ErrNotAbsolute)
	}
	if text, ok := ss.srv.docs.read(path); ok {
		return text, nil
	}
	return local.Host{}.ReadFile(ctx, path)
}

// RunCommand runs locally: LSP has no terminal API.
func (ss *session) RunCommand(ctx context.Context, spec agent.CommandSpec) (agent.CommandResult, error) {
	return local.Run(ctx, spec)
}

// LiveCommandOutput: commands run here, so their output streams to a client
// that declared experimental.tandem.terminalOutput.
func (ss *session) LiveCommandOutput() bool {
	return ss.srv.clientCaps().Experimental.Tandem.TerminalOutput
}

// CommandConfinement is the local runner's: LSP commands run here.
func (ss *session) CommandConfinement() cmdpkg.Confinement {
	return local.Host{}.CommandConfinement()
}

// promptProgress is a prompt's progress indicator and how to stop it.
type promptProgress struct {
	p      *progress
	cancel context.CancelFunc
}

// addProgress records a prompt waiting for its answer (p may be nil); done
// forgets it.
func (ss *session) addProgress(p *progress, cancel context.CancelFunc) (done func()) {
	x := &promptProgress{p, cancel}
	ss.progressMu.Lock()
	ss.progress = append(ss.progress, x)
	ss.progressMu.Unlock()
	return func() {
		ss.progressMu.Lock()
		ss.progress = slices.DeleteFunc(ss.progress, func(y *promptProgress) bool { return y == x })
		ss.progressMu.Unlock()
	}
}

// cancelProgress stops the prompt whose progress token is token.
func (ss *session) cancelProgress(token string) {
	ss.progressMu.Lock()
	defer ss.progressMu.Unlock()
	for _, x := range ss.progress {
		if x.p != nil && x.p.token == token {
			x.cancel()
		}
	}
}
