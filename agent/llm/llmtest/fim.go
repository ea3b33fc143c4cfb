package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// FIMServer is a fake fill-in-the-middle server speaking the wires of
// inline completions over real HTTP:
//
//	POST /api/generate        Ollama, one JSON object per line
//	POST /infill              llama.cpp server, SSE {"content"}
//	POST …/completions        OpenAI-compatible and DeepSeek's beta, SSE {"choices":[{"text"}]}
//	POST …/fim/completions    Mistral Codestral, SSE {"choices":[{"delta":{"content"}}]}
//
// Every request is recorded; replies come from the handler (Handle), by
// default the text "completion". It also counts the requests in flight,
// so a test can check that a client never has two at once.
type FIMServer struct {
	URL string

	hs *httptest.Server

	mu          sync.Mutex // guards the fields below
	handler     func(*FIMRequest) FIMReply
	requests    []*FIMRequest
	inFlight    int
	maxInFlight int
	arrived     chan *FIMRequest
}

// FIMRequest is one request as the server saw it.
type FIMRequest struct {
	N    int    // 1-based arrival order
	Wire string // "ollama", "llamacpp", "openai", "codestral"
	Path string
	Body []byte
	// The fields the wires carry, decoded: Prompt (Ollama's, OpenAI's and
	// Codestral's prompt, llama.cpp's input_prefix), Suffix (their suffix,
	// llama.cpp's input_suffix), Extra (llama.cpp's input_extra texts).
	Prompt, Suffix, Model string
	Raw                   bool
	Extra                 []string
	Stop                  []string
	Header                http.Header
	// Arrived is when the handler began; LastToken when the last chunk
	// was flushed; Cancelled is closed if the client went away first.
	Arrived, LastToken time.Time
	Cancelled          chan struct{}
	Finished           chan struct{} // closed when the handler returns
}

// FIMReply scripts one answer: its chunks in order, each after Delay.
// Hang keeps the stream open after the chunks until the client cancels.
type FIMReply struct {
	Chunks []string
	Delay  time.Duration
	Hang   bool
	Status int // non-zero: answer this HTTP status with Message
	// Message is the error text of a Status reply.
	Message string
}

// StartFIM starts a FIM server outside of a test; the caller must Close
// it. NewFIMServer is the test form.
func StartFIM() *FIMServer {
	s := &FIMServer{arrived: make(chan *FIMRequest, 1024)}
	s.hs = httptest.NewServer(s)
	s.URL = s.hs.URL
	return s
}

// NewFIMServer starts a FIM server closed when the test ends.
func NewFIMServer(t interface{ Cleanup(func()) }) *FIMServer {
	s := StartFIM()
	t.Cleanup(s.Close)
	return s
}

// Close stops the server.
func (s *FIMServer) Close() { s.hs.CloseClientConnections(); s.hs.Close() }

// Handle sets the function that answers requests (concurrently).
func (s *FIMServer) Handle(f func(*FIMRequest) FIMReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = f
}

// Requests returns the requests received so far.
func (s *FIMServer) Requests() []*FIMRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*FIMRequest(nil), s.requests...)
}

// Arrived delivers each request as it arrives (buffered; a test that
// does not read it loses nothing else).
func (s *FIMServer) Arrived() <-chan *FIMRequest { return s.arrived }

// MaxInFlight is the most requests the server ever served at once.
func (s *FIMServer) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

