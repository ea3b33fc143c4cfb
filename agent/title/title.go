// Package title is what a session's title request is: the side request
// that asks a model for a short title after the first exchange, and how
// its answer, or a title a user typed, becomes a title. It does no I/O;
// the session sends the request and keeps the result.
package title

import (
	"strings"
	"unicode"

	"github.com/tandemhq/tandem/agent/llm"
)

// System is the title request's system prompt. It is never the session's
// own: the title request is a separate request, so the conversation's
// byte-stable prefix is untouched. Test servers recognise title requests
// by it (llmtest).
const System = `You name coding sessions. Given the user's first message to a coding assistant and the start of its reply, answer with a title for the session: at most six words, in the user's language, no quotes, no trailing punctuation, nothing else.`

// MaxRunes caps a title: a list row's worth.
const MaxRunes = 80

// inputRunes caps each of the prompt and the reply in the request: the
// start of a conversation says what it is about.
const inputRunes = 2000

// maxTokens is the answer's budget: a title, with room for a model that
// opens with a word or two too many.
const maxTokens = 64

// Request is the title request for a session's first prompt and reply.
func Request(model, prompt, reply string) *llm.Request {
	var b strings.Builder
	b.WriteString("<first_message>\n")
	b.WriteString(cut(prompt, inputRunes))
	b.WriteString("\n</first_message>\n<reply_start>\n")
	b.WriteString(cut(reply, inputRunes))
	b.WriteString("\n</reply_start>\n\nTitle:")
	return &llm.Request{Model: model, System: System, MaxTokens: maxTokens,
		Messages: []llm.Message{llm.Text(llm.RoleUser, b.String())}}
}

// FromReply reads a title from the model's answer: its first non-empty
// line, without a "Title:" label, quotes, Markdown emphasis or final
// period. It reports false when nothing is left.
func FromReply(text string) (string, bool) {
	var line string
	for l := range strings.Lines(text) {
		if line = strings.TrimSpace(l); line != "" {
			break
		}
	}
	line = strings.TrimLeft(line, "# ")
	if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "title") {
		line = v
	}
	line = strings.TrimFunc(line, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`*_“”‘’«».", r)
	})
	t := Clean(line)
	return t, t != ""
}

// Clean makes text fit as a title: one line, spaces collapsed, at most
// MaxRunes (cut with an ellipsis). Control characters go: a title is
// shown in lists and terminals.
func Clean(text string) string {
	t := strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	return cut(t, MaxRunes)
}

// cut shortens s to n runes, the last an ellipsis.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
