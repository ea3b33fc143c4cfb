package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// ErrPathRefused marks a path the model gave that cannot be used: it leaves
// the session root, or is written in a form tandem will not interpret. The
// message is meant for the model, so it says what to do instead.
var ErrPathRefused = errors.New("path refused")

// maxSymlinkHops bounds symlink resolution, as the kernel's ELOOP does.
const maxSymlinkHops = 40

func refuse(p, why string) error {
	return fmt.Errorf("%w: %q %s", ErrPathRefused, p, why)
}

// Resolve turns a path the model gave into an absolute path inside root.
// Relative paths are taken from root; absolute ones must already lie inside
// it. Every symlink on the way (the final component too, even a dangling
// one, since a write would follow it) is resolved, and the result must still
// be inside root. The returned path is the resolved one, so later I/O cannot
// be redirected by a link it did not see. Errors wrap ErrPathRefused and are
// worded for the model; they come before any permission prompt.
func Resolve(root, p string) (string, error) {
	if err := checkSpelling(p, pathx.Native().Windows); err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("session root %q: %w", root, err)
	}
	return resolveReal(filepath.Clean(root), realRoot, p)
}

// resolveIn is Resolve for a root that is its own real path (an Env's
// roots are), which spares resolving the root again on every call: a tool
// step resolves a path several times.
func resolveIn(realRoot, p string) (string, error) {
	abs, _, err := resolveInInfo(realRoot, p)
	return abs, err
}

// resolveInInfo is resolveIn that also returns what the last component's
// Lstat found on the way (nil when it is missing, or when the walk did not
// end on an Lstat of the result): a tool step asks whether the path is a
// directory or a regular file, and the walk has just looked.
func resolveInInfo(realRoot, p string) (string, fs.FileInfo, error) {
	if err := checkSpelling(p, pathx.Native().Windows); err != nil {
		return "", nil, err
	}
	return resolveRealInfo(realRoot, realRoot, p)
}

// resolveReal is Resolve after the spelling check, with root (as spelled,
// cleaned) and realRoot (its real path) both known.
func resolveReal(root, realRoot, p string) (string, error) {
	abs, _, err := resolveRealInfo(root, realRoot, p)
	return abs, err
}

// resolveRealInfo is resolveReal with the last component's Lstat (see
// resolveInInfo).
func resolveRealInfo(root, realRoot, p string) (string, fs.FileInfo, error) {
	var lexical string
	if filepath.IsAbs(p) {
		lexical = filepath.Clean(p)
		// The model may spell the root as the user sees it (before symlinks
		// such as macOS's /tmp -> /private/tmp were resolved).
		if rel, ok := within(root, lexical); ok {
			lexical = filepath.Join(realRoot, rel)
		} else if _, ok := within(realRoot, lexical); !ok {
			return "", nil, refuse(p, "is outside the workspace root "+realRoot+"; use a path relative to it")
		}
	} else {
		lexical = filepath.Join(realRoot, p)
		if _, ok := within(realRoot, lexical); !ok {
			return "", nil, refuse(p, "climbs out of the workspace root with ..; use a path inside it")
		}
	}

	resolved, fi, err := followLinks(realRoot, lexical)
	if err != nil {
		return "", nil, refuse(p, err.Error())
	}
	if _, ok := within(realRoot, resolved); !ok {
		return "", nil, refuse(p, "is a symlink (or lies under one) that points outside the workspace root, to "+resolved)
	}
	return resolved, fi, nil
}

// checkSpelling rejects forms that other shells, URLs or operating systems
// would interpret differently from a plain path of this OS, so nothing ever
// depends on how they happen to be read here. On Windows (windows true)
// backslashes, drive-absolute paths (C:\x) and UNC shares (\\srv\share)
// are this OS's own spelling and Resolve checks them against the root like
// any absolute path; what Win32 reads in surprising ways is refused.
func checkSpelling(p string, windows bool) error {
	switch {
	case p == "":
		return refuse(p, "is empty; give a path relative to the workspace root")
	case strings.ContainsRune(p, 0):
		return refuse(p, "contains a NUL byte")
	case strings.HasPrefix(p, "~"):
		return refuse(p, "starts with ~, which is not expanded; give a path relative to the workspace root")
	case strings.Contains(p, "://"):
		return refuse(p, "is a URL; give a file path relative to the workspace root")
	}
	if windows {
		if err := checkWindowsSpelling(p); err != nil {
			return err
		}
	} else {
		switch {
		case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//"):
			return refuse(p, "looks like a network (UNC) path; give a path relative to the workspace root")
		case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
			return refuse(p, "looks like a Windows drive path; give a POSIX path relative to the workspace root")
		case strings.ContainsRune(p, '\\'):
			return refuse(p, `contains a backslash; use forward slashes`)
		}
	}
	lower := strings.ToLower(p)
	for _, enc := range []string{"%2e", "%2f", "%5c", "%00"} {
		if strings.Contains(lower, enc) {
			return refuse(p, "contains URL-encoded characters ("+enc+"); write the path plainly")
		}
	}
	return nil
}

