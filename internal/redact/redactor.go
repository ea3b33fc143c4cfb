package redact

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// Mask replaces what a Redactor hides.
const Mask = "[redacted]"

// minSecret is the shortest value hidden as a known secret: shorter ones
// ("1", "true", a port) would mask ordinary text everywhere.
const minSecret = 8

// Redactor hides secrets in strings. The zero value and nil hide only the
// token patterns (in Text). It is immutable, so safe for concurrent use.
type Redactor struct {
	known *strings.Replacer // nil: no known values
	// byFirst holds the known values' forms by their first byte, for
	// Stream's look at a piece's tail; longest is the longest form.
	byFirst [256][]string
	longest int
}

// New returns a Redactor that hides the given values, in their common
// encodings too. Values shorter than 8 bytes are ignored.
func New(secrets ...string) *Redactor {
	var forms []string
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		forms = append(forms, encodings(s)...)
	}
	if len(forms) == 0 {
		return &Redactor{}
	}
	// Longest first, so a value's encoding that contains another's is
	// replaced whole; strings.Replacer tries patterns in argument order
	// at each position.
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	forms = slices.Compact(forms)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	r := &Redactor{known: strings.NewReplacer(pairs...)}
	for _, f := range forms {
		r.byFirst[f[0]] = append(r.byFirst[f[0]], f)
		r.longest = max(r.longest, len(f))
	}
	return r
}

// FromEnv returns a Redactor for the extra values (the configured provider
// keys) and the values of environ's variables that are secret by name or
// by shape.
func FromEnv(environ []string, extra ...string) *Redactor {
	secrets := slices.Clone(extra)
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		// A path is where a secret lives, not the secret (AWS_CONFIG_FILE).
		if (LooksSecretName(name) && !strings.HasPrefix(value, "/")) || LooksSecretValue(value) {
			secrets = append(secrets, value)
		}
	}
	return New(secrets...)
}

// encodings are the forms a secret takes on its way out: as is, escaped
// into a URL or a JSON string, base64 (a Basic header's "user:secret"
// contains the secret's base64 only when aligned, so the header shape is
// covered by Text instead).
func encodings(s string) []string {
	out := []string{s, url.QueryEscape(s), url.PathEscape(s),
		base64.StdEncoding.EncodeToString([]byte(s)),
		base64.RawURLEncoding.EncodeToString([]byte(s))}
	if b, err := json.Marshal(s); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	return out
}

// String hides the known secrets in s. Use it on what the workspace or the
// model produced (tool results, messages, diffs): a token-shaped fixture in
// a file stays as it is.
func (r *Redactor) String(s string) string {
	if r == nil || r.known == nil || s == "" {
		return s
	}
	return r.known.Replace(s)
}

// Bytes is String for encoded data (a JSON record). b is not modified.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || r.known == nil || len(b) == 0 {
		return b
	}
	s := string(b)
	if out := r.known.Replace(s); out != s {
		return []byte(out)
	}
	return b
}

// Text hides the known secrets and everything shaped like a credential.
// Use it on what tandem says itself: log lines, error messages, a
// provider's error text.
func (r *Redactor) Text(s string) string {
	s = r.String(s)
	s = tokenRE().ReplaceAllString(s, Mask)
	for _, re := range textShapes() {
		s = re.ReplaceAllString(s, "${1}"+Mask+"${2}")
	}
	return s
}

// Error wraps err so that its message is redacted by Text; errors.Is and
// errors.As still see err. nil stays nil.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := r.Text(msg); red != msg {
		return &redacted{err: err, msg: red}
	}
	return err
}

type redacted struct {
	err error
	msg string
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
