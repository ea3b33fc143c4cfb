package redact

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"regexp"
	"strings"
	"testing"
)

const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"

func TestKnownValuesInTheirEncodings(t *testing.T) {
	odd := "p@ss/w0rd+with spaces"
	r := New(key, odd, "short")
	for _, in := range []string{
		"key " + key + " echoed",
		"Authorization: Bearer " + key,
		"https://example.com/?key=" + "p%40ss%2Fw0rd%2Bwith+spaces",
		`{"password":"p@ss/w0rd+with spaces"}`,
		"b64 cEBzcy93MHJkK3dpdGggc3BhY2Vz",
	} {
		out := r.String(in)
		if strings.Contains(out, key) || strings.Contains(out, "w0rd") || strings.Contains(out, "cEBzcy93MHJk") {
			t.Errorf("String(%q) = %q: the secret survived", in, out)
		}
		if !strings.Contains(out, Mask) {
			t.Errorf("String(%q) = %q: no mask", in, out)
		}
	}
	if got := r.String("a short word"); got != "a short word" {
		t.Errorf("a value under 8 bytes was hidden: %q", got)
	}
}

func TestStringLeavesTokenShapedFixtures(t *testing.T) {
	fixture := "const fake = \"ghp_" + strings.Repeat("x", 36) + "\""
	if got := New(key).String(fixture); got != fixture {
		t.Errorf("String changed workspace text that holds no known secret: %q", got)
	}
	if got := New(key).Text(fixture); strings.Contains(got, "ghp_") {
		t.Errorf("Text kept a token shape: %q", got)
	}
}

func TestTextShapes(t *testing.T) {
	var r *Redactor // nil still hides shapes
	cases := map[string]string{
		"Authorization: Bearer abcdefghijklmnopqrstuvwx":                       "abcdefghijklmnop",
		"dial https://bob:hunter2hunter2@example.com/x":                        "hunter2",
		"AWS key AKIAABCDEFGHIJKLMNOP in use":                                  "AKIAABCDEFGHIJKLMNOP",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----": "MIIE",
		`retrying with api_key=0123456789abcdef`:                               "0123456789abcdef",
		"openai said: invalid key sk-proj-" + strings.Repeat("A", 40):          "AAAAAAAA",
	}
	for in, secret := range cases {
		if got := r.Text(in); strings.Contains(got, secret) || !strings.Contains(got, Mask) {
			t.Errorf("Text(%q) = %q", in, got)
		}
	}
	plain := "token estimate 1234 for model claude-sonnet-4-5 at https://api.example.com/v1"
	if got := r.Text(plain); got != plain {
		t.Errorf("Text changed ordinary text: %q", got)
	}
}

// Keys of the known providers' shapes are hidden in tandem's own text even
// when shorter than the issued ones (a server echoing part of a key, a
// proxy's own keys), and ordinary words starting like them are not.
func TestTextShortTokenShapes(t *testing.T) {
	var r *Redactor
	for _, key := range []string{
		"sk-proj-abcDEF123456", "sk-ant-api03-xyz98765", "sk-svcacct-q1w2e3r4t5",
		"sk-0123456789abcdefXYZ", "AIzaSyA1b2C3d4E5f6G7h8", "AKIA1234ABCD5678", "ghp_abcdef0123456789",
	} {
		in := "error in response stream: key " + key + " is invalid"
		if got := r.Text(in); strings.Contains(got, key[len(key)-6:]) || !strings.Contains(got, Mask) {
			t.Errorf("Text(%q) = %q", in, got)
		}
	}
	for _, plain := range []string{"use sk-learn here", "the task-management-dashboard-widget", "AKIA is a prefix", "sk-proj-x"} {
		if got := r.Text(plain); got != plain {
			t.Errorf("Text(%q) = %q: an ordinary text was masked", plain, got)
		}
	}
}

func TestFromEnv(t *testing.T) {
	gh := "ghp_" + strings.Repeat("a", 36)
	r := FromEnv([]string{"GITHUB_TOKEN=tok-123456789", "GH=" + gh, "HOME=/home/someone", "PATH=/usr/bin:/bin"}, key)
	for _, s := range []string{"tok-123456789", gh, key} {
		if got := r.String("x " + s); strings.Contains(got, s) {
			t.Errorf("FromEnv did not learn %q: %q", s, got)
		}
	}
	if got := r.String("/home/someone and /usr/bin:/bin"); got != "/home/someone and /usr/bin:/bin" {
		t.Errorf("FromEnv hid an ordinary value: %q", got)
	}
}

