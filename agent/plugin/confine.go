package plugin

import (
	"os"

	"github.com/tandemhq/tandem/agent/sandbox"
)

// policy confines the plugin's process: it may write its data folder, the
// temp folder and its permissions.filesystem folders, never the workspace
// (its changes to the user's files go through tools and the editor), and
// reach the network only with permissions.network.
func (i *instance) policy(data string) sandbox.Policy {
	s := i.rt.o.Sandbox
	p := sandbox.PolicyFor(s, "")
	if p.Mode == sandbox.ModeReadOnly {
		p.Mode = sandbox.ModeWorkspaceWrite // read-only is about the workspace, which is not writable here anyway
	}
	p.Writable = append(p.Writable, data)
	for _, g := range i.grants()[1:] {
		if st, err := os.Stat(g); err == nil && st.IsDir() {
			p.Writable = append(p.Writable, g)
		}
	}
	// Denying the network needs Landlock ABI 4; on older kernels a plugin
	// keeps it rather than failing to start (the user's own "deny" still
	// applies, and fails, as it does for commands).
	if len(i.st.Manifest.Permissions.Network) == 0 && sandbox.LandlockABI() >= 4 {
		p.NetworkDeny = true
	}
	return p
}
