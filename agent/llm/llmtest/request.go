package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tandemhq/tandem/agent/llm"
)

// Request is one recorded request: the raw body and a provider-neutral
// view decoded from it.
type Request struct {
	N      int // arrival order, from 0
	Format Format
	Path   string
	URL    string // the path with its query
	Header http.Header
	Body   []byte // exactly as received

	Model     string
	MaxTokens int
	System    string
	Tools     []string // tool names, in request order
	// Messages in neutral form. For OpenAI, consecutive "tool" messages
	// become one user message of tool_result parts, and reasoning fields
	// of assistant messages become a thinking part with Extra set.
	Messages []llm.Message
	// Refused says the context limit refused the request (LimitContext):
	// no reply was taken for it.
	Refused bool
}

// LastUserText is the text of the last user message: its text parts and
// tool results, joined by newlines. Rules match against it.
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != llm.RoleUser {
			continue
		}
		var texts []string
		for _, p := range m.Content {
			if (p.Type == llm.PartText || p.Type == llm.PartToolResult) && p.Text != "" {
				texts = append(texts, p.Text)
			}
		}
		return strings.Join(texts, "\n")
	}
	return ""
}

func decodeRequest(f Format, r *http.Request, body []byte) (*Request, error) {
	req := &Request{Format: f, Path: r.URL.Path, URL: r.URL.String(), Header: r.Header.Clone(), Body: body}
	var err error
	switch f.wire() {
	case Anthropic:
		err = decodeAnthropic(req, body)
	case Bedrock:
		err = decodeBedrock(req, r, body)
	case VertexAnthropic:
		err = decodeVertexAnthropic(req, body)
	case Gemini, VertexGemini:
		err = decodeGemini(req, body)
	case Responses:
		err = decodeResponses(req, body)
	default:
		err = decodeOpenAI(req, body)
	}
	if err != nil {
		return nil, fmt.Errorf("decoding %s request: %w", f, err)
	}
	return req, nil
}

// flexText reads a field that is either a string or an array of blocks
// with "text" (both formats allow both).
type flexText []textBlock

type textBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
	Source *struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// UnmarshalJSONFrom reads it in one pass (decodeV2).
func (t *flexText) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		*t = flexText{{Type: "text", Text: tok.String()}}
		return err
	}
	return jsonv2.UnmarshalDecode(dec, (*[]textBlock)(t))
}

// decodeV2 decodes a request body with encoding/json/v2's implementation,
// in one pass: v1's Unmarshal validates the whole body before decoding
// it, and each field read as raw JSON and decoded again is scanned twice
// more. The fake decodes a whole history per request, which in the
// bench's tool loop is on every step's path, and its cost grows with
// what tandem sends. Invalid UTF-8 and duplicate names are taken as v1
// takes them.
func decodeV2(body []byte, v any) error {
	return jsonv2.Unmarshal(body, v, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

func (t flexText) joined() string {
	var parts []string
	for _, b := range t {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// jsonString decodes b when it is a JSON string; ok is false for anything
// else (an array of blocks, say), told by its first byte so that the
// blocks are not scanned twice.
func jsonString(b []byte) (s string, ok bool) {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	err := json.Unmarshal(b, &s)
	return s, err == nil
}
