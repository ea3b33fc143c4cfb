package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/internal/atomicfile"
	"github.com/tandemhq/tandem/internal/flock"
	"github.com/tandemhq/tandem/internal/fserr"
)

// SaveLocal adds texts to list d of root's settings.local.json, creating
// the file (and a .tandem/.gitignore naming it, when .tandem has none) as
// needed. Saving a deny rule takes the same text out of the allow list: a
// later "Always reject" replaces an earlier "Always allow" of the same
// rule (the deny would win anyway; the file then says so). Saving an
// allow rule leaves a deny of it alone: deny comes first. Other keys in
// the file are kept as they were. The write is atomic, and refused when
// .tandem or the file is a symlink: a repository could point either
// anywhere.
func SaveLocal(root string, d policy.Decision, texts ...string) error {
	return editLocal(root, true, func(l *Lists) bool {
		changed := false
		list := l.list(d)
		for _, t := range texts {
			if !slices.Contains(*list, t) {
				*list = append(*list, t)
				changed = true
			}
		}
		if d == policy.Deny {
			n := len(l.Allow)
			l.Allow = slices.DeleteFunc(l.Allow, func(s string) bool { return slices.Contains(texts, s) })
			changed = changed || len(l.Allow) != n
		}
		return changed
	})
}

// RemoveLocal removes text from every list of root's settings.local.json
// and reports whether it was there.
func RemoveLocal(root, text string) (bool, error) {
	removed := false
	err := editLocal(root, false, func(l *Lists) bool {
		for _, d := range []policy.Decision{policy.Allow, policy.Ask, policy.Deny} {
			list := l.list(d)
			n := len(*list)
			*list = slices.DeleteFunc(*list, func(s string) bool { return s == text })
			removed = removed || len(*list) != n
		}
		return removed
	})
	return removed, err
}

// editLocal reads settings.local.json, lets change edit its lists, and
// writes the file back when change reports a change. Unless create is set,
// a missing file (or .tandem) is left missing and has nothing to change.
func editLocal(root string, create bool, change func(*Lists) bool) error {
	path := LocalFile(root)
	if _, err := os.Lstat(path); !create && fserr.Absent(err) {
		return nil
	}
	dir := filepath.Join(root, ".tandem")
	if err := makeDir(dir); err != nil {
		return err
	}
	// From the read to the rename, no other save may run: it would read
	// the file before this change and write it back without it. (On
	// Windows a replace also fails while another process has the file
	// open, so the .gitignore is written under the lock too.)
	unlock, err := flock.Dir(dir, lockWait)
	if err != nil {
		return fmt.Errorf("settings: %w (another tandem may be saving a rule)", err)
	}
	defer unlock()
	if err := ensureIgnore(dir); err != nil {
		return err
	}
	doc := map[string]json.RawMessage{}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("settings: %w", err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("settings: %s is not a regular file; tandem will not write through it", path)
	default:
		b, err := readSmall(path)
		if err != nil {
			return fmt.Errorf("settings: %w", err)
		}
		if len(b) > 0 {
			if err := json.Unmarshal(b, &doc); err != nil {
				return fmt.Errorf("settings: %s is not a JSON object; fix or remove it: %w", path, err)
			}
		}
	}
	// Keep whatever else the permissions object holds (Claude Code's
	// defaultMode, say) beside the three lists.
	perms := map[string]json.RawMessage{}
	if raw, ok := doc["permissions"]; ok {
		if err := json.Unmarshal(raw, &perms); err != nil {
			return fmt.Errorf("settings: %s: \"permissions\" is not an object: %w", path, err)
		}
	}
	var l Lists
	for name, p := range map[string]*[]string{"allow": &l.Allow, "ask": &l.Ask, "deny": &l.Deny} {
		if raw, ok := perms[name]; ok {
			if err := json.Unmarshal(raw, p); err != nil {
				return fmt.Errorf("settings: %s: permissions.%s is not a list of strings: %w", path, name, err)
			}
		}
	}
	if !change(&l) {
		return nil
	}
	for name, list := range map[string][]string{"allow": l.Allow, "ask": l.Ask, "deny": l.Deny} {
		delete(perms, name)
		if len(list) > 0 {
			perms[name], _ = json.Marshal(list)
		}
	}
	doc["permissions"], _ = json.Marshal(perms)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := atomicfile.Write(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}

// lockWait bounds how long a save waits for another one to finish.
const lockWait = 5 * time.Second

// makeDir makes root's .tandem directory, refusing a symlink in its place.
func makeDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		// Another process may make it between the two calls: then look
		// again, so a symlink planted there is still refused.
		if err = os.Mkdir(dir, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
			fi, err = os.Lstat(dir)
		}
	}
	switch {
	case err != nil:
		return fmt.Errorf("settings: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("settings: %s is not a directory (a symlink?); tandem will not write through it", dir)
	}
	return nil
}

// ensureIgnore gives .tandem a .gitignore naming the personal file when
// it has none, so the rules saved there stay out of commits.
func ensureIgnore(dir string) error {
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Lstat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(ignore, []byte("settings.local.json\n"), 0o644); err != nil {
			return fmt.Errorf("settings: %w", err)
		}
	}
	return nil
}