func TestErrorKeepsTheChain(t *testing.T) {
	err := New(key).Error(errors.Join(fs.ErrPermission, errors.New("server echoed "+key)))
	if strings.Contains(err.Error(), key) {
		t.Errorf("Error kept the key: %v", err)
	}
	if !errors.Is(err, fs.ErrPermission) {
		t.Error("Error broke errors.Is")
	}
	if New(key).Error(nil) != nil {
		t.Error("Error(nil) is not nil")
	}
}

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(New(key).Handler(slog.NewTextHandler(&buf, nil)))
	log.With("cfg", "k="+key).Error("request failed: "+key, "err", errors.New("echo "+key), "n", 3,
		slog.Group("g", "h", "Bearer "+key))
	if strings.Contains(buf.String(), key) || strings.Contains(buf.String(), "abcdefghijkl") {
		t.Errorf("log kept the key: %s", buf.String())
	}
	if !strings.Contains(buf.String(), "n=3") {
		t.Errorf("log lost a number: %s", buf.String())
	}
}

func TestLooksSecret(t *testing.T) {
	for _, n := range []string{"GITHUB_TOKEN", "aws_access_key_id", "DB_PASSWORD", "MY_SECRET", "STRIPE_KEY"} {
		if !LooksSecretName(n) {
			t.Errorf("%s not secret", n)
		}
	}
	for _, n := range []string{"PATH", "HOME", "GOPATH", "TOKENIZERS_PARALLELISM", "KEYBOARD"} {
		if LooksSecretName(n) {
			t.Errorf("%s secret", n)
		}
	}
	if !LooksSecretValue("xoxb-1234567890-abcdef") || LooksSecretValue("/usr/local/bin") {
		t.Error("LooksSecretValue")
	}
}

// TestEveryTokenShapeHasAPrefix keeps tokenPrefixes in step with
// tokenShapes: a shape whose start is not listed would never be seen.
func TestEveryTokenShapeHasAPrefix(t *testing.T) {
	samples := []string{
		"sk-ant-" + strings.Repeat("a", 24),
		"sk-proj-" + strings.Repeat("b", 40),
		"sk-" + strings.Repeat("b", 48),
		"ghp_" + strings.Repeat("c", 36),
		"github_pat_" + strings.Repeat("d", 50),
		"glpat-" + strings.Repeat("e", 24),
		"xoxb-" + strings.Repeat("1", 20),
		"AKIA" + strings.Repeat("Q", 16),
		"AIza" + strings.Repeat("f", 35),
		"ya29.c." + strings.Repeat("f", 60),
		"npm_" + strings.Repeat("g", 36),
		"hf_" + strings.Repeat("h", 34),
	}
	if len(samples) != len(tokenShapes) {
		t.Fatalf("%d samples for %d token shapes: add one for the new shape", len(samples), len(tokenShapes))
	}
	for i, s := range samples {
		if !regexp.MustCompile(`^(?:` + tokenShapes[i] + `)$`).MatchString(s) {
			t.Errorf("sample %q does not match shape %q", s, tokenShapes[i])
		}
		if !LooksSecretValue(s) {
			t.Errorf("LooksSecretValue(%q) = false: its prefix is missing from tokenPrefixes", s)
		}
	}
}

// A value learnt later is hidden by every user of the Redactor from then
// on, streams included; learning races with redacting safely.
func TestLearn(t *testing.T) {
	const later = "sk-stored-by-login-later"
	r := New(key)
	st := r.Stream()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			r.String("x " + later)
		}
	}()
	r.Learn(later, "short", key)
	<-done
	for _, got := range []string{r.String("x " + later), r.Text("x " + later), st.Next("y "+later+" z") + st.Flush()} {
		if strings.Contains(got, later) || !strings.Contains(got, Mask) {
			t.Errorf("a learnt secret survived: %q", got)
		}
	}
	if got := r.String(key + " short"); got != Mask+" short" {
		t.Errorf("String = %q: lost the first secret or hid a short value", got)
	}
}
