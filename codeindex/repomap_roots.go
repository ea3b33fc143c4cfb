package codeindex

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MapPart is one root of a map over several roots.
type MapPart struct {
	Index *Index
	// Prefix is written before the root's file paths (see
	// MapOptions.PathPrefix); "" for the root paths are relative to.
	Prefix string
}

// MapRoots renders one repository map over several roots within
// opts.Tokens, parts[0] (the primary root) first, then the others in
// order. Each root is ranked on its own: references between roots are not
// followed. The budget is split so that the primary root keeps half of it
// when others follow and the others share the other half equally; a root
// that needs less than its share hands the rest to the roots rendered
// after it, and the primary root, rendered last, gets whatever the others
// left. opts.Focus applies to every root (each keeps the paths inside it);
// opts.PathPrefix is replaced by each part's Prefix. A root whose map
// fails is left out and named in the error, beside the maps of the rest.
func MapRoots(ctx context.Context, parts []MapPart, opts MapOptions) (string, error) {
	if len(parts) == 0 {
		return "", nil
	}
	tokens := opts.Tokens
	if tokens <= 0 {
		tokens = DefaultMapTokens
	}
	maps := make([]string, len(parts))
	var errs []error
	// render maps part i within budget and returns the tokens it used.
	render := func(i, budget int) int {
		if budget <= 0 { // Map would take 0 as "the default budget"
			return 0
		}
		o := opts
		o.Tokens, o.PathPrefix = budget, parts[i].Prefix
		m, err := parts[i].Index.Map(ctx, o)
		if err != nil {
			errs = append(errs, fmt.Errorf("repository map of %s: %w", parts[i].Index.Root(), err))
			return 0
		}
		maps[i] = m
		return (len(m) + bytesPerToken - 1) / bytesPerToken
	}
	primary := tokens
	if len(parts) > 1 {
		shared := tokens / 2
		primary -= shared
		for i := 1; i < len(parts); i++ {
			share := shared / (len(parts) - i)
			shared -= min(render(i, share), share)
		}
		primary += shared
	}
	render(0, primary)
	return strings.Join(maps, ""), errors.Join(errs...)
}
