package llmtest

import (
	"fmt"
	"net/http"
)

// Tokens is the size the server counts a request as: one token per four
// bytes of its body, system prompt and tools included, as a real server
// counts everything it is sent.
func (r *Request) Tokens() int { return len(r.Body) / 4 }

// Proxy is a reverse proxy in front of a model server, refusing a body over
// its size limit with nginx's 413 page, which states no limit.
const Proxy WindowStyle = "proxy"

type contextLimit struct {
	style  WindowStyle // "": the wire's own provider
	tokens int
}

// LimitContext makes the server refuse every request larger than tokens
// (Request.Tokens) before any reply is taken for it, with the body the
// server of style sends: on the Anthropic wire always Anthropic's "prompt
// is too long"; on the OpenAI wire OpenAI's context_length_exceeded for
// style "", else vLLM's, llama.cpp's or Ollama's own, or a Proxy's on
// either wire. A refused request is
// recorded with Refused set. tokens <= 0 lifts the limit.
func (s *Server) LimitContext(style WindowStyle, tokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = nil
	if tokens > 0 {
		s.limit = &contextLimit{style, tokens}
	}
}

// refuseOverLimit answers req with its server's overflow error and reports
// true when req passes the context limit.
func (s *Server) refuseOverLimit(w http.ResponseWriter, req *Request) bool {
	s.mu.Lock()
	l := s.limit
	over := l != nil && req.Tokens() > l.tokens
	if over {
		req.Refused = true
		req.N = len(s.requests)
		s.requests = append(s.requests, req)
	}
	s.mu.Unlock()
	if !over {
		return false
	}
	status, msg, body := l.refusal(req)
	writeError(w, req.Format, status, "", msg, body)
	return true
}

// refusal is the status and error message (or whole body) of a refusal.
func (l *contextLimit) refusal(req *Request) (status int, msg, body string) {
	n, limit := req.Tokens(), l.tokens
	if l.style == Proxy {
		return 413, "", "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	}
	switch {
	case anthropicStream(req.Format):
		return 400, fmt.Sprintf("prompt is too long: %d tokens > %d maximum", n, limit), ""
	case req.Format == Bedrock:
		// Bedrock's own wording states no numbers.
		return 400, "Input is too long for requested model.", ""
	}
	if googleFormat(req.Format) {
		return 400, fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", n, limit), ""
	}
	switch l.style {
	case VLLM:
		completion := req.MaxTokens
		return 400, "", string(mustJSON(map[string]any{"object": "error", "type": "BadRequestError", "param": nil, "code": 400,
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.", limit, n+completion, n, completion)}))
	case LlamaCpp:
		return 400, "", string(mustJSON(map[string]any{"error": map[string]any{"code": 400, "type": "exceed_context_size_error",
			"message": "the request exceeds the available context size, try increasing it", "n_prompt_tokens": n, "n_ctx": limit}}))
	case Ollama:
		return 500, "", string(mustJSON(map[string]any{"error": map[string]any{"type": "api_error", "param": nil, "code": nil,
			"message": fmt.Sprintf("prompt too long; exceeded max context length by %d tokens", n-limit)}}))
	}
	return 400, "", string(mustJSON(map[string]any{"error": map[string]any{"type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
		"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", limit, n)}}))
}
