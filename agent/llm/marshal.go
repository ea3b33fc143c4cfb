package llm

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as the wire providers send it: without the HTML
// escaping encoding/json applies by default (a prompt's `<`, `>` and `&`
// stay as the model wrote them, and bytes stay stable for prefix caches)
// and without the encoder's trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