// checkWindowsSpelling refuses what Win32 reads differently from how it
// looks: device namespaces (\\?\, \\.\), a drive without a root
// (C:x is relative to that drive's current directory), a root without a
// drive (\x is on the current drive), and a colon past the drive, which
// names an alternate data stream (.git::$INDEX_ALLOCATION opens .git).
func checkWindowsSpelling(p string) error {
	slash := strings.ReplaceAll(p, `\`, "/")
	rest := slash
	switch {
	case strings.HasPrefix(slash, "//?/") || strings.HasPrefix(slash, "//./"):
		return refuse(p, "is a Windows device path; give a path relative to the workspace root")
	case len(slash) >= 2 && slash[1] == ':' && isASCIILetter(slash[0]):
		if len(slash) == 2 || slash[2] != '/' {
			return refuse(p, "names a drive without a root (relative to that drive's current directory); give a path relative to the workspace root")
		}
		rest = slash[2:]
	case strings.HasPrefix(slash, "//"):
		rest = slash[2:]
	case strings.HasPrefix(slash, "/"):
		return refuse(p, "starts at the root of the current drive; give a path relative to the workspace root")
	}
	if strings.ContainsRune(rest, ':') {
		return refuse(p, "contains a colon, which names an NTFS stream; write the file name plainly")
	}
	return nil
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

// within reports whether p is root or below it, and p relative to root;
// the rule itself lives in pathx, shared with every other containment check.
func within(root, p string) (string, bool) { return pathx.Within(root, p) }

// followLinks resolves every symlink in the clean absolute path p, starting
// below realRoot (which is already resolved). Components that do not exist
// are kept as they are: nothing can redirect them yet. Unlike
// filepath.EvalSymlinks it also follows a dangling final link, because
// creating the file would create the link's target.
func followLinks(realRoot, p string) (string, fs.FileInfo, error) {
	rel, ok := within(realRoot, p)
	if !ok {
		return "", nil, errors.New("is outside the workspace root")
	}
	cur := realRoot
	todo := splitPath(rel)
	hops := 0
	var last fs.FileInfo // cur's own Lstat, while cur is what it describes
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case ".", "":
			continue
		case "..":
			cur, last = filepath.Dir(cur), nil
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil {
			// Missing: nothing below it exists either, so nothing can
			// redirect it. Not a directory, permission denied...: the path
			// is still spelled inside the root; the real I/O reports those.
			return filepath.Join(append([]string{next}, todo...)...), nil, nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur, last = next, fi
			continue
		}
		last = nil
		hops++
		if hops > maxSymlinkHops {
			return "", nil, errors.New("has too many levels of symlinks")
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, fmt.Errorf("has an unreadable symlink: %v", err)
		}
		if filepath.IsAbs(target) {
			// Restart at the target's root: "/" on Unix, its drive or
			// share on Windows.
			target = filepath.Clean(target)
			vol := filepath.VolumeName(target)
			cur, last = vol+string(filepath.Separator), nil
			target = strings.TrimLeft(target[len(vol):], `/\`)
		}
		todo = append(splitPath(target), todo...)
	}
	return cur, last, nil
}

func splitPath(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(filepath.ToSlash(p), "/")
}

// Protected reports whether a write to abs must ask in every mode: version
// control internals, tandem's and VS Code's settings, the folders of
// commands, skills and agent definitions kept for other agents (.claude,
// .agents: their files steer the agent as .tandem's do), workspace files, and
// instruction files (instructionFiles, the names from
// instructions.Config.FileNames) at any depth, since changing one changes
// what the agent is told. A path outside root counts as protected, so a
// caller that skipped Resolve fails closed. Names compare as
// pathx.NameKey says (case-insensitively, as macOS and Windows file systems
// do; on Windows without trailing dots), and containment as pathx.Within.
// On Windows a component that may be an 8.3 alias ("GIT~1") is protected
// too: it may open any of those names, and which one is not knowable
// from the name (a file not yet made has no alias to look up).
func Protected(root, abs string, instructionFiles []string) bool {
	rel, ok := within(filepath.Clean(root), filepath.Clean(abs))
	if !ok {
		if real, err := filepath.EvalSymlinks(root); err == nil {
			rel, ok = within(real, filepath.Clean(abs))
		}
		if !ok {
			return true
		}
	}
	parts := splitPath(rel)
	if len(parts) == 0 {
		return false
	}
	for _, part := range parts {
		switch pathx.NameKey(part) {
		case ".git", ".tandem", ".vscode", ".claude", ".agents":
			return true
		}
		if pathx.MaybeShortName(part) {
			return true
		}
	}
	base := pathx.NameKey(parts[len(parts)-1])
	if strings.HasSuffix(base, ".code-workspace") {
		return true
	}
	for _, name := range instructionFiles {
		if base == pathx.NameKey(name) {
			return true
		}
	}
	return false
}