func (s *FIMServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := &FIMRequest{Path: r.URL.Path, Header: r.Header.Clone(), Arrived: time.Now(),
		Cancelled: make(chan struct{}), Finished: make(chan struct{})}
	defer close(req.Finished)
	switch p := r.URL.Path; {
	case r.Method != http.MethodPost:
		http.Error(w, "llmtest: only POST is served", http.StatusMethodNotAllowed)
		return
	case strings.HasSuffix(p, "/api/generate"):
		req.Wire = "ollama"
	case strings.HasSuffix(p, "/infill"):
		req.Wire = "llamacpp"
	case strings.HasSuffix(p, "/fim/completions"):
		req.Wire = "codestral"
	case strings.HasSuffix(p, "/completions") && !strings.HasSuffix(p, "/chat/completions"):
		req.Wire = "openai"
	default:
		http.Error(w, "llmtest: unknown FIM path "+p, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req.Body = body
	if err := req.decode(); err != nil {
		http.Error(w, "llmtest: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	req.N = len(s.requests)
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	h := s.handler
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	select {
	case s.arrived <- req:
	default:
	}
	reply := FIMReply{Chunks: []string{"completion"}}
	if h != nil {
		reply = h(req)
	}
	if reply.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Status)
		fmt.Fprintf(w, `{"error":{"message":%q}}`, reply.Message)
		return
	}
	s.stream(w, r, req, reply)
}

// stream writes the reply in the request's wire.
func (s *FIMServer) stream(w http.ResponseWriter, r *http.Request, req *FIMRequest, reply FIMReply) {
	fl, _ := w.(http.Flusher)
	if req.Wire == "ollama" {
		w.Header().Set("Content-Type", "application/x-ndjson")
	} else {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(http.StatusOK)
	if fl != nil {
		fl.Flush()
	}
	gone := func() bool {
		select {
		case <-r.Context().Done():
			close(req.Cancelled)
			return true
		default:
			return false
		}
	}
	for _, c := range reply.Chunks {
		if reply.Delay > 0 {
			select {
			case <-time.After(reply.Delay):
			case <-r.Context().Done():
			}
		}
		if gone() {
			return
		}
		b, _ := json.Marshal(c)
		switch req.Wire {
		case "ollama":
			fmt.Fprintf(w, "{\"model\":\"fake\",\"response\":%s,\"done\":false}\n", b)
		case "llamacpp":
			fmt.Fprintf(w, "data: {\"content\":%s,\"stop\":false}\n\n", b)
		case "codestral":
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", b)
		default:
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"text\":%s,\"finish_reason\":null}]}\n\n", b)
		}
		if fl != nil {
			fl.Flush()
		}
	}
	s.mu.Lock()
	req.LastToken = time.Now()
	s.mu.Unlock()
	if reply.Hang {
		<-r.Context().Done()
		close(req.Cancelled)
		return
	}
	switch req.Wire {
	case "ollama":
		fmt.Fprint(w, "{\"model\":\"fake\",\"response\":\"\",\"done\":true}\n")
	case "llamacpp":
		fmt.Fprint(w, "data: {\"content\":\"\",\"stop\":true}\n\n")
	default:
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// LastTokenAt is when the last chunk of request n was flushed (zero if
// not yet).
func (s *FIMServer) LastTokenAt(req *FIMRequest) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return req.LastToken
}

// decode fills the wire's fields from Body.
func (r *FIMRequest) decode() error {
	var v struct {
		Model       string   `json:"model"`
		Prompt      string   `json:"prompt"`
		Suffix      string   `json:"suffix"`
		Raw         bool     `json:"raw"`
		InputPrefix string   `json:"input_prefix"`
		InputSuffix string   `json:"input_suffix"`
		Stop        []string `json:"stop"`
		Options     struct {
			Stop []string `json:"stop"`
		} `json:"options"`
		InputExtra []struct {
			Filename string `json:"filename"`
			Text     string `json:"text"`
		} `json:"input_extra"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		return fmt.Errorf("request body is not JSON: %w", err)
	}
	r.Model, r.Prompt, r.Suffix, r.Raw, r.Stop = v.Model, v.Prompt, v.Suffix, v.Raw, append(v.Stop, v.Options.Stop...)
	if r.Wire == "llamacpp" {
		r.Prompt, r.Suffix = v.InputPrefix, v.InputSuffix
		for _, e := range v.InputExtra {
			r.Extra = append(r.Extra, e.Filename+"\n"+e.Text)
		}
	}
	return nil
}
