package agent

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

// Logout removes the keys `tandem login` stored in $TANDEM_HOME and makes
// the provider read its configuration again, so the next prompt uses a key
// still configured (the environment's, config.json's) or, with none left,
// fails with ErrNotConfigured. Sessions stay open: a later login serves
// them again.
func (a *Agent) Logout() error {
	if err := config.RemoveCredentials(a.cfg.Home); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	if f, ok := a.cfg.Provider.(llm.Forgetter); ok {
		f.Forget()
	}
	return nil
}
