package plugin

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a semantic version; pre-release and build parts are kept
// only to order pre-releases first.
type Version struct {
	Major, Minor, Patch int
	Pre                 string
}

// ParseVersion reads "1.2.3", "v1.2.3" or "1.2.3-rc.1" (and "1.2", "1").
func ParseVersion(s string) (Version, error) {
	v, n, err := parsePartial(s)
	if err == nil && n == 0 {
		err = fmt.Errorf("%q is not a version like 1.2.3", s)
	}
	return v, err
}

// parsePartial reads a version and says how many of its three numbers
// were given (wildcards x and * end it).
func parsePartial(s string) (Version, int, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	s, _, _ = strings.Cut(s, "+")
	s, pre, _ := strings.Cut(s, "-")
	parts := strings.Split(s, ".")
	if len(parts) > 3 || s == "" {
		return Version{}, 0, fmt.Errorf("%q is not a version like 1.2.3", s)
	}
	var nums [3]int
	n := 0
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			break
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, 0, fmt.Errorf("%q is not a version like 1.2.3", s)
		}
		nums[i] = v
		n++
	}
	return Version{nums[0], nums[1], nums[2], pre}, n, nil
}

// Compare orders versions: -1, 0 or 1.
func (v Version) Compare(o Version) int {
	for _, d := range [3]int{v.Major - o.Major, v.Minor - o.Minor, v.Patch - o.Patch} {
		if d != 0 {
			return sign(d)
		}
	}
	switch {
	case v.Pre == o.Pre:
		return 0
	case v.Pre == "":
		return 1
	case o.Pre == "":
		return -1
	}
	return sign(strings.Compare(v.Pre, o.Pre))
}

func sign(d int) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// Range is a set of versions: alternatives joined by "||", each a list of
// comparators that must all hold (">=1.2 <2", "^1.4", "~0.3.1", "1.x",
// "*", "=1.2.3").
type Range [][]comparator

type comparator struct {
	op string // one of = > >= < <=
	v  Version
}

// ParseRange reads a range.
func ParseRange(s string) (Range, error) {
	var r Range
	for _, alt := range strings.Split(s, "||") {
		var set []comparator
		for _, f := range strings.Fields(alt) {
			cs, err := parseComparator(f)
			if err != nil {
				return nil, err
			}
			set = append(set, cs...)
		}
		r = append(r, set) // an empty set matches everything ("*" too)
	}
	return r, nil
}

func parseComparator(f string) ([]comparator, error) {
	if f == "*" || f == "x" || f == "X" {
		return nil, nil
	}
	op := ""
	for _, p := range []string{">=", "<=", ">", "<", "=", "^", "~"} {
		if strings.HasPrefix(f, p) {
			op, f = p, f[len(p):]
			break
		}
	}
	v, n, err := parsePartial(f)
	if err != nil {
		return nil, err
	}
	// The upper bound of a partial or caret/tilde version.
	next := func(level int) Version {
		switch level {
		case 0:
			return Version{Major: v.Major + 1}
		case 1:
			return Version{Major: v.Major, Minor: v.Minor + 1}
		}
		return Version{Major: v.Major, Minor: v.Minor, Patch: v.Patch + 1}
	}
	switch op {
	case "^":
		level := 0 // ^1.2.3 keeps the major; ^0.2.3 the minor; ^0.0.3 the patch
		if v.Major == 0 && n > 1 {
			level = 1
			if v.Minor == 0 && n > 2 {
				level = 2
			}
		}
		return []comparator{{">=", v}, {"<", next(level)}}, nil
	case "~":
		return []comparator{{">=", v}, {"<", next(min(max(n-1, 0), 1))}}, nil
	case "", "=":
		if n == 3 {
			return []comparator{{"=", v}}, nil
		}
		if n == 0 {
			return nil, nil
		}
		return []comparator{{">=", v}, {"<", next(n - 1)}}, nil
	}
	return []comparator{{op, v}}, nil
}

// Contains reports whether v is in the range.
func (r Range) Contains(v Version) bool {
	for _, set := range r {
		ok := true
		for _, c := range set {
			d := v.Compare(c.v)
			switch c.op {
			case "=":
				ok = d == 0
			case ">":
				ok = d > 0
			case ">=":
				ok = d >= 0
			case "<":
				ok = d < 0
			case "<=":
				ok = d <= 0
			}
			if !ok {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
