package sandbox

import (
	"path"
	"regexp"
	"strings"
)

// seatbeltProfile is the macOS Seatbelt (sandbox-exec) profile that holds a
// command to p, the same policy Landlock enforces on Linux: everything is
// allowed except writing outside the roots, p.Writable and the terminal
// devices; writing a root's protected entries (protectedNames and its
// top-level *.code-workspace files, whether they exist yet or not);
// reading or writing p.Hidden; and, when p denies the network, IP
// connections and listening (Unix sockets stay, as on Linux). In
// read-only mode there are no roots, so only p.Writable takes writes.
//
// Seatbelt applies the last rule that matches, so the denials follow the
// blanket allow. Paths are written as string literals, so they must be
// the real paths (see realPaths on macOS); this text is a pure function
// of p so that it is tested where sandbox-exec cannot run.
func seatbeltProfile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")

	// Writes only to the places the policy names.
	b.WriteString("(deny file-write*\n  (require-all\n")
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper"} {
		b.WriteString("    (require-not (literal " + sbString(dev) + "))\n")
	}
	b.WriteString("    (require-not (regex #\"^/dev/(fd/|tty|ttys|pty)\"))\n")
	if p.Mode != ModeReadOnly {
		for _, r := range p.Roots {
			b.WriteString("    (require-not (subpath " + sbString(r) + "))\n")
		}
	}
	for _, w := range p.Writable {
		b.WriteString("    (require-not (subpath " + sbString(w) + "))\n")
	}
	b.WriteString("  ))\n")

	// A writable root's protected entries stay read-only.
	if p.Mode != ModeReadOnly && len(p.Roots) > 0 {
		b.WriteString("(deny file-write*\n")
		for _, r := range p.Roots {
			for _, n := range protectedNames {
				// path, not filepath: these are macOS paths whatever
				// the host building the profile (its tests run on Windows).
				b.WriteString("  (subpath " + sbString(path.Join(r, n)) + ")\n")
			}
			b.WriteString("  (regex " + sbRegex("^"+regexp.QuoteMeta(strings.TrimSuffix(r, "/"))+`/[^/]*\.code-workspace$`) + ")\n")
		}
		b.WriteString(")\n")
	}

	if len(p.Hidden) > 0 {
		b.WriteString("(deny file-read* file-write*\n")
		for _, h := range p.Hidden {
			b.WriteString("  (subpath " + sbString(h) + ")\n")
		}
		b.WriteString(")\n")
	}

	if p.NetworkDeny {
		b.WriteString("(deny network-outbound (remote ip))\n(deny network-bind (local ip))\n(deny network-inbound (local ip))\n")
	}
	return b.String()
}

// sbString quotes s as a Seatbelt (Scheme) string literal.
func sbString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// sbRegex quotes a regular expression as a Seatbelt regex literal.
func sbRegex(re string) string {
	return `#"` + strings.ReplaceAll(re, `"`, `\"`) + `"`
}
