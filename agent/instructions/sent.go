package instructions

import (
	"strings"
)

// ClientSent tells the tracker what the client put in the prompt the next
// Baseline precedes. Clients such as CodeCompanion send AGENTS.md or
// CLAUDE.md themselves, as an embedded resource or pasted into the text; a
// baseline file whose whole content is already among texts is then
// recorded as loaded without being sent again (seed 002's duplicate
// suppression, applied to what arrives in the prompt).
func (t *Tracker) ClientSent(texts []string) {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	t.sent = texts
}

// takeSent returns and forgets what ClientSent recorded.
func (t *Tracker) takeSent() []string {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	s := t.sent
	t.sent = nil
	return s
}

// inPrompt reports whether content, line endings and surrounding space
// aside, appears whole in one of texts.
func inPrompt(content []byte, texts []string) bool {
	c := normalize(string(content))
	if c == "" {
		return false
	}
	for _, s := range texts {
		if strings.Contains(normalize(s), c) {
			return true
		}
	}
	return false
}

func normalize(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}

// splitSent separates the changes whose content the client already sent.
func splitSent(changes []change, texts []string) (rest, sent []change) {
	if len(texts) == 0 {
		return changes, nil
	}
	for _, c := range changes {
		if c.action == ActionSet && c.res.content != nil && inPrompt(c.res.content, texts) {
			sent = append(sent, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, sent
}

// addSent records changes the client sent as loaded: in b's metadata
// (marked InPrompt, so a restored session knows them) and as states,
// without adding a word to b's text. b may be nil when nothing else
// changed; the result is then a batch with no text.
func (t *Tracker) addSent(b *Batch, states []*scopeState, root string, sent []change, problems []Problem) (*Batch, []*scopeState) {
	if len(sent) == 0 {
		return b, states
	}
	if b == nil {
		b = &Batch{Meta: Meta{Version: MetaVersion, Baseline: true, Budget: t.cfg.MaxBytes, Unavailable: problems, Changes: []Change{}}}
	}
	for _, c := range sent {
		path := t.display(c.key, root, c.res.file)
		b.Meta.Changes = append(b.Meta.Changes, Change{Action: ActionSet, Scope: scopeID(c.key, root), Path: path,
			File: c.res.file, Digest: c.res.digest, Bytes: c.res.size, InPrompt: true})
		states = append(states, scopeState{key: c.key, file: c.res.file, path: path, digest: c.res.digest,
			ver: c.res.ver, verOK: true, readAt: c.res.readAt, bytes: c.res.size}.withProbe(c.res))
	}
	return b, states
}
