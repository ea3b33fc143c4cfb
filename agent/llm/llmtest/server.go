package llmtest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// Server is the fake model server. All methods are safe for concurrent use.
type Server struct {
	// URL is the server's root, e.g. http://127.0.0.1:41234.
	URL string

	hs   *httptest.Server
	done chan struct{} // closed by Close; releases hanging replies

	mu          sync.Mutex // guards the fields below
	queue       []Reply
	handler     func(*Request) Reply
	requests    []*Request
	unscripted  func(msg string)
	closed      bool
	window      *windowReport
	limit       *contextLimit        // LimitContext
	modelIDs    []string             // ServeModels
	modelsAsked []http.Header        // headers of /v1/models requests
	titles      func(*Request) Reply // Titles
	titleReqs   []*Request
	// ServeGeminiModels
	geminiModels []GeminiModel
	// ServeBedrockModels
	bedrockModels []BedrockModel
	// ServeAzureDeployments
	azureDeployments []AzureDeployment

	arrivals testenv.Changes // a request was recorded (Await)
}

// NewServer starts a server on 127.0.0.1 and closes it when the test ends.
// A request with no reply scripted fails the test.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := Start()
	s.unscripted = func(msg string) { t.Errorf("llmtest: %s", msg) }
	t.Cleanup(s.Close)
	return s
}

// Start starts a server outside of a test (the fakellm binary uses it).
// The caller must Close it.
func Start() *Server {
	s := &Server{done: make(chan struct{})}
	s.hs = httptest.NewServer(s)
	s.URL = s.hs.URL
	return s
}

// BaseURL is what a provider of the given format is configured with:
// URL for Anthropic (the client adds /v1/messages), URL+"/v1" for OpenAI
// (the client adds /chat/completions).
// Google's formats, Bedrock's and Azure's take URL too (the client adds
// /v1beta/models/…, /v1/projects/…, /model/… or /openai/…).
func (s *Server) BaseURL(f Format) string {
	if f == OpenAI || f == Responses {
		return s.URL + "/v1"
	}
	return s.URL
}

// Close stops the server, releasing any reply that hangs.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	close(s.done)
	s.hs.Close()
}

// Enqueue appends replies to the queue; each request takes the next one.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Handle sets the function that answers requests once the queue is empty.
// It is called concurrently from the server's goroutines.
func (s *Server) Handle(f func(*Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = f
}

// Requests returns the requests received so far, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// ServeHTTP routes by path suffix so either base URL convention works.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveModels(w, r) || s.serveGeminiModels(w, r) || s.serveCountTokens(w, r) || s.serveBedrockModels(w, r) || s.serveAzureDeployments(w, r) || s.serveWindow(w, r) {
		return
	}
	f, google := geminiFormat(r.URL.Path)
	switch {
	case r.Method != http.MethodPost:
		http.Error(w, "llmtest: only POST is served", http.StatusMethodNotAllowed)
		return
	case google:
	case strings.HasSuffix(r.URL.Path, "/messages"):
		f = Anthropic
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		f = OpenAI
	case strings.HasSuffix(r.URL.Path, "/responses"):
		f = Responses
	case strings.HasPrefix(r.URL.Path, "/model/") && strings.HasSuffix(r.URL.Path, "/converse-stream"):
		f = Bedrock
	default:
		http.Error(w, "llmtest: unknown path "+r.URL.Path+" (serve /v1/messages, /v1/chat/completions, /v1/responses, :streamGenerateContent, :streamRawPredict, /model/{id}/converse-stream or /openai/…)", http.StatusNotFound)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/openai/") {
		if f = azureFormat(f); !azurePath(w, r) {
			return
		}
	}
	body, err := ReadBody(r)
	if err != nil {
		return // the client went away
	}
	if f == Bedrock && !s.checkSigV4(w, r, body) {
		return
	}
	req, err := decodeRequest(f, r, body)
	if err != nil {
		writeError(w, f, http.StatusBadRequest, "", "llmtest: "+err.Error(), "")
		return
	}
	var reply Reply
	ok := true
	switch {
	case IsTitle(req):
		reply = s.titleReply(req)
	case s.refuseOverLimit(w, req):
		return
	default:
		reply, ok = s.next(req)
	}
	if !ok {
		msg := fmt.Sprintf("no reply scripted for request %d (%s %s); last user text %q", req.N, f, r.URL.Path, req.LastUserText())
		if s.unscripted != nil {
			s.unscripted(msg)
		}
		writeError(w, f, http.StatusBadRequest, "", msg, "")
		return
	}
	if reply.Status != 0 {
		writeError(w, f, reply.Status, reply.RetryAfter, reply.Message, reply.Body)
		return
	}
	st := newStream(w, r, s.done, reply, f)
	if reply.Raw != "" {
		io.WriteString(w, reply.Raw)
		return
	}
	switch f.wire() {
	case Anthropic, VertexAnthropic:
		writeAnthropic(st, &reply, req)
	case Gemini, VertexGemini:
		writeGemini(st, &reply, req)
	case Bedrock:
		writeBedrock(st, &reply, req)
	case Responses:
		writeResponses(st, &reply, req)
	default:
		writeOpenAI(st, &reply, req)
	}
}

