package agent

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/compact"
)

// sentRequest is what a turn remembers of the request it sent last.
type sentRequest struct {
	model    string
	estimate int // tokens, by the session's estimator
}

// learnLimit lowers the window of the model the latest request went to
// when err is the server refusing it as too long and what it says (its
// stated limit, else the refused request's size as an upper bound) is
// below the window tandem believed: the compaction that follows, and every
// later request to that server and model, are sized to it, in this process
// and (Windows.Limits) the next. The user is told once what was learned.
func (t *turnRun) learnLimit(err error) {
	s := t.s
	r, ok := compact.Refused(err)
	if !ok || t.sent == (sentRequest{}) {
		return
	}
	w, model := s.a.cfg.Windows, t.sent.model
	limit := r.Bound(t.sent.estimate)
	lowered, kerr := w.Refused(model, limit)
	if !lowered {
		return
	}
	s.a.log.Info("context limit learned from a refusal", "session", s.id, "model", model, "tokens", limit,
		"stated", r.Limit, "prompt", r.Prompt, "estimate", t.sent.estimate)
	kept := ""
	if w.Limits != nil && w.Endpoint != "" {
		kept = w.Limits.Path
	}
	s.notice(limitNotice(w.Endpoint, model, limit, r.Limit > 0, kept, kerr))
}

// limitNotice is the sentence telling the user what a refusal taught;
// kept is the file it is remembered in ("": this process only).
func limitNotice(endpoint, model string, limit int, stated bool, kept string, keepErr error) string {
	server := "the server"
	if endpoint != "" {
		server += " at " + endpoint
	}
	msg := fmt.Sprintf("%s accepts at most %d tokens for model %s (it refused a longer request)", server, limit, model)
	if !stated {
		msg = fmt.Sprintf("%s refused a request of about %d tokens for model %s as too long", server, limit, model)
	}
	msg += "; tandem will keep requests under that"
	switch {
	case keepErr != nil:
		return msg + fmt.Sprintf(" in this process (it could not be remembered: %v).", keepErr)
	case kept != "":
		return msg + " from now on (remembered in " + kept + "; remove the entry there if the server's limit grows)."
	}
	return msg + " in this process."
}
