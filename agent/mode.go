package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// Mode names a session mode. Its id decides which tool groups the model sees
// (the mode's definition) and which calls ask first (agent/policy: the four
// built-in ids keep their approval; any other mode approves nothing beyond
// reading and planning, like code).
type Mode string

// The built-in modes. Their ids are a contract (DESIGN.md); their
// definitions are embedded files read by agent/custom, and a project or
// user file with the same id replaces one in place.
const (
	ModeAsk      = Mode(policy.ModeAsk)      // read and plan tools only
	ModeCode     = Mode(policy.ModeCode)     // default: edits and commands ask
	ModeAutoEdit = Mode(policy.ModeAutoEdit) // edits inside the workspace approved, commands ask
	ModeFullAuto = Mode(policy.ModeFullAuto) // nothing asks (protected paths still do)
)

// ErrUnknownMode is returned for a mode id the session does not offer.
var ErrUnknownMode = errors.New("unknown mode")

// ModeInfo describes a mode to an editor.
type ModeInfo struct {
	ID          Mode   `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// modeSet is the modes one session offers, in the order editors show them:
// the built-ins, then custom modes by id, then the plugins' modes. A set is
// never changed once built (a change of plugins replaces the session's
// whole definitions), so any goroutine may read it.
type modeSet []custom.Mode

func builtinModes() modeSet { return modeSet(custom.BuiltinModes()) }

func (ms modeSet) find(m Mode) (custom.Mode, bool) {
	i := slices.IndexFunc(ms, func(d custom.Mode) bool { return d.Slug == string(m) })
	if i < 0 {
		return custom.Mode{}, false
	}
	return ms[i], true
}

// exposes reports whether mode m offers tools of group g to the model. An
// id the set does not know offers reading and planning only.
func (ms modeSet) exposes(m Mode, g tools.Group) bool {
	if d, ok := ms.find(m); ok {
		return d.Offers(string(g))
	}
	return g == tools.GroupRead || g == tools.GroupPlan
}

// infos lists the modes a user may pick. A private mode is left out
// unless it is current: an editor must be able to show the mode the
// session is in, but not offer it for picking otherwise.
func (ms modeSet) infos(current Mode) []ModeInfo {
	var out []ModeInfo
	for _, d := range ms {
		if !d.Private || Mode(d.Slug) == current {
			out = append(out, ModeInfo{ID: Mode(d.Slug), Name: d.Name, Description: d.Description})
		}
	}
	return out
}

// ids is the ids of the modes a user may pick: private ones are left out.
func (ms modeSet) ids() []string {
	var out []string
	for _, d := range ms {
		if !d.Private {
			out = append(out, d.Slug)
		}
	}
	return out
}

// choices is the ids as a phrase for messages: "ask, code, auto-edit or full-auto".
func (ms modeSet) choices() string {
	ids := ms.ids()
	if len(ids) == 1 {
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}

// parse checks a mode id against the set. The empty string is the default mode.
func (ms modeSet) parse(s string) (Mode, error) {
	if s == "" {
		return ModeCode, nil
	}
	if _, ok := ms.find(Mode(s)); ok {
		return Mode(s), nil
	}
	return "", fmt.Errorf("%w %q: use %s", ErrUnknownMode, s, ms.choices())
}

// Modes lists the built-in modes, in the order editors show them. A
// session may offer more (Session.Modes).
func Modes() []ModeInfo { return builtinModes().infos("") }

// ModeIDs lists the built-in mode ids in Modes' order. Help texts, errors
// and the CLI flag name modes only through it and the Mode constants.
func ModeIDs() []string { return builtinModes().ids() }

// ModeChoices is the built-in mode ids as a phrase for messages:
// "ask, code, auto-edit or full-auto".
func ModeChoices() string { return builtinModes().choices() }

// ParseMode checks a built-in mode id. The empty string is the default
// mode. A session's own modes are checked by Session.SetMode.
func ParseMode(s string) (Mode, error) { return builtinModes().parse(s) }

// ParseModeAt checks a mode id against the modes a session rooted at root
// would offer (the built-ins alone when root is empty), for a front door
// that takes a default mode before any session exists.
func (a *Agent) ParseModeAt(root, id string) (Mode, error) {
	ms := builtinModes()
	if root != "" {
		ms = a.loadDefinitions(root).modes
	}
	return ms.parse(id)
}

// Modes lists the modes this session offers: the built-ins (as replaced by
// project or user files), the custom modes of its root and
// $TANDEM_HOME/modes, and the enabled plugins' modes (<plugin>:<name>).
// A private plugin mode is listed only while the session is in it.
func (s *Session) Modes() (out []ModeInfo) {
	s.read(func() { out = s.custom.defs.modes.infos(s.st.mode) })
	return out
}
