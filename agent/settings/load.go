package settings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/policy"
)

// Kind says whose a settings file is, which decides what its rules may do.
type Kind int

const (
	User      Kind = iota // $TANDEM_HOME/config.json
	Project               // .tandem/settings.json, committed
	Local                 // .tandem/settings.local.json, personal
	Committed             // a settings.local.json git tracks: treated as Project
)

// Scope says where a file's rules apply and whose they are, for
// /permissions.
func (k Kind) Scope() string {
	switch k {
	case User:
		return "yours, in every project"
	case Project:
		return "the project's, for everyone who clones it"
	case Committed:
		return "committed with the project, for everyone who clones it"
	}
	return `yours, in every session of this project: where "always" answers are saved`
}

// Entry is one rule as written in one file.
type Entry struct {
	Text   string          // as written
	List   policy.Decision // the list it is in
	Rules  []policy.Rule   // what it stands for, Source set to the file
	Source string          // the file, as shown to the user
	Kind   Kind
	// Active is false for a repository's allow rule the user has not
	// accepted; it is listed but not in force.
	Active bool
}

// Set is the rules of one project's files at one moment.
type Set struct {
	Entries []Entry
	// Problems are files or rules that were skipped, each a sentence.
	Problems []string
	// Pending is the repository's allow rules awaiting the user's consent
	// (the texts, in file order), and Digest identifies exactly that list
	// for Consents; both empty when nothing waits.
	Pending []string
	Digest  string

	stamps []stamp
}

// Options say where the files are.
type Options struct {
	Home     string // $TANDEM_HOME; empty: no user file
	UserHome string // the user's home directory, to show paths as ~/…
	Root     string // the session root
	// Consented reports whether the user accepted the allow list with
	// this digest for this root; nil: nothing was accepted.
	Consented func(digest string) bool
	// Planted reports whether an allow rule of settings.local.json was
	// written there by a command rather than the user (Consents.Planted);
	// such a rule waits for consent like the project's. Nil: none was.
	Planted func(text string) bool
}

// UserFile, ProjectFile and LocalFile are the three files' paths.
func UserFile(home string) string    { return filepath.Join(home, "config.json") }
func ProjectFile(root string) string { return filepath.Join(root, ".tandem", "settings.json") }
func LocalFile(root string) string   { return filepath.Join(root, ".tandem", "settings.local.json") }

// Load reads the three files. It never fails: what cannot be read is
// skipped and named in Problems, so a broken file never stops a session
// (and a broken deny list is loud about it).
func Load(ctx context.Context, o Options) Set {
	var s Set
	type file struct {
		path string
		kind Kind
	}
	files := []file{{ProjectFile(o.Root), Project}, {LocalFile(o.Root), Local}}
	if o.Home != "" {
		files = append([]file{{UserFile(o.Home), User}}, files...)
	}
	var pending []string
	for _, f := range files {
		s.stamps = append(s.stamps, stampOf(f.path))
		l, err := readLists(f.path)
		if err != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("the rules in %s were skipped: %v", f.path, err))
			continue
		}
		kind := f.kind
		if kind == Local && len(l.Allow) > 0 && tracked(ctx, o.Root, f.path) {
			// Committed to the repository after all: not the user's.
			kind = Committed
		}
		shown := display(f.path, o.Root, o.UserHome)
		for _, d := range []policy.Decision{policy.Deny, policy.Ask, policy.Allow} {
			for _, text := range *l.list(d) {
				rules, err := policy.ParseRule(text)
				if err != nil {
					s.Problems = append(s.Problems, fmt.Sprintf("a rule in %s was skipped: %v", shown, err))
					continue
				}
				for i := range rules {
					rules[i].Source = shown
				}
				e := Entry{Text: text, List: d, Rules: rules, Source: shown, Kind: kind, Active: true}
				if d == policy.Allow && (kind == Project || kind == Committed || kind == Local && o.Planted != nil && o.Planted(text)) {
					pending = append(pending, shown+"\x00"+text)
					e.Active = false
				}
				s.Entries = append(s.Entries, e)
			}
		}
	}
	if len(pending) == 0 {
		return s
	}
	s.Digest = digest(o.Root, pending)
	if o.Consented != nil && o.Consented(s.Digest) {
		s.Accept(s.Digest)
		return s
	}
	for _, p := range pending {
		_, text, _ := strings.Cut(p, "\x00")
		s.Pending = append(s.Pending, text)
	}
	return s
}

// Accept puts the pending allow rules in force when digest is still the
// one they were loaded with.
func (s *Set) Accept(digest string) {
	if digest == "" || digest != s.Digest {
		return
	}
	// Copies of a Set share its entries; the others must not change.
	s.Entries = slices.Clone(s.Entries)
	for i := range s.Entries {
		s.Entries[i].Active = true
	}
	s.Pending = nil
}

// Rules are the rules in force, for policy.Decide.
func (s Set) Rules() policy.Rules {
	var rs policy.Rules
	for _, e := range s.Entries {
		if e.Active {
			rs.Add(e.List, e.Rules...)
		}
	}
	return rs
}

// digest names one project's exact list of committed allow rules.
func digest(root string, pending []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", root)
	for _, p := range pending {
		fmt.Fprintf(h, "%s\n", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// display shows path as the user knows it: relative to the root for the
// project's files, ~/… under the home directory.
func display(path, root, userHome string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	if userHome != "" {
		if rel, err := filepath.Rel(userHome, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// stamp is what a file looked like when it was read.
type stamp struct {
	path  string
	size  int64
	mtime time.Time
	ino   uint64
}

func stampOf(path string) stamp {
	st := stamp{path: path}
	if fi, err := os.Stat(path); err == nil {
		st.size, st.mtime, st.ino = fi.Size(), fi.ModTime(), inode(fi)
	}
	return st
}

// Stale reports whether any of the files changed since s was loaded (or s
// was never loaded), so a session reloads them before its next decision.
func (s Set) Stale() bool {
	if len(s.stamps) == 0 {
		return true
	}
	return slices.ContainsFunc(s.stamps, func(st stamp) bool { return stampOf(st.path) != st })
}

// LocalState is what root's settings.local.json holds now, to compare
// before and after a command runs: its stamp and its allow rules.
type LocalState struct {
	st    stamp
	allow []string
}

// ReadLocal returns root's settings.local.json as it is now.
func ReadLocal(root string) LocalState {
	path := LocalFile(root)
	l, _ := readLists(path)
	return LocalState{st: stampOf(path), allow: l.Allow}
}

// Added lists the allow rules now has that s had not; nil when the file
// did not change.
func (s LocalState) Added(now LocalState) []string {
	if s.st == now.st {
		return nil
	}
	var out []string
	for _, t := range now.allow {
		if !slices.Contains(s.allow, t) {
			out = append(out, t)
		}
	}
	return out
}
