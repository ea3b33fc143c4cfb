package redact

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
)

// Mask replaces what a Redactor hides.
const Mask = "[redacted]"

// minSecret is the shortest value hidden as a known secret: shorter ones
// ("1", "true", a port) would mask ordinary text everywhere.
const minSecret = 8

// Redactor hides secrets in strings. The zero value and nil hide only the
// token patterns (in Text). It is safe for concurrent use: what it knows
// is an immutable table, replaced whole by Learn.
type Redactor struct {
	table atomic.Pointer[table] // nil: no known values
}

// table is what a Redactor knows at one time.
type table struct {
	secrets []string          // the values given, for Learn to add to
	known   *strings.Replacer // every form of every value, to the mask
	// byFirst holds the known values' forms by their first byte, for
	// Stream's look at a piece's tail; longest is the longest form.
	byFirst [256][]string
	longest int
}

// New returns a Redactor that hides the given values, in their common
// encodings too. Values shorter than 8 bytes are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Learn(secrets...)
	return r
}

// Learn adds secrets to what r hides (a key stored by tandem login after
// the process started), for every user of r from then on; a stream holds
// its tail by the table it last saw. Values already known or shorter than
// 8 bytes change nothing, and so does a nil r.
func (r *Redactor) Learn(secrets ...string) {
	for r != nil {
		old := r.table.Load()
		var have []string
		if old != nil {
			have = old.secrets
		}
		all := slices.Clone(have)
		for _, s := range secrets {
			if len(s) >= minSecret && !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
		if len(all) == len(have) || r.table.CompareAndSwap(old, newTable(all)) {
			return
		}
	}
}

func (r *Redactor) load() *table {
	if r == nil {
		return nil
	}
	return r.table.Load()
}

func newTable(secrets []string) *table {
	var forms []string
	for _, s := range secrets {
		forms = append(forms, encodings(s)...)
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
	t := &table{secrets: secrets, known: strings.NewReplacer(pairs...)}
	for _, f := range forms {
		t.byFirst[f[0]] = append(t.byFirst[f[0]], f)
		t.longest = max(t.longest, len(f))
	}
	return t
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
	t := r.load()
	if t == nil || s == "" {
		return s
	}
	return t.replace(s)
}

// Bytes is String for encoded data (a JSON record). b is not modified.
func (r *Redactor) Bytes(b []byte) []byte {
	t := r.load()
	if t == nil || len(b) == 0 {
		return b
	}
	return t.replaceBytes(b)
}

// Text hides the known secrets and everything shaped like a credential.
// Use it on what tandem says itself: log lines, error messages, a
// provider's error text.
func (r *Redactor) Text(s string) string {
	s = r.String(s)
	if containsTokenPrefix(s) {
		s = tokenRE().ReplaceAllString(s, Mask)
	}
	for i := range textShapes {
		if sh := &textShapes[i]; sh.mayMatch(s) {
			s = sh.re().ReplaceAllString(s, "${1}"+Mask+"${2}")
		}
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
