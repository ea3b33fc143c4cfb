package plugin

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// The host calls that act on the session: a file restored through the
// editor, and the conversation's markers and rewind.

// applyEdit is host/applyEdit: the plugin's file permission decides the
// path; the editor applies the change as its own edit.
func (i *instance) applyEdit(ctx context.Context, p sdk.ApplyEditParams) (sdk.ApplyEditResult, error) {
	if len(p.Content) > maxHostFile {
		return sdk.ApplyEditResult{}, fmt.Errorf("content is larger than %d bytes", maxHostFile)
	}
	root, _, err := i.scoped(p.Path, true)
	if err != nil {
		return sdk.ApplyEditResult{}, err
	}
	root.Close()
	path := p.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(i.sess.root, path)
	}
	label := p.Label
	if label == "" {
		label = i.name() + ": " + filepath.Base(path)
	}
	res, err := i.sess.s.RestoreFile(ctx, filepath.Clean(path), p.Content, p.Delete, p.Expect, label)
	return sdk.ApplyEditResult{Applied: res.Applied, Reason: res.Reason}, err
}

// permitted refuses a session call the plugin's permissions do not cover.
func permitted(granted bool, method, permission string) error {
	if granted {
		return nil
	}
	return &jsonrpc.Error{Code: sdk.CodeDenied, Message: fmt.Sprintf("%v: %s needs permissions.%s", errDenied, method, permission)}
}

func (i *instance) deliver(ctx context.Context, p sdk.DeliverParams) (struct{}, error) {
	if err := permitted(i.st.Manifest.Permissions.Agent, sdk.HostDeliver, "agent"); err != nil {
		return struct{}{}, err
	}
	if len(p.Text) > maxHostFile {
		return struct{}{}, fmt.Errorf("the message is larger than %d bytes", maxHostFile)
	}
	return struct{}{}, i.sess.s.Deliver(ctx, p.Text)
}

func (i *instance) marker(ctx context.Context, p sdk.MarkerParams) (struct{}, error) {
	if err := permitted(i.st.Manifest.Permissions.Task, sdk.HostMarker, "task"); err != nil {
		return struct{}{}, err
	}
	if p.Name == "" {
		return struct{}{}, jsonrpc.InvalidParams("name is empty")
	}
	// Plugins' markers never collide with each other's.
	return struct{}{}, i.sess.s.Mark(ctx, i.name()+":"+p.Name)
}

func (i *instance) rewind(ctx context.Context, p sdk.RewindParams) (struct{}, error) {
	if err := permitted(i.st.Manifest.Permissions.Task, sdk.HostRewind, "task"); err != nil {
		return struct{}{}, err
	}
	_, err := i.sess.s.Rewind(ctx, i.name()+":"+p.Marker)
	return struct{}{}, err
}

// timelineRewind tells the session's plugins the conversation went back;
// the marker is named as its plugin wrote it, with the plugin's prefix.
func (r *Runtime) timelineRewind(ctx context.Context, e agent.TimelineRewindEvent) {
	if ss := r.lookup(e.SessionID); ss != nil {
		ss.observe(ctx, sdk.HookTimelineRewind, sdk.TimelineRewindParams{SessionID: e.SessionID, Marker: e.Marker, Removed: e.Removed})
	}
}
