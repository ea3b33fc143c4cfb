package lsp

// unimplemented lists the LSP methods tandem deliberately does not serve,
// in one place, so a reader sees at a glance what is left out. tandem is an
// agent host, not a language server: it keeps the document sync the agent
// needs, symbols from tree-sitter and code actions that start prompts.
// handle answers these, like any unknown request, with MethodNotFound.
func unimplemented() map[string]string {
	const notLS = "tandem hosts an agent and is not a language server; use your language's server for this"
	return map[string]string{
		"textDocument/completion":     notLS,
		"textDocument/hover":          notLS,
		"textDocument/signatureHelp":  notLS,
		"textDocument/definition":     notLS,
		"textDocument/references":     notLS,
		"textDocument/rename":         notLS,
		"textDocument/formatting":     notLS,
		"textDocument/semanticTokens": notLS,
	}
}
