package lsp

import "github.com/tandemhq/tandem/internal/fileuri"

// uriToPath turns a file:// URI into a clean absolute path (Windows drive
// and UNC forms included: internal/fileuri).
func uriToPath(s string) (string, error) { return fileuri.ToPath(s) }

// pathToURI is the file:// URI of an absolute path.
func pathToURI(path string) string { return fileuri.FromPath(path) }
