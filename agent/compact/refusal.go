package compact

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
)

// Refusal is what a provider's overflow error states about its limit. A
// field is 0 where the error does not say.
type Refusal struct {
	Limit  int // the most tokens the server takes for the model
	Prompt int // the refused request's size, as the server counted it
	Over   int // how many tokens the request was over the limit
}

// Refused reports whether err is an overflow (IsOverflow) and what it
// states, from the error's own fields (llama.cpp's n_ctx) or its message
// in the wordings of Anthropic ("prompt is too long: 210000 tokens >
// 200000 maximum"), OpenAI and those who copy it, DeepSeek, OpenRouter
// ("maximum context length is 16384 tokens. However, your messages
// resulted in 20000 tokens"), vLLM ("you requested", "your request has",
// "maximum model length of"), Ollama ("exceeded max context length by 310
// tokens"), Gemini ("input token count (N) exceeds the maximum number of
// tokens allowed (M)") and LM Studio ("context length of only N tokens").
func Refused(err error) (Refusal, bool) {
	var e *llm.Error
	if !IsOverflow(err) || !errors.As(err, &e) {
		return Refusal{}, false
	}
	r := Refusal{Limit: e.ContextSize, Prompt: e.PromptTokens}
	msg := strings.ToLower(e.Message)
	for _, p := range refusalPatterns() {
		m := p.re.FindStringSubmatch(msg)
		for i, f := range p.fields {
			if m == nil || i+1 >= len(m) {
				break
			}
			n, err := strconv.Atoi(m[i+1])
			if err != nil || n <= 0 {
				continue
			}
			if dst := r.field(f); *dst == 0 { // the first statement wins
				*dst = n
			}
		}
	}
	return r, true
}

// Bound is the largest request the server can be taken to accept: the
// limit it states, else the refused request's size less what it was over
// by, which is an upper bound. sent is tandem's own estimate of the
// refused request, used when the server gives no count. 0 when nothing is
// known.
func (r Refusal) Bound(sent int) int {
	if r.Limit > 0 {
		return r.Limit
	}
	size := r.Prompt
	if size == 0 {
		size = sent
	}
	return max(size-r.Over, 0)
}

func (r *Refusal) field(f rune) *int {
	switch f {
	case 'l':
		return &r.Limit
	case 'p':
		return &r.Prompt
	}
	return &r.Over
}

// refusalPattern reads numbers out of a lower-cased overflow message;
// fields name its groups in order: l the limit, p the request's size, o
// the excess.
type refusalPattern struct {
	re     *regexp.Regexp
	fields string
}

// refusalPatterns are compiled on first use: package initialisation
// stays cheap for a process that never meets an overflow.
var refusalPatterns = sync.OnceValue(func() []refusalPattern {
	ps := []struct{ expr, fields string }{
		{`prompt is too long: (\d+) tokens > (\d+) maximum`, "pl"},
		{`maximum context length is (\d+)`, "l"},
		{`resulted in (\d+) tokens`, "p"},
		{`\((\d+) in the messages`, "p"},
		{`your request has (\d+) input tokens`, "p"},
		{`prompt \(length (\d+)\) is longer than the maximum model length of (\d+)`, "pl"},
		{`maximum model length of (\d+)`, "l"},
		{`exceeded max context length by (\d+) tokens`, "o"},
		{`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`, "pl"},
		{`context length of only (\d+) tokens`, "l"},
	}
	out := make([]refusalPattern, len(ps))
	for i, p := range ps {
		out[i] = refusalPattern{regexp.MustCompile(p.expr), p.fields}
	}
	return out
})
