package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/tandemhq/tandem/codeindex"
)

// maxWorkspaceSymbols caps one workspace/symbol answer.
const maxWorkspaceSymbols = 500

// workspaceSymbol serves workspace/symbol from the code index of every
// workspace folder, best fuzzy matches first.
func (s *Server) workspaceSymbol(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Query string `json:"query"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	out := []protocol.SymbolInformation{}
	a, err := s.agentFor(ctx)
	if err != nil {
		return nil, err
	}
	pool := a.Indexes()
	if pool == nil || p.Query == "" {
		return out, nil
	}
	s.stateMu.Lock()
	roots := append([]string(nil), s.folders...)
	s.stateMu.Unlock()
	for _, root := range roots {
		ix, err := s.indexes.get(ctx, pool, root)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.log.Warn("code index unavailable", "root", root, "err", err)
			continue
		}
		for _, sym := range ix.Search(p.Query, codeindex.MatchFuzzy, maxWorkspaceSymbols-len(out)) {
			out = append(out, protocol.SymbolInformation{
				Name:          sym.Name,
				Kind:          symbolKind(sym.Kind),
				ContainerName: sym.Parent,
				Location: protocol.Location{
					URI: protocol.DocumentURI(pathToURI(filepath.Join(ix.Root(), filepath.FromSlash(sym.Path)))),
					// The index knows lines, not columns: whole lines, end exclusive.
					Range: protocol.Range{
						Start: protocol.Position{Line: uint32(max(sym.Start-1, 0))},
						End:   protocol.Position{Line: uint32(max(sym.End, sym.Start))},
					},
				},
			})
		}
		if len(out) >= maxWorkspaceSymbols {
			break
		}
	}
	return out, nil
}
