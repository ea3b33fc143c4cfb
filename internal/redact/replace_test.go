package redact

import (
	"bytes"
	"strings"
	"testing"
)

// TestReplaceMatchesReplacer holds replace to strings.Replacer's output,
// with one known value (a single-pattern replacer) and several, for text
// with no secret, secrets at either end, one secret alone, and nothing.
func TestReplaceMatchesReplacer(t *testing.T) {
	for _, secrets := range [][]string{{key}, {key, "p@ss/w0rd+with spaces"}} {
		tab := New(secrets...).load()
		for _, in := range []string{
			"",
			"plain text with no secret at all",
			key,
			key + " at the start",
			"at the end " + key,
			"two " + key + " and " + key + "!",
			`{"password":"p@ss/w0rd+with spaces"}`,
		} {
			want := tab.known.Replace(in)
			if got := tab.replace(in); got != want {
				t.Errorf("replace(%q) = %q, want %q", in, got, want)
			}
			if got := tab.replaceBytes([]byte(in)); string(got) != want {
				t.Errorf("replaceBytes(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// TestReplaceCopiesNothingWithoutASecret: text with no secret leaves as
// it came, with one small allocation (the writer the replacer is handed)
// and no copy, and Bytes returns its very slice.
func TestReplaceCopiesNothingWithoutASecret(t *testing.T) {
	r := New(key, "another-secret-value")
	text := strings.Repeat("func handler(w http.ResponseWriter) { serve(w) }\n", 50)
	b := []byte(text)
	if n := testing.AllocsPerRun(20, func() { _ = r.String(text) }); n > 1 {
		t.Errorf("String allocated %v times for text with no secret", n)
	}
	if n := testing.AllocsPerRun(20, func() { _ = r.Bytes(b) }); n > 1 {
		t.Errorf("Bytes allocated %v times for data with no secret", n)
	}
	if got := r.Bytes(b); &got[0] != &b[0] {
		t.Error("Bytes copied data with no secret")
	}
	withKey := []byte(`{"text":"` + key + `"}`)
	got := r.Bytes(withKey)
	if bytes.Contains(got, []byte(key)) || !bytes.Contains(withKey, []byte(key)) {
		t.Errorf("Bytes = %q (its input %q): the key must be hidden and the input left as it was", got, withKey)
	}
}
