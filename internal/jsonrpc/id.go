package jsonrpc

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// ID is a request id exactly as it appeared on the wire: a JSON string
// (escapes and all), a JSON number of any size, or null. The zero ID means
// "no id" (a notification).
type ID struct {
	raw string
}

// Int64ID is a numeric id, the kind Call gives the requests it sends.
func Int64ID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// nullID is the id of an error answering a message whose id is unknown.
var nullID = ID{raw: "null"}

// parseID accepts the id member's raw JSON when it has a valid id type. A
// string holding bytes that are not UTF-8 is refused: JSON text is UTF-8,
// and echoing the id exactly would send the peer invalid JSON.
func parseID(raw json.RawMessage) (ID, bool) {
	if len(raw) == 0 {
		return ID{}, false
	}
	switch c := raw[0]; {
	case c == '"':
		if !utf8.Valid(raw) {
			return ID{}, false
		}
		return ID{raw: string(raw)}, true
	case c == '-', c >= '0' && c <= '9':
		return ID{raw: string(raw)}, true
	case string(raw) == "null":
		return nullID, true
	}
	return ID{}, false
}

// IsZero reports whether the message had no id at all.
func (id ID) IsZero() bool { return id.raw == "" }

// IsNull reports whether the id was JSON null.
func (id ID) IsNull() bool { return id.raw == "null" }

// Raw is the id's JSON as received.
func (id ID) Raw() json.RawMessage { return json.RawMessage(id.raw) }

// String is the id's JSON text, for logs.
func (id ID) String() string { return id.raw }

// MarshalJSON writes the id back exactly as it was read.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// key is the form ids are matched in: two spellings of one string ("A" and
// "\u0041") are the same id, while 7 and "7" stay different.
func (id ID) key() string {
	if len(id.raw) > 0 && id.raw[0] == '"' {
		var s string
		if json.Unmarshal([]byte(id.raw), &s) == nil {
			return "s" + s
		}
	}
	return "n" + id.raw
}
