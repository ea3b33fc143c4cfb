package checkpoints_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/checkpoints"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// served is one run of the plugin over pipes, driven as tandem drives it;
// kill ends it abruptly, as a crash of tandem would: no turn end, no
// shutdown.
type served struct {
	host *jsonrpc.Conn
	kill func()
	// mu guards restored.
	mu       sync.Mutex
	restored map[string]string // host/applyEdit: path -> content
	call     func(method string, params, out any)
}

func serve(t *testing.T, data string) *served {
	t.Helper()
	toPlugin, hostOut := io.Pipe()
	hostIn, fromPlugin := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkpoints.Plugin().Serve(ctx, toPlugin, fromPlugin)
	}()
	s := &served{restored: map[string]string{}}
	s.host = jsonrpc.NewConn(hostIn, hostOut, jsonrpc.Options{Handler: jsonrpc.Methods{
		sdk.HostMarker: jsonrpc.Typed(func(context.Context, sdk.MarkerParams) (struct{}, error) { return struct{}{}, nil }),
		sdk.HostApplyEdit: jsonrpc.Typed(func(_ context.Context, p sdk.ApplyEditParams) (sdk.ApplyEditResult, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.restored[p.Path] = p.Content
			return sdk.ApplyEditResult{Applied: true}, nil
		}),
	}.Handle})
	go s.host.Serve(ctx)
	s.kill = func() {
		cancel()
		toPlugin.Close()
		fromPlugin.Close()
		hostIn.Close()
		hostOut.Close()
		<-done
	}
	t.Cleanup(s.kill)
	call := func(method string, params, out any) {
		t.Helper()
		cctx, ccancel := context.WithTimeout(ctx, 10*time.Second)
		defer ccancel()
		if err := s.host.Call(cctx, method, params, out); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	call(sdk.MethodInitialize, sdk.InitializeParams{ProtocolVersion: sdk.ProtocolVersion, SessionID: "s1", DataDir: data}, nil)
	s.call = call
	return s
}

// A checkpoint is on disk for the next process as soon as the edit's
// beforeFileEdit is answered: tandem killed mid-turn, after the edit and
// before the turn's end, a new run of the plugin still undoes it.
func TestUndoAfterCrashMidTurn(t *testing.T) {
	data := t.TempDir()
	path := filepath.Join(t.TempDir(), "a.txt")
	first := serve(t, data)
	first.call(sdk.HookPrefix+sdk.HookBeforeFileEdit, sdk.BeforeFileEditParams{SessionID: "s1", Path: path, Exists: true, Before: "old\n", After: "new\n"}, nil)
	first.kill()

	second := serve(t, data)
	var res sdk.RunCommandResult
	second.call(sdk.MethodCommandRun, sdk.RunCommandParams{SessionID: "s1", Name: "undo"}, &res)
	second.mu.Lock()
	defer second.mu.Unlock()
	if got := second.restored[path]; got != "old\n" || !strings.Contains(res.Text, "Undid checkpoint 1") {
		t.Errorf("after the crash: restored %q, said %q", got, res.Text)
	}
}
