package lsp_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestFrameCapFromConfig: with TANDEM_MAX_FRAME_BYTES at 64 KiB, an answer
// over it (the symbols of a large buffer) is replaced by an error naming
// the limit, and the connection goes on; without it the same answer goes
// out (LSP's default cap is 64 MiB).
func TestFrameCapFromConfig(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package p\n\n")
	for i := range 2000 {
		fmt.Fprintf(&src, "func LongFunctionNameNumber%04d() {}\n", i)
	}
	for _, capped := range []bool{true, false} {
		t.Run(fmt.Sprint("capped=", capped), func(t *testing.T) {
			t.Parallel()
			env := fakeModelEnv(t, nil)
			if capped {
				env = append(env, "TANDEM_MAX_FRAME_BYTES=65536")
			}
			c := startClient(t, env)
			root := t.TempDir()
			c.initialize(root, nil)
			path := root + "/p.go"
			newEditor("utf-16").open(c, path, src.String())
			params := map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}}
			res, rerr := c.call("textDocument/documentSymbol", params)
			switch {
			case capped && (rerr == nil || !strings.Contains(rerr.Message, "65536-byte limit")):
				t.Errorf("capped: %d bytes, error %+v", len(res), rerr)
			case !capped && (rerr != nil || len(res) < 65536):
				t.Errorf("uncapped: %d bytes, error %+v", len(res), rerr)
			}
			// The connection is still there for answers that fit.
			small := root + "/q.go"
			newEditor("utf-16").open(c, small, "package p\n\nfunc Small() {}\n")
			var syms []docSymbol
			c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(small)}}, &syms)
			if len(syms) != 1 || syms[0].Name != "Small" {
				t.Errorf("symbols of a small file: %+v", syms)
			}
		})
	}
}
