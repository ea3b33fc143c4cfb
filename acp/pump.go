package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The inbound half of the wire: lines from the client, checked before the
// SDK sees them.

// pump copies well-formed lines from the client to the SDK until in ends,
// then closes toSDK. It is the only reader of in.
func (w *wire) pump(in io.Reader, toSDK *io.PipeWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	var (
		line    []byte
		head    []byte // start of an oversized line, kept to find its id
		size    int
		tooLong bool
	)
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if !tooLong && size > w.maxLine {
			tooLong = true
			head = append(head[:0], line[:min(len(line), 4096)]...)
			if len(head) < 4096 {
				head = append(head, chunk[:min(len(chunk), 4096-len(head))]...)
			}
			line = nil // drop the buffer; the rest of the line is discarded
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size > 0 {
			var ok bool
			if tooLong {
				ok = w.refuseOversized(head, size, toSDK)
			} else {
				ok = w.forward(line, toSDK)
			}
			if !ok {
				break
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				w.log.Warn("acp: reading from the client", "err", err)
			}
			break
		}
		if cap(line) > 1<<20 {
			line = nil // do not pin a huge buffer after one big message
		}
		line, size, tooLong = line[:0], 0, false
	}
	toSDK.Close()
}

// forward checks one line and hands it to the SDK. It returns false when
// the SDK side is gone.
func (w *wire) forward(line []byte, toSDK io.Writer) bool {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return true
	}
	if !json.Valid(msg) {
		w.log.Warn("acp: malformed JSON from the client", "bytes", len(msg))
		w.writeError(nil, codeParseError, "Parse error", "the line is not valid JSON; send one JSON-RPC message per line")
		return true
	}
	if msg[0] != '{' {
		w.writeError(nil, codeInvalidRequest, "Invalid request", "a message must be a JSON object (batches are not supported)")
		return true
	}
	var hdr struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if err := json.Unmarshal(msg, &hdr); err != nil || (hdr.Method == nil && len(hdr.ID) == 0) {
		w.writeError(hdr.ID, codeInvalidRequest, "Invalid request", "a message needs a method (request or notification) or an id (response)")
		return true
	}
	if hdr.Method != nil && *hdr.Method == "" {
		w.writeError(hdr.ID, codeInvalidRequest, "Invalid request", "the method name is empty")
		return true
	}
	if hdr.Method != nil && len(hdr.ID) > 0 && string(hdr.ID) != "null" {
		w.opened(+1) // a request the SDK will answer
	}
	if hdr.Method != nil {
		w.watchCancellation(*hdr.Method, hdr.ID, msg)
	}
	// The SDK treats a line as one message: hand it exactly one.
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	if _, err := toSDK.Write(buf); err != nil {
		return false
	}
	return true
}

// watchCancellation notes session/prompt requests and acts on a
// $/cancel_request naming one (see wire.prompts). Params it cannot read are
// left for the SDK to refuse.
func (w *wire) watchCancellation(method string, id json.RawMessage, msg []byte) {
	switch method {
	case "session/prompt":
		var p struct {
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		if len(id) > 0 && string(id) != "null" && json.Unmarshal(msg, &p) == nil && p.Params.SessionID != "" {
			w.promptStarted(id, p.Params.SessionID)
		}
	case "$/cancel_request":
		var p struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(msg, &p) == nil && len(p.Params.RequestID) > 0 {
			w.cancelRequest(p.Params.RequestID)
		}
	}
}

// refuseOversized answers a line that was longer than maxLine. A request gets
// an error reply; a response (to a request tandem made) is turned into an
// error response for the SDK, so the caller waiting on it fails instead of
// hanging.
func (w *wire) refuseOversized(head []byte, size int, toSDK io.Writer) bool {
	id, method := peekHeader(head)
	detail := fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", size, w.maxLine)
	w.log.Warn("acp: oversized message dropped", "bytes", size, "method", method)
	switch {
	case method != "" && len(id) > 0:
		w.writeError(id, codeInvalidRequest, "Invalid request", detail)
	case method == "" && len(id) > 0:
		b, _ := json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   rpcError        `json:"error"`
		}{"2.0", id, rpcError{codeInternalError, "client response too large", map[string]string{"error": detail}}})
		if _, err := toSDK.Write(append(b, '\n')); err != nil {
			return false
		}
	}
	return true
}

// peekHeader reads the id and method from the start of a message whose tail
// was cut off. Clients put them first; when they do not, nothing is found.
func peekHeader(head []byte) (id json.RawMessage, method string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return id, method
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return id, method
		}
		switch key {
		case "id":
			id = v
		case "method":
			_ = json.Unmarshal(v, &method)
		}
	}
	return id, method
}
