package pathx

import (
	"path"
	"strings"
)

// Rule is how an operating system reads a path: Windows (drive letters,
// UNC shares, backslashes, trailing dots and spaces dropped, device names)
// and whether names compare case-insensitively (Fold: the default file
// systems of Windows and macOS). Native is the rule of the running OS;
// tests pass either rule on any OS.
type Rule struct {
	Windows bool
	Fold    bool
}

// Native is the rule of the operating system tandem was built for; the
// choice itself is made once, in the build-tagged os_*.go files.
func Native() Rule { return Rule{Windows: isWindows, Fold: foldCase} }

// within is Within under rule r. It works on slash-separated text so that
// both rules behave the same on every OS (path/filepath only knows the OS
// it was built for).
func within(dir, p string, r Rule) (string, bool) {
	dvol, drest, ok1 := splitVolume(dir, r)
	pvol, prest, ok2 := splitVolume(p, r)
	// A different drive or share is never inside, whatever the rest says.
	if !ok1 || !ok2 || !strings.EqualFold(dvol, pvol) {
		return "", false
	}
	if strings.HasPrefix(drest, "/") != strings.HasPrefix(prest, "/") {
		return "", false // one absolute, one relative: no answer
	}
	dparts := parts(path.Clean(drest))
	pparts := parts(path.Clean(prest))
	if len(pparts) < len(dparts) {
		return "", false
	}
	for i, d := range dparts {
		if !sameName(d, pparts[i], r) {
			return "", false
		}
	}
	rest := pparts[len(dparts):]
	for _, c := range rest {
		// After Clean a ".." can only lead, which is climbing out of dir;
		// a device name (NUL, COM1) is not a file below dir on Windows.
		if c == ".." || (r.Windows && isDeviceName(c)) {
			return "", false
		}
	}
	if len(rest) == 0 {
		return ".", true
	}
	sep := "/"
	if r.Windows {
		sep = `\`
	}
	return strings.Join(rest, sep), true
}

// splitVolume splits p into its volume (Windows: "C:", "//server/share")
// and the rest, slash-separated. ok is false for Windows device-namespace
// paths it does not map to a drive or share (\\.\pipe\x, \\?\Volume{…}).
func splitVolume(p string, r Rule) (vol, rest string, ok bool) {
	if !r.Windows {
		return "", p, true
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "//?/") || strings.HasPrefix(p, "//./") {
		// \\?\C:\x is C:\x and \\?\UNC\srv\share is \\srv\share, spelled
		// without Win32 normalisation; anything else is a device.
		tail := p[4:]
		switch {
		case isDrive(tail):
			p = tail
		case len(tail) > 4 && strings.EqualFold(tail[:4], "UNC/"):
			p = "//" + tail[4:]
		default:
			return "", "", false
		}
	}
	if isDrive(p) {
		return p[:2], p[2:], true
	}
	if strings.HasPrefix(p, "//") {
		segs := strings.SplitN(p[2:], "/", 3)
		if len(segs) < 2 || segs[0] == "" || segs[1] == "" {
			return "", "", false // "\\server" alone names no share
		}
		rest = "/"
		if len(segs) == 3 {
			rest += segs[2]
		}
		return "//" + segs[0] + "/" + segs[1], rest, true
	}
	return "", p, true
}

func isDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ((p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z')
}

func parts(clean string) []string {
	clean = strings.TrimPrefix(clean, "/")
	if clean == "" || clean == "." {
		return nil
	}
	return strings.Split(clean, "/")
}

// sameName reports whether two path elements name the same entry.
func sameName(a, b string, r Rule) bool { return r.Key(a) == r.Key(b) }

// Key is the form of one path element in which two elements naming the
// same entry under r are equal: without the trailing dots and spaces
// Win32 drops, in lower case where r folds case. Matching a name against a
// pattern (a permission rule's glob) compares these forms.
func (r Rule) Key(name string) string {
	if r.Windows {
		name = trimWin(name)
	}
	if r.Fold {
		name = strings.ToLower(name)
	}
	return name
}

// trimWin drops the trailing dots and spaces Win32 ignores ("a.txt. " is
// "a.txt"), except in "." and "..".
func trimWin(name string) string {
	if name == "." || name == ".." {
		return name
	}
	return strings.TrimRight(name, ". ")
}

// NameKey is the form in which tandem compares a file name against its
// lists of special names (protected directories, instruction files): lower
// case on every OS, so the check fails closed on a case-insensitive file
// system even when tandem cannot tell, and on Windows without the trailing
// dots and spaces Win32 drops (".git." opens ".git").
func NameKey(name string) string { return nameKey(name, Native()) }

func nameKey(name string, r Rule) string {
	if r.Windows {
		name = trimWin(name)
	}
	return strings.ToLower(name)
}

// MaybeShortName reports whether name could be a Windows 8.3 alias of
// another entry ("GIT~1" for ".git"; Wine's "_GIT~IBP"): Windows opens the
// long entry through it, so a check by name cannot know which entry it
// stands for. The shape is all there is to go on without the disk (the
// alias of a file not yet made, or another hashing scheme, is not
// predictable): a tilde in a base of at most eight characters, an
// extension of at most three. Only under the Windows rule.
func MaybeShortName(name string) bool { return maybeShortName(name, Native()) }

func maybeShortName(name string, r Rule) bool {
	if !r.Windows {
		return false
	}
	base, ext := trimWin(name), ""
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base, ext = base[:i], base[i+1:]
	}
	return strings.Contains(base, "~") && len(base) <= 8 && len(ext) <= 3
}

// isDeviceName reports the names Win32 maps to devices in every directory
// (NUL, CON, COM1, LPT1.txt…).
func isDeviceName(name string) bool {
	base := strings.ToUpper(trimWin(name))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = strings.TrimRight(base[:i], " ")
	}
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) &&
		base[3] >= '1' && base[3] <= '9'
}
