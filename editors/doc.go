// Package editors holds the editor kits (Zed and JetBrains settings, the
// Neovim plugin, the VS Code extension, the Emacs configuration) and the Go
// tests that run each kit against the real tandem binary and the fake
// model. It has no Go code of its own and must never be imported: the kits
// talk to tandem only through `tandem acp` and `tandem lsp`.
package editors
