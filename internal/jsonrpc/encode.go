package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// Encoded is JSON that json.Marshal (or a MarshalJSON built on it) wrote:
// valid and compact, so a frame holds it as is. A params or result value
// of this type is copied into the frame without the scan encoding/json
// gives every json.RawMessage it embeds, which on a tool step's updates
// (a file's text, a diff) is the encoder's largest cost. Anything else,
// json.RawMessage included, is checked and compacted: a newline inside
// would end the frame early under newline framing.
type Encoded []byte

// marshal encodes v without HTML escaping (ids and strings are kept as
// written) and without the encoder's trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// raw encodes v unless it is already JSON; nil stays nil. What it returns
// is valid and compact.
func raw(v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case Encoded:
		return v, nil
	case json.RawMessage:
		if len(v) == 0 {
			return nil, nil
		}
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	return marshal(v)
}

// wrap writes a message's envelope around its parts, already encoded:
// the members in the order the envelope always had (jsonrpc, id, method,
// params, result, error), an empty part left out.
func wrap(id *ID, method string, params, result, rerr []byte) []byte {
	n := 33 + len(method) + len(params) + len(result) + len(rerr) // and the newline framing adds
	if id != nil {
		n += len(id.raw) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != nil {
		b = append(b, `,"id":`...)
		if id.raw == "" {
			b = append(b, "null"...)
		} else {
			b = append(b, id.raw...)
		}
	}
	if method != "" {
		b = append(b, `,"method":`...)
		b = appendString(b, method)
	}
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	if len(result) > 0 {
		b = append(b, `,"result":`...)
		b = append(b, result...)
	}
	if len(rerr) > 0 {
		b = append(b, `,"error":`...)
		b = append(b, rerr...)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string, as marshal writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			q, _ := marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func encodeResponse(id ID, result any, rerr *Error) ([]byte, error) {
	if rerr != nil {
		e, err := marshal(rerr)
		if err != nil {
			return nil, err
		}
		return wrap(&id, "", nil, nil, e), nil
	}
	r, err := raw(result)
	if err != nil {
		return nil, err
	}
	if len(r) == 0 {
		r = []byte("null")
	}
	return wrap(&id, "", nil, r, nil), nil
}

func encodeRequest(id *ID, method string, params any) ([]byte, error) {
	p, err := raw(params)
	if err != nil {
		return nil, err
	}
	return wrap(id, method, p, nil, nil), nil
}
