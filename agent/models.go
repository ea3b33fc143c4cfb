package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Models lists the model ids an editor may offer: the configured ones
// first, then those the provider reported. The first call starts asking
// the provider (StartBackground) when no front door has yet.
func (a *Agent) Models() []string {
	a.StartBackground()
	a.modelsMu.Lock()
	defer a.modelsMu.Unlock()
	out := slices.Clone(a.cfg.Models)
	for _, id := range a.discovered {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// AddModels records the models the provider serves (discovered after
// start-up); sessions offer them from then on.
func (a *Agent) AddModels(ids []string) {
	a.modelsMu.Lock()
	defer a.modelsMu.Unlock()
	a.discovered = slices.Clone(ids)
}

// ErrUnknownModel is returned for a model id the agent does not offer.
var ErrUnknownModel = errors.New("unknown model")

// CheckModel refuses an id the agent does not offer, naming those it
// does. With no list at all (nothing configured or reported), any id goes.
func (a *Agent) CheckModel(id string) error {
	known := a.Models()
	if id == "" {
		return fmt.Errorf("%w: the model id is empty", ErrUnknownModel)
	}
	if len(known) == 0 || slices.Contains(known, id) {
		return nil
	}
	return fmt.Errorf("%w %q: the models offered are %s", ErrUnknownModel, id, strings.Join(known, ", "))
}

// discoverTimeout bounds the provider's model list: a slow answer must not
// keep tandem busy, and the configured list serves meanwhile.
const discoverTimeout = 10 * time.Second

// discover asks the server for its windows (Windows.Probe) and runs
// Config.DiscoverModels, once (see StartBackground); the agent owns this
// goroutine and Close stops it.
func (a *Agent) discover(ctx context.Context) {
	defer close(a.backgroundDone)
	defer a.stopBackground()
	// The window first: the first model request waits for it.
	a.cfg.Windows.Settle(ctx)
	if a.cfg.DiscoverModels == nil {
		return
	}
	ids, err := a.cfg.DiscoverModels(ctx)
	if err != nil {
		a.log.Debug("the provider did not list its models; offering the configured ones", "err", err)
		return
	}
	a.AddModels(ids)
	a.log.Debug("models discovered", "count", len(ids))
}
