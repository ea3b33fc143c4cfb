package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// ReadFile reads through fs/read_text_file when the client offers it, so the
// agent sees unsaved buffers. When the client cannot read the file (it is
// not open and the client does not read disk, or it does not exist), the
// disk answers, which keeps "file does not exist" errors recognisable.
func (h *host) ReadFile(ctx context.Context, path string) (string, error) {
	if err := readable(ctx, path); err != nil {
		return "", err
	}
	if !h.caps.Fs.ReadTextFile {
		return h.local.ReadFile(ctx, path)
	}
	if err := h.beforeRequest(ctx); err != nil {
		return "", err
	}
	resp, err := call[sdk.ReadTextFileResponse](ctx, h.srv.conn, sdk.ClientMethodFsReadTextFile, sdk.ReadTextFileRequest{SessionId: h.sessionID(), Path: path})
	if err == nil {
		return resp.Content, nil
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("read %s through the editor: %w", path, ctx.Err())
	}
	if !isClientAnswer(err) {
		return "", fmt.Errorf("read %s through the editor: %w", path, err)
	}
	h.srv.log.Debug("acp: fs/read_text_file failed; reading disk", "path", path, "err", err)
	return h.local.ReadFile(ctx, path)
}

// ApplyEdit writes through fs/write_text_file when the client offers it, so
// the editor's review and undo see the change; otherwise the disk gets it.
// ACP has no delete, so deletions always happen on disk. Either way admit
// first checks the edit against the session root and the editor's view.
func (h *host) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	if reason, err := h.admit(ctx, e); err != nil || reason != "" {
		return edits.Result{Reason: reason}, err
	}
	if h.onDisk(e) {
		return h.local.ApplyEdit(ctx, e)
	}
	if err := h.beforeRequest(ctx); err != nil {
		return edits.Result{}, err
	}
	if e.Create {
		// ACP does not say whether the client creates missing directories;
		// making them first works with clients that do not.
		if err := os.MkdirAll(filepath.Dir(e.Path), 0o755); err != nil {
			return edits.Result{}, fmt.Errorf("create directory for %s: %w", e.Path, err)
		}
	}
	err := h.srv.conn.Call(ctx, sdk.ClientMethodFsWriteTextFile, sdk.WriteTextFileRequest{SessionId: h.sessionID(), Path: e.Path, Content: e.New}, nil)
	if err == nil {
		return edits.Result{Applied: true}, nil
	}
	if ctx.Err() != nil {
		return edits.Result{}, fmt.Errorf("write %s through the editor: %w", e.Path, ctx.Err())
	}
	if isClientAnswer(err) {
		// The editor answered and refused: the model hears its reason.
		return edits.Result{Reason: "the editor did not write the file: " + clientMessage(err)}, nil
	}
	return edits.Result{}, fmt.Errorf("write %s through the editor: %w", e.Path, err)
}

// isClientAnswer reports whether err is an error response from the client,
// as opposed to the connection failing or the request being cancelled
// (those are Go errors, not *jsonrpc.Error).
func isClientAnswer(err error) bool {
	var re *jsonrpc.Error
	return errors.As(err, &re)
}

// clientMessage is the most specific text in a client's error response.
func clientMessage(err error) string {
	var re *jsonrpc.Error
	if errors.As(err, &re) {
		var m map[string]any
		if raw, ok := re.Data.(json.RawMessage); ok && json.Unmarshal(raw, &m) == nil {
			for _, k := range []string{"message", "error", "details"} {
				if s, ok := m[k].(string); ok && s != "" {
					return re.Message + ": " + s
				}
			}
		}
		return re.Message
	}
	return err.Error()
}
