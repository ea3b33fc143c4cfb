package redact

import (
	"net/url"
	"strings"
	"testing"
)

// Every split of a text holding a secret (as is, and URL-escaped) into
// two or three pieces leaves it hidden, and the pieces put together read
// as the whole text redacted at once.
func TestStreamHidesSplitSecrets(t *testing.T) {
	const key = "sk-ant-api03-split+SECRET/split"
	r := New(key, "ghp_otherSECRETotherSECRET")
	text := "before " + key + " middle sk-ant- not a key, " + url.QueryEscape(key) + " after s"
	want := r.String(text)
	if strings.Contains(want, "SECRET") {
		t.Fatalf("the whole text is not redacted: %q", want)
	}
	for i := 0; i <= len(text); i++ {
		for j := i; j <= len(text); j += 7 {
			st := r.Stream()
			var got strings.Builder
			for _, piece := range []string{text[:i], text[i:j], text[j:]} {
				out := st.Next(piece)
				if strings.Contains(got.String()+out, "SECRET") {
					t.Fatalf("split at %d, %d: %q left", i, j, got.String()+out)
				}
				got.WriteString(out)
			}
			got.WriteString(st.Flush())
			if got.String() != want {
				t.Fatalf("split at %d, %d: %q, want %q", i, j, got.String(), want)
			}
		}
	}
}

// A piece whose tail could not start a secret leaves whole; one that
// could keeps only that tail back; nil and secret-less redactors hold
// nothing.
func TestStreamHoldsOnlyAPossibleStart(t *testing.T) {
	r := New("sk-ant-api03-holdHOLDhold")
	st := r.Stream()
	if out := st.Next("plain words "); out != "plain words " {
		t.Errorf("Next = %q", out)
	}
	if out := st.Next("then sk-a"); out != "then " {
		t.Errorf("Next = %q, want the possible start held", out)
	}
	if out := st.Next("nd more"); out != "sk-and more" {
		t.Errorf("Next = %q", out)
	}
	if out := st.Flush(); out != "" {
		t.Errorf("Flush = %q", out)
	}
	for _, r := range []*Redactor{nil, New()} {
		st := r.Stream()
		if out := st.Next("sk-a"); out != "sk-a" || st.Flush() != "" {
			t.Errorf("%v held %q", r, out)
		}
	}
}

func BenchmarkStreamNext(b *testing.B) {
	r := FromEnv(nil, "sk-ant-api03-benchSECRETbenchSECRETbench", "sk-proj-benchSECRETbenchSECRETbenchSECRET")
	st := r.Stream()
	for b.Loop() {
		st.Next("some tokens ")
	}
}
