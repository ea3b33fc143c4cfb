package llmtest

import (
	"net/http"

	"github.com/tandemhq/tandem/agent/title"
)

// Title requests (a session naming itself after its first exchange, see
// agent/title) are answered apart from the conversation: they never take
// a queued reply nor reach the Handle function, and they are recorded
// apart (TitleRequests), so a test's script of the conversation holds
// whenever a title request happens to arrive. Without a title reply set
// (Titles) they are refused with HTTP 404, which leaves a session its
// first prompt's title, and fail no test.

// IsTitle reports whether req is a title request.
func IsTitle(req *Request) bool { return req.System == title.System }

// Titles sets the function that answers title requests, e.g. with
// Reply{Text: []string{"Fix the parser"}} or an error reply.
func (s *Server) Titles(f func(*Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.titles = f
}

// TitleRequests returns the title requests received so far, in order.
func (s *Server) TitleRequests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.titleReqs...)
}

// titleReply records a title request and picks its reply.
func (s *Server) titleReply(req *Request) Reply {
	s.mu.Lock()
	req.N = len(s.titleReqs)
	s.titleReqs = append(s.titleReqs, req)
	f := s.titles
	s.mu.Unlock()
	if f == nil {
		return Reply{Status: http.StatusNotFound, Message: "llmtest: no title reply is set (Server.Titles, or a script's \"title\")"}
	}
	return f(req)
}
