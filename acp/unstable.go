package acp

import (
	"bytes"
	"encoding/json"
	"strings"
)

// unstableClientCaps names, as dotted paths, the client capabilities only
// ACP 1.21's schema.unstable.json defines (TestUnstableClientCapsMatchSchema
// holds the list to the vendored schema). The protocol has no flag that
// says "this client speaks the unstable schema"; a client that sends one
// of these does. Only such a client gets tandem's unstable parts (the fork
// capability, a turn's usage), so that a client of the stable schema never
// receives a field its schema does not define. session/fork itself is
// answered whoever calls it: a client that calls it knows the method.
func unstableClientCaps() []string {
	return []string{"nes", "plan", "positionEncodings", "session.compaction"}
}

// optsIntoUnstable reports whether client capabilities caps (as sent in
// initialize) contain one of unstableClientCaps with a value other than
// null, which the schema reads as "not offered". Capabilities that are
// not objects opt into nothing; refusing them is not this check's job.
func optsIntoUnstable(caps json.RawMessage) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(caps, &top) != nil {
		return false
	}
	for _, path := range unstableClientCaps() {
		first, rest, nested := strings.Cut(path, ".")
		v := top[first]
		if nested {
			var obj map[string]json.RawMessage
			if json.Unmarshal(v, &obj) != nil {
				continue
			}
			v = obj[rest]
		}
		if len(v) > 0 && !bytes.Equal(v, []byte("null")) {
			return true
		}
	}
	return false
}
