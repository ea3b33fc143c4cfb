package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// consentVersion is the version of the consent file's shape.
const consentVersion = 1

// Consents remembers which projects' allow lists the user accepted, in
// $TANDEM_HOME/consent.json: per project root, the digests of the exact
// lists accepted. The zero value (no home) remembers nothing.
type Consents struct {
	Home string
}

type consentFile struct {
	Version int                 `json:"version"`
	Allow   map[string][]string `json:"projectAllowRules"` // root -> accepted digests
	// Planted are allow rules that appeared in a project's
	// settings.local.json while a command tandem ran was running: the
	// command wrote them, not the user, so they wait for consent.
	Planted map[string][]string `json:"commandWrittenRules,omitempty"` // root -> rule texts
	// Hooks are the digests of the project hook sets accepted (agent/hooks).
	Hooks map[string][]string `json:"projectHooks,omitempty"` // root -> accepted digest
}

func (c Consents) path() string { return filepath.Join(c.Home, "consent.json") }

// Has reports whether the list with digest was accepted for root. An
// unreadable file, or one of another version, accepted nothing.
func (c Consents) Has(root, digest string) bool {
	if c.Home == "" || digest == "" {
		return false
	}
	f, err := c.read()
	if err != nil {
		return false
	}
	for _, d := range f.Allow[root] {
		if d == digest {
			return true
		}
	}
	return false
}

// Add remembers that the user accepted the list with digest for root. Only
// the latest acceptance per root is kept: a list that changed and changed
// back asks again.
func (c Consents) Add(root, digest string) error {
	return c.update(func(f *consentFile) {
		if f.Allow == nil {
			f.Allow = map[string][]string{}
		}
		f.Allow[root] = []string{digest}
	})
}

// update reads the file, lets change edit it, and writes it back.
func (c Consents) update(change func(*consentFile)) error {
	if c.Home == "" {
		return errors.New("settings: no $TANDEM_HOME to remember the consent in")
	}
	f, err := c.read()
	if err != nil {
		// Unreadable or another version: start over rather than lose the
		// answer the user just gave.
		f = consentFile{}
	}
	f.Version = consentVersion
	change(&f)
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.MkdirAll(c.Home, 0o700); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := atomicfile.Write(c.path(), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}

// Planted reports whether text was found written into root's
// settings.local.json by a command (see MarkPlanted).
func (c Consents) Planted(root, text string) bool {
	if c.Home == "" {
		return false
	}
	f, err := c.read()
	return err == nil && slices.Contains(f.Planted[root], text)
}

// MarkPlanted remembers that a command wrote texts into root's
// settings.local.json, so they need the user's consent in this session
// and later ones.
func (c Consents) MarkPlanted(root string, texts ...string) error {
	return c.update(func(f *consentFile) {
		if f.Planted == nil {
			f.Planted = map[string][]string{}
		}
		for _, t := range texts {
			if !slices.Contains(f.Planted[root], t) {
				f.Planted[root] = append(f.Planted[root], t)
			}
		}
	})
}

func (c Consents) read() (consentFile, error) {
	var f consentFile
	b, err := readSmall(c.path())
	if errors.Is(err, fs.ErrNotExist) {
		return consentFile{Version: consentVersion}, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, err
	}
	if f.Version != consentVersion {
		return f, fmt.Errorf("%s has version %d; this tandem reads %d", c.path(), f.Version, consentVersion)
	}
	return f, nil
}

// HasHooks reports whether the repository hooks with digest were accepted
// for root (agent/hooks computes the digest).
func (c Consents) HasHooks(root, digest string) bool {
	if c.Home == "" || digest == "" {
		return false
	}
	f, err := c.read()
	return err == nil && slices.Contains(f.Hooks[root], digest)
}

// AddHooks remembers that the user accepted root's hooks with digest; as
// for allow rules, only the latest acceptance per root is kept.
func (c Consents) AddHooks(root, digest string) error {
	return c.update(func(f *consentFile) {
		if f.Hooks == nil {
			f.Hooks = map[string][]string{}
		}
		f.Hooks[root] = []string{digest}
	})
}