// ReadBody reads r's body, in one allocation when its length is
// declared: io.ReadAll grows its buffer from 512 bytes by copying, some
// 130 KB of copies for a 50 KB history, on the way of every request of
// a tool loop.
func ReadBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n > 0 && n <= 64<<20 {
		b := make([]byte, n)
		if _, err := io.ReadFull(r.Body, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return io.ReadAll(r.Body)
}

// next records req and picks its reply: the queue head (kept while an
// error reply has repeats left), else the handler.
func (s *Server) next(req *Request) (Reply, bool) {
	s.mu.Lock()
	req.N = len(s.requests)
	s.requests = append(s.requests, req)
	s.arrivals.Changed()
	if len(s.queue) > 0 {
		r := &s.queue[0]
		reply := *r
		switch {
		case r.Status != 0 && r.Times < 0:
		case r.Status != 0 && r.Times > 1:
			r.Times--
		default:
			s.queue = s.queue[1:]
		}
		s.mu.Unlock()
		return reply, true
	}
	h := s.handler
	s.mu.Unlock()
	if h == nil {
		return Reply{}, false
	}
	return h(req), true
}

// writeError answers with an HTTP error in the format's error JSON.
func writeError(w http.ResponseWriter, f Format, status int, retryAfter, msg, body string) {
	if retryAfter != "" && !googleFormat(f) {
		w.Header().Set("Retry-After", retryAfter)
	}
	if body == "" && googleFormat(f) {
		body = googleError(status, retryAfter, msg)
	}
	if body == "" {
		if msg == "" {
			msg = http.StatusText(status)
		}
		switch {
		case anthropicStream(f):
			body = string(mustJSON(map[string]any{"type": "error", "error": map[string]string{"type": errorType(status), "message": msg}}))
		case f == Bedrock:
			// Bedrock names the exception in a header; the body has only
			// the message.
			w.Header().Set("X-Amzn-Errortype", bedrockException(status)+":http://internal.amazon.com/coral/com.amazon.bedrock/")
			body = string(mustJSON(map[string]any{"message": msg}))
		case f == AzureResponses || f == AzureChat:
			body = azureError(status, msg)
		default:
			body = string(mustJSON(map[string]any{"error": map[string]any{"message": msg, "type": errorType(status), "code": nil}}))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func errorType(status int) string {
	switch {
	case status == 401:
		return "authentication_error"
	case status == 403:
		return "permission_error"
	case status == 429:
		return "rate_limit_error"
	case status == 529:
		return "overloaded_error"
	case status >= 500:
		return "api_error"
	}
	return "invalid_request_error"
}
