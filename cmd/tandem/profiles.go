package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/internal/redact"
)

// routedProvider is the default provider and config.json's profiles
// behind one llm.Provider: each request goes to the provider serving its
// model (config.Config.Route), so a session's model option picks the
// provider. The providers are built once, when it is.
type routedProvider struct {
	cfg  config.Config
	def  llm.Provider            // nil when the top level configures none
	byID map[string]llm.Provider // by profile name; nil values lack a key
}

var _ llm.Provider = (*routedProvider)(nil)

func newRoutedProvider(cfg config.Config, t llm.Transport, red *redact.Redactor) (llm.Provider, error) {
	def, err := newOneProvider(cfg, t, red)
	if err != nil {
		return nil, err
	}
	r := &routedProvider{cfg: cfg, def: def, byID: map[string]llm.Provider{}}
	for _, p := range cfg.Profiles {
		pp, err := newOneProvider(p.Config, t, red)
		if err != nil {
			return nil, fmt.Errorf("profile %q: %w", p.Name, err)
		}
		r.byID[p.Name] = pp
	}
	if def == nil && len(r.byID) == 0 {
		return nil, nil
	}
	return r, nil
}

// Name is the default provider's, or the first profile's when the top
// level configures none.
func (r *routedProvider) Name() string {
	if r.def != nil {
		return r.def.Name()
	}
	for _, p := range r.cfg.Profiles {
		if pp := r.byID[p.Name]; pp != nil {
			return pp.Name()
		}
	}
	return "unconfigured"
}

func (r *routedProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	_, name := r.cfg.Route(req.Model)
	p := r.def
	if name != "" {
		p = r.byID[name]
	}
	if p == nil {
		if name == "" {
			return nil, fmt.Errorf("model %q is in no profile of config.json and the top level configures no provider: %w", req.Model, llm.ErrNotConfigured)
		}
		return nil, fmt.Errorf("profile %q (model %q) has no key: %w", name, req.Model, llm.ErrNotConfigured)
	}
	return p.Stream(ctx, req, emit)
}

// routedLister lists the models of the default provider and of every
// profile; a provider that cannot be asked contributes its configured
// models only (the agent offers those anyway). A listed model is offered
// only when it routes back to the provider that listed it (a profile's
// own models, or its modelPrefixes): a model offered in the picker must
// reach the provider that serves it. It fails only when every provider
// asked failed.
func routedLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	type lister struct {
		profile string
		list    func(context.Context) ([]string, error)
	}
	listers := []lister{{"", oneLister(cfg, w)}}
	for _, p := range cfg.Profiles {
		listers = append(listers, lister{p.Name, oneLister(p.Config, w)})
	}
	return func(ctx context.Context) ([]string, error) {
		var ids []string
		var errs []error
		asked := 0
		for _, l := range listers {
			if l.list == nil {
				continue
			}
			asked++
			got, err := l.list(ctx)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, id := range got {
				if _, name := cfg.Route(id); name == l.profile {
					ids = append(ids, id)
				}
			}
		}
		if asked > 0 && len(errs) == asked {
			return nil, errors.Join(errs...)
		}
		return ids, nil
	}
}
