package redact

import (
	"regexp"
	"strings"
	"sync"
)

// LooksSecretName reports whether an environment variable's name says it
// holds a credential: *_TOKEN, *_SECRET, *_KEY, *PASSWORD*, *PASSWD*, and
// the cloud providers' credentials (AWS_*, AZURE_*,
// GOOGLE_APPLICATION_CREDENTIALS). Names are compared upper-cased: shells
// do not fold case, but users do.
func LooksSecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, suffix := range []string{"_TOKEN", "_SECRET", "_KEY", "_APIKEY", "_CREDENTIALS"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return strings.Contains(n, "PASSWORD") || strings.Contains(n, "PASSWD") ||
		strings.HasPrefix(n, "AWS_") || strings.HasPrefix(n, "AZURE_")
}

// tokenShapes are the formats of credentials issued by common services.
// Each is specific enough (a fixed prefix and a random tail) that ordinary
// text does not match it. The tails' minimum lengths are below the issued
// tokens' lengths: a server echoing a key often cuts or elides it, a
// proxy's or a test account's keys are shorter, and half a key is still
// a leak. Text only hides these shapes in what tandem says itself, so a
// prefix that needs no long tail to be telling (sk-proj-, AKIA) costs
// little.
var tokenShapes = []string{
	`sk-ant-[A-Za-z0-9_-]{8,}`,                    // Anthropic
	`sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{8,}`, // OpenAI's scoped keys
	`sk-[A-Za-z0-9_-]{16,}`,                       // OpenAI and compatible servers
	`gh[pousr]_[A-Za-z0-9]{16,}`,                  // GitHub tokens
	`github_pat_[A-Za-z0-9_]{16,}`,                // GitHub fine-grained tokens
	`glpat-[A-Za-z0-9_-]{12,}`,                    // GitLab
	`xox[abposr]-[A-Za-z0-9-]{10,}`,               // Slack
	`(?:AKIA|ASIA)[0-9A-Z]{8,}`,                   // AWS access key ids
	`AIza[0-9A-Za-z_-]{16,}`,                      // Google API keys
	`ya29\.[0-9A-Za-z_.-]{20,}`,                   // Google OAuth2 access tokens (Vertex AI)
	`npm_[A-Za-z0-9]{16,}`,                        // npm
	`hf_[A-Za-z0-9]{16,}`,                         // Hugging Face
}

// tokenRE matches any token shape anywhere in a text; wholeTokenRE only a
// value that is one token and nothing else. They compile on first use:
// every tandem process, the sandbox helper included, would pay for them
// at start otherwise.
var (
	tokenRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:` + strings.Join(tokenShapes, `|`) + `)`) })
	wholeTokenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:` + strings.Join(tokenShapes, `|`) + `)$`) })
)

// textShape is a secret in context whose pattern keeps group 1 (and 2)
// and masks the rest. needles are words of which a text must contain one
// for the pattern to match at all (compared ASCII-lower-cased when fold):
// Text runs, and compiles, only the patterns a text could match. A fold
// pattern is case-insensitive, and Unicode folds letters beyond ASCII
// (ſ to s, the Kelvin sign to k), so a text with any non-ASCII byte runs it
// regardless.
type textShape struct {
	re      func() *regexp.Regexp
	fold    bool
	needles []string
}

// mayMatch reports whether s contains what the shape's pattern needs.
func (sh *textShape) mayMatch(s string) bool {
	if sh.fold {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return true
			}
		}
		s = strings.ToLower(s)
	}
	for _, n := range sh.needles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

func lazyRE(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// textShapes are secrets in context: the token part of an Authorization
// header, a password in a URL, a private key block, and key=value pairs
// whose key names a secret. Group 1 is kept, the rest is masked.
var textShapes = []textShape{
	{lazyRE(`(?i)(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{12,}`), true, []string{"bearer", "basic"}},
	{lazyRE(`(://[^/\s:@]*:)[^/\s@]+(@)`), false, []string{"://"}},
	{lazyRE(`(?s)(-----BEGIN [A-Z ]*PRIVATE KEY-----).*?-----END [A-Z ]*PRIVATE KEY-----`), false, []string{"-----BEGIN "}},
	// api_key, api-key and apikey all contain "key"; access_token
	// "token"; password and passwd "passw".
	{lazyRE(`(?i)(\b(?:api[_-]?key|access[_-]?token|secret|password|passwd|token)["']?\s*[=:]\s*["']?)[^\s"'&,;]{8,}`), true,
		[]string{"key", "token", "secret", "passw"}},
}

// LooksSecretValue reports whether a value, whatever its variable is
// called, is a credential of a known shape (a GitHub token in a variable
// named GH, say).
func LooksSecretValue(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 16 && hasTokenPrefix(v) && wholeTokenRE().MatchString(v)
}

// tokenPrefixes are the fixed starts of tokenShapes. Checking them first
// keeps the regexp from compiling at start-up, where every environment
// variable's value is looked at and almost none is a token, and from
// running on a text that holds none of them.
var tokenPrefixes = []string{"sk-", "gh", "github_pat_", "glpat-", "xox", "AKIA", "ASIA", "AIza", "ya29.", "npm_", "hf_"}

func hasTokenPrefix(v string) bool {
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// containsTokenPrefix reports whether a token shape could start anywhere
// in s.
func containsTokenPrefix(s string) bool {
	for _, p := range tokenPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
