package agent

import (
	"context"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/redact"
)

// LiveOutputHost is implemented by hosts whose editor shows the output of
// the commands the host runs on this machine while they run, as a
// display-only terminal inside the tool call (ACP clients that send
// clientCapabilities._meta.terminal_output; LSP clients that declare
// experimental.tandem.terminalOutput). Commands an editor runs in its own
// terminals need none of it.
type LiveOutputHost interface {
	LiveCommandOutput() bool
}

func liveOutputOf(h Host) bool {
	l, ok := h.(LiveOutputHost)
	return ok && l.LiveCommandOutput()
}

// liveTerm streams one run_command call's output to the editor through
// the session's FIFO: the command's output goroutine appends what it
// prints (write), and at most one FIFO item per terminal waits to take it,
// so output that arrives while an update is being written joins the next
// one, and none waits for a timer: a piece leaves as soon as the stream's
// previous update is written. Only a tail that could begin a known secret
// (never a whole line: no secret holds a newline) or an incomplete UTF-8
// sequence waits for the next piece or the end. Up to limit bytes stream
// as they come; what lies beyond is left out until the end, which sends
// the kept tail (finish), so the terminal shows what the tool result
// keeps: head, a marker, tail.
type liveTerm struct {
	id    string
	nest  *Nesting
	out   *outbox
	limit int // bytes streamed as they come; 0: no cap

	mu     sync.Mutex // guards the fields below: the command's goroutine writes, the FIFO's handler takes
	buf    []byte     // arrived, not yet taken
	queued bool       // an item for this terminal waits in the FIFO
	taken  int        // bytes accepted for streaming so far (at most limit)
	head   []byte     // those bytes, to find where the result's tail starts
	cut    bool       // output past limit was left out
	final  bool       // finish was called: the next take ends the stream
	ended  bool       // the end was taken
	exit   *TermExit  // how the command ended, once it has

	// The FIFO handler's own, whichever goroutine that is.
	red redact.Stream
}

// liveTerm starts streaming tc's output when the host shows it live and
// tc is a command; nil otherwise.
func (t *turnRun) liveTerm(info tools.Info, tc ToolCall) *liveTerm {
	if !t.s.liveOutput || info.Name != tools.RunCommandName {
		return nil
	}
	return &liveTerm{id: tc.ID, nest: tc.Nest, out: t.s.out, red: t.s.a.cfg.Redact.Stream()}
}

// write is spec.OnData: it keeps p and makes sure an item will take it.
func (lt *liveTerm) write(p []byte) {
	lt.mu.Lock()
	if lt.final {
		lt.mu.Unlock()
		return
	}
	if lt.limit > 0 && lt.taken+len(p) > lt.limit {
		p = p[:lt.limit-lt.taken]
		lt.cut = true
	}
	if len(p) == 0 {
		lt.mu.Unlock()
		return
	}
	lt.taken += len(p)
	lt.head = append(lt.head, p...)
	lt.buf = append(lt.buf, p...)
	lt.queueLocked()
}

// queueLocked queues an item to take the buffer, unless one waits, and
// releases lt.mu.
func (lt *liveTerm) queueLocked() {
	if lt.queued || lt.ended {
		lt.mu.Unlock()
		return
	}
	lt.queued = true
	lt.mu.Unlock()
	lt.out.put(outItem{op: opTerm, v: lt})
}

// finish ends the stream with how the command ended: the tail of res's
// output that was left out, then the exit (on the call's last update).
func (lt *liveTerm) finish(res CommandResult) {
	lt.mu.Lock()
	if lt.cut {
		lt.buf = append(lt.buf, tailAfter(res.Output, string(lt.head))...)
	}
	lt.final = true
	lt.exit = &TermExit{Code: res.ExitCode, Signal: res.Signal}
	if res.TimedOut && res.Signal == "" {
		lt.exit.Signal = "SIGKILL" // the timeout killed it; the code says -1
	}
	lt.queueLocked()
}

// tailAfter is what of out follows the streamed head: the rest of out when
// it starts with head, else from the marker the head/tail cap put in it.
func tailAfter(out, head string) string {
	if rest, ok := strings.CutPrefix(out, head); ok {
		return rest
	}
	if i := strings.Index(out, "\n\n[... "); i >= 0 {
		return out[i:]
	}
	return "\n\n[... output omitted ...]\n"
}

// ran reports whether the command ran to an end, and how.
func (lt *liveTerm) ran() *TermExit {
	if lt == nil {
		return nil
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return lt.exit
}

// take hands the handler what arrived, whole UTF-8 sequences only until
// the end and at most maxCoalesced bytes (a frame of escaped output stays
// under the smallest frame cap); whether the stream ends now; and whether
// more is left, to take at once, before anything queued after this item.
func (lt *liveTerm) take() (data string, end, more bool) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	lt.queued = false
	n := len(lt.buf)
	switch {
	case n > maxCoalesced:
		n, more = completeUTF8(lt.buf[:maxCoalesced]), true
	case !lt.final:
		n = completeUTF8(lt.buf)
	}
	data = string(lt.buf[:n])
	lt.buf = append(lt.buf[:0], lt.buf[n:]...)
	end = lt.final && !lt.ended && !more
	lt.ended = lt.ended || end
	return data, end, more
}

// completeUTF8 is the length of b without an incomplete sequence at its end.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// sendTerm is the handler's part: it takes the terminal's new output,
// redacts it as one stream (a secret printed in two pieces is still
// hidden) and sends it as a tool_call_update carrying only the
// terminal_output _meta. Live only: the log keeps the call's output once,
// as text, with its last update.
func (o *outbox) sendTerm(lt *liveTerm) {
	for more := true; more; {
		var data string
		var end bool
		data, end, more = lt.take()
		text := lt.red.Next(data)
		if end {
			text += lt.red.Flush()
		}
		if text == "" {
			continue
		}
		u := Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: lt.id}, Nest: lt.nest, Term: &TermMeta{ID: lt.id, Output: o.red.String(text)}}
		o.host.Send(guardUpdate(nil, o.max, u))
	}
}

// emitTerm publishes a call's update as emit does, except that while the
// call has a live terminal the editor gets it with the terminal: its
// tool_call announces it (terminal content, terminal_info), and its
// update after the command ended shows it with how it ended
// (terminal_exit), and note beside it, in place of the output as text,
// which the log keeps.
func (t *turnRun) emitTerm(u Update, live *liveTerm, note string) {
	var term *TermMeta
	switch {
	case live == nil:
	case u.Type == ToolCallStarted:
		term = &TermMeta{ID: live.id, Info: true}
	default:
		if exit := live.ran(); exit != nil {
			term = &TermMeta{ID: live.id, Exit: exit}
		}
	}
	if term == nil {
		t.emit(u)
		return
	}
	shown := *u.Tool
	shown.Content = []ToolContent{{Type: "terminal", TerminalID: live.id}}
	if note != "" {
		shown.Content = append(shown.Content, TextContent(note))
	}
	t.emitLive(Update{Type: u.Type, Tool: &shown, Term: term})
	t.logOnly(u)
}

// liveHost runs the call's command with its output streaming to lt.
type liveHost struct {
	tools.Host
	lt *liveTerm
}

func (h liveHost) RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error) {
	spec.OnData = h.lt.write
	spec.OnOutput = nil // the terminal shows it; the whole output so far would replace it
	if spec.OutputLimit > 0 {
		h.lt.mu.Lock()
		h.lt.limit = spec.OutputLimit / 2
		h.lt.mu.Unlock()
	}
	res, err := h.Host.RunCommand(ctx, spec)
	h.lt.finish(res)
	return res, err
}
