package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/local"
	"github.com/tandemhq/tandem/treesitter"
)

// documentSymbol serves textDocument/documentSymbol from tree-sitter
// definitions of the editor's current text (unsaved changes included).
func (s *Server) documentSymbol(ctx context.Context, params json.RawMessage) (any, error) {
	var p docParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	lang := treesitter.ForPath(path)
	if lang == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	text, ok := s.docs.read(path)
	if !ok {
		if text, err = (local.Host{}).ReadFile(ctx, path); err != nil {
			return nil, invalidParams("cannot read %s: %v", path, err)
		}
	}
	defs, err := treesitter.Definitions(lang, []byte(text))
	if err != nil {
		return nil, err
	}
	return symbolTree(defs, edits.NewMapper(text, s.encoding())), nil
}

// symbolTree nests definitions by Depth (they come in source order, each
// member after its parent), but only inside a parent whose range holds
// them: LSP requires a child's range within its parent's. A Go method is
// declared outside its receiver type, so it stays at the top level named
// "Type.Method", never under whatever type happened to precede it.
func symbolTree(defs []treesitter.Definition, m *edits.Mapper) []protocol.DocumentSymbol {
	type node struct {
		sym        protocol.DocumentSymbol
		depth      int
		start, end int
		children   []*node
	}
	var roots, stack []*node
	for _, d := range defs {
		n := &node{sym: documentSymbolOf(d, m), depth: d.Depth, start: d.Start, end: d.End}
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.depth < d.Depth && top.start <= d.Start && d.End <= top.end {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			if d.Parent != "" && !strings.Contains(n.sym.Name, ".") {
				n.sym.Name = d.Parent + "." + n.sym.Name
			}
			n.depth = 0
			roots = append(roots, n)
		} else {
			parent := stack[len(stack)-1]
			parent.children = append(parent.children, n)
			if parent.sym.Kind == protocol.SymbolKindEnum && n.sym.Kind == protocol.SymbolKindConstant {
				n.sym.Kind = protocol.SymbolKindEnumMember
			}
		}
		stack = append(stack, n)
	}
	var build func(ns []*node) []protocol.DocumentSymbol
	build = func(ns []*node) []protocol.DocumentSymbol {
		out := make([]protocol.DocumentSymbol, len(ns))
		for i, n := range ns {
			out[i] = n.sym
			if len(n.children) > 0 {
				out[i].Children = build(n.children)
			}
		}
		return out
	}
	return build(roots)
}

func documentSymbolOf(d treesitter.Definition, m *edits.Mapper) protocol.DocumentSymbol {
	startLine, endLine := clampLine(d.Start-1, m), clampLine(d.End-1, m)
	full := protocol.Range{
		Start: protocol.Position{Line: uint32(startLine)},
		End:   lineEnd(m, endLine),
	}
	sel := full
	sel.End = lineEnd(m, startLine)
	lineStart, _ := m.Offset(edits.Position{Line: uint32(startLine)})
	lineText := m.Text()[lineStart:]
	if i := strings.IndexByte(lineText, '\n'); i >= 0 {
		lineText = lineText[:i]
	}
	name := d.Name
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !strings.Contains(lineText, name) {
		name = name[i+1:]
	}
	if i := strings.Index(lineText, name); i >= 0 && name != "" {
		if r, err := m.Range(lineStart+i, lineStart+i+len(name)); err == nil {
			sel = protocol.Range{Start: protocol.Position(r.Start), End: protocol.Position(r.End)}
		}
	}
	return protocol.DocumentSymbol{
		Name:           d.Name,
		Detail:         d.Signature,
		Kind:           symbolKind(d.Kind),
		Range:          full,
		SelectionRange: sel,
	}
}

func clampLine(l int, m *edits.Mapper) int {
	if l < 0 {
		return 0
	}
	if n := m.LineCount(); l >= n {
		return n - 1
	}
	return l
}

// lineEnd is the position after the last character of line l.
func lineEnd(m *edits.Mapper, l int) protocol.Position {
	start, err := m.Offset(edits.Position{Line: uint32(l)})
	if err != nil {
		return protocol.Position{Line: uint32(l)}
	}
	text := m.Text()
	end := len(text)
	if i := strings.IndexAny(text[start:], "\r\n"); i >= 0 {
		end = start + i
	}
	p, err := m.Position(end)
	if err != nil {
		return protocol.Position{Line: uint32(l)}
	}
	return protocol.Position(p)
}

func symbolKind(k treesitter.Kind) protocol.SymbolKind {
	switch k {
	case treesitter.KindFunction, treesitter.KindMacro:
		return protocol.SymbolKindFunction
	case treesitter.KindMethod:
		return protocol.SymbolKindMethod
	case treesitter.KindClass, treesitter.KindImpl, treesitter.KindType:
		return protocol.SymbolKindClass
	case treesitter.KindStruct:
		return protocol.SymbolKindStruct
	case treesitter.KindInterface, treesitter.KindTrait:
		return protocol.SymbolKindInterface
	case treesitter.KindEnum:
		return protocol.SymbolKindEnum
	case treesitter.KindConstant:
		return protocol.SymbolKindConstant
	case treesitter.KindVariable:
		return protocol.SymbolKindVariable
	case treesitter.KindField:
		return protocol.SymbolKindField
	case treesitter.KindModule:
		return protocol.SymbolKindModule
	case treesitter.KindNamespace:
		return protocol.SymbolKindNamespace
	}
	return protocol.SymbolKindVariable
}
