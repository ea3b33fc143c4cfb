package sandbox

import "encoding/json"

func encodePolicy(p Policy) string {
	b, _ := json.Marshal(p) // strings and a bool: cannot fail
	return string(b)
}

func decodePolicy(s string) (Policy, error) {
	var p Policy
	err := json.Unmarshal([]byte(s), &p)
	return p, err
}
