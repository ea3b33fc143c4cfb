package policy

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/tools"
)

// The sandbox's part in approval: full-auto runs commands unasked only
// because the sandbox confines them, so where it does not (Landlock
// missing, the sandbox off, commands run by the editor) those commands ask
// as in code mode; and a command the model asks to run outside the sandbox
// asks in every mode, with no "always" to remember.

// outsideSandbox is the verdict for a command the model asked to run
// outside the sandbox; ok is false for every other call.
func outsideSandbox(t target) (Verdict, bool) {
	if !t.Unsandboxed {
		return Verdict{}, false
	}
	return Verdict{
		Decision: Ask,
		Reason:   "running a command outside the sandbox asks every time, in every mode",
		CannotAsk: fmt.Sprintf("%s outside the sandbox was refused: that needs the user's approval every time, and this editor cannot show permission prompts. Nothing was run; tell the user what the command needs so they can run it themselves.",
			capitalize(t.shown())),
	}, true
}

// reliesOnSandbox reports whether m would approve t only on the sandbox's
// strength, which t's host does not give.
func reliesOnSandbox(m Mode, t target) bool {
	return m == ModeFullAuto && t.Group == tools.GroupExecute && unconfined(t) != ""
}

// unconfined is why t's command would run outside a sandbox: what its host
// says, or, where tandem has no kernel sandbox at all (Windows), that,
// even when the host cannot tell. Never silently unconfined.
func unconfined(t target) string {
	if t.Unconfined == "" {
		return noKernelSandbox
	}
	return t.Unconfined
}

// askReason says why the mode asks for t.
func askReason(m Mode, t target) string {
	if reliesOnSandbox(m, t) {
		return fmt.Sprintf("%s mode runs commands without asking only inside the sandbox, and %s", m, unconfined(t))
	}
	return fmt.Sprintf("%s mode asks before %s", m, groupNoun(t.Group, t.Tool))
}
