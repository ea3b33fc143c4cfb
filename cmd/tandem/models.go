package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// modelsHint is "; anthropic offers: a, b, c" for an error about an
// unknown model, or "" when the provider's list cannot be had.
func modelsHint(ctx context.Context, cfg config.Config) string {
	list := modelLister(cfg, nil)
	if list == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ids, err := list(ctx)
	if err != nil || len(ids) == 0 {
		return ""
	}
	const shown = 15
	more := ""
	if len(ids) > shown {
		more = fmt.Sprintf(" and %d more", len(ids)-shown)
		ids = ids[:shown]
	}
	return fmt.Sprintf("; %s offers: %s%s", cfg.Provider, strings.Join(ids, ", "), more)
}

// learnListed teaches w (when not nil) the limits a provider's listing
// reports and returns the listed ids.
func learnListed(infos []models.Info, w *models.Windows) []string {
	ids := make([]string, len(infos))
	for i, m := range infos {
		ids[i] = m.ID
		if w != nil {
			w.LearnLimits(m.ID, m.Limits)
		}
	}
	return ids
}
