package redact

import (
	"regexp"
	"strings"
	"testing"
)

// textEveryPattern is Text as it was before its patterns were filtered:
// every pattern run on every text.
func textEveryPattern(s string) string {
	s = regexp.MustCompile(`\b(?:`+strings.Join(tokenShapes, `|`)+`)`).ReplaceAllString(s, Mask)
	for _, sh := range textShapes {
		s = regexp.MustCompile(sh.re().String()).ReplaceAllString(s, "${1}"+Mask+"${2}")
	}
	return s
}

// prefilterSeeds are texts each pattern matches, in odd cases and with the
// Unicode letters a case-insensitive pattern folds to ASCII ones.
var prefilterSeeds = []string{
	"", "plain words", "Authorization: Bearer abcdefghijklmnopqrstuvwx", "BASIC dXNlcjpwYXNzd29yZA==",
	"bEaReR\tabcdefghijklmnop", "baſic abcdefghijklmnop", "dial https://bob:hunter2hunter2@example.com/x",
	"ssh://u:p@h", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
	"-----BEGIN PRIVATE KEY-----x-----END PRIVATE KEY-----", "api_key=0123456789abcdef", "API-KEY: 'abcdefghijk'",
	"ApiKey=\"abcdefghijk\"", "Access_Token=abcdefghij", "ſecret=abcdefghijk", "api_\u212aey=abcdefghijk",
	"PASSWD: hunter2hunter2", "password = hunter2hunter2", "tokEn:abcdefghij", "sk-proj-abcDEF123456 AKIA1234ABCD5678",
	"x ghp_abcdef0123456789 y", "xoxb-1234567890-abcdef", "ya29." + strings.Repeat("z", 24), "é token=abcdefghijk",
	"to" + "ken=" + "sk-ant-api03-xyz98765", "secretsecret: 12345678", "key=short", "keys: 1234567890",
}

// TestTextFilterChangesNothing holds Text to running every pattern: the
// patterns it skips could not have matched.
func TestTextFilterChangesNothing(t *testing.T) {
	var r *Redactor
	for _, s := range prefilterSeeds {
		if got, want := r.Text(s), textEveryPattern(s); got != want {
			t.Errorf("Text(%q) = %q, every pattern gives %q", s, got, want)
		}
	}
}

func FuzzTextFilterChangesNothing(f *testing.F) {
	for _, s := range prefilterSeeds {
		f.Add(s)
	}
	var r *Redactor
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := r.Text(s), textEveryPattern(s); got != want {
			t.Errorf("Text(%q) = %q, every pattern gives %q", s, got, want)
		}
	})
}
