package custom

import (
	"regexp"
	"testing"
)

// The hand-written name checks must accept exactly what the patterns they
// replace accepted.
func TestNameChecksMatchPatterns(t *testing.T) {
	skill := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	slug := regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	cases := []string{"", "a", "-", "a-", "-a", "a-b", "a--b", "ab-cd-9", "A", "a_b", "a.b", ".a", "_a",
		"a b", "a\n", "é", "mode.v2", "x-", "0", "a" + string(rune(0x212a)),
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	alphabet := "az09-._A "
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				cases = append(cases, string([]rune{a, b, c}), string([]rune{a, b}))
			}
		}
	}
	for _, s := range cases {
		if got, want := validSkillName(s), skill.MatchString(s); got != want {
			t.Errorf("validSkillName(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := validSlug(s), slug.MatchString(s); got != want {
			t.Errorf("validSlug(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
