package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/internal/fileuri"
	"github.com/tandemhq/tandem/internal/pathx"
)

// systemPrompt is the same bytes for every request of a session: provider
// prompt caches key on an unchanged prefix, so nothing here may vary per
// turn (no clock, no mode: the mode shows in which tools are offered).
func (s *Session) systemPrompt() string {
	return fmt.Sprintf(`You are tandem, a coding agent working inside the user's editor.

Workspace root: %s%s
Platform: %s/%s

How to work:
- Use the tools to look before you change anything: read_file, list_files, search_files and list_code_definition_names.
- Paths are relative to the workspace root; nothing outside it can be read or written.
- Change files with edit_file (exact old_string -> new_string) or write_file (whole content). The editor shows each change to the user, who may reject it; when a tool result says a change was rejected, do not retry it unasked.
- run_command runs a shell command in the workspace root; prefer short, non-interactive commands.
- For work of several steps, keep a plan with update_plan and mark steps as you finish them.
- Follow the workspace instructions you are given in <system-reminder> blocks; the user's own words take precedence over them.
- Be concise. When you are done, say briefly what you changed.`, s.root, s.rootsPrompt(), runtime.GOOS, runtime.GOARCH) + s.custom.skillIndex
}

// promptParts turns an editor's prompt into model content. Linked files are
// read through the host, so an unsaved buffer is what the model sees.
func (s *Session) promptParts(ctx context.Context, prompt []ContentBlock) ([]llm.Part, error) {
	var parts []llm.Part
	for _, b := range prompt {
		switch b.Type {
		case "text":
			parts = append(parts, llm.Part{Type: llm.PartText, Text: b.Text})
		case "image":
			if b.Data == "" {
				continue
			}
			parts = append(parts, llm.Image(b.MimeType, b.Data))
		case "resource_link":
			if _, ok := fileURIPath(b.URI); !ok {
				parts = append(parts, llm.Part{Type: llm.PartText, Text: s.mcp.linked(ctx, b)})
				continue
			}
			part, err := s.linkedFile(ctx, b.URI)
			if err != nil {
				return nil, err
			}
			parts = append(parts, part)
		case "resource":
			if b.Resource == nil {
				continue
			}
			name := b.Resource.URI
			if p, ok := fileURIPath(name); ok {
				name = s.display(p)
			}
			if b.Resource.Text != "" || b.Resource.Blob == "" {
				parts = append(parts, llm.Part{Type: llm.PartText, Text: fileBlock(name, b.Resource.Text)})
			} else {
				parts = append(parts, llm.Part{Type: llm.PartText, Text: fmt.Sprintf("[binary resource %s omitted]", name)})
			}
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("the prompt is empty: send at least one text block")
	}
	return parts, nil
}

func fileBlock(name, text string) string {
	return fmt.Sprintf("<file path=%q>\n%s\n</file>", name, text)
}

// display shows path relative to the root when it is inside it.
func (s *Session) display(path string) string {
	if rel, ok := pathx.Within(s.root, path); ok {
		return filepath.ToSlash(rel)
	}
	return path
}

// fileURIPath is the path a file:// URI names (internal/fileuri: Windows
// drives and shares too), ok false for anything else.
func fileURIPath(uri string) (string, bool) {
	p, err := fileuri.ToPath(uri)
	return p, err == nil
}

// partTexts lists the text of parts (text blocks, files, resources).
func partTexts(parts []llm.Part) []string {
	var texts []string
	for _, p := range parts {
		if p.Type == llm.PartText {
			texts = append(texts, p.Text)
		}
	}
	return texts
}

// promptText joins the prompt's text blocks.
func promptText(prompt []ContentBlock) string {
	var b strings.Builder
	for _, c := range prompt {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// slashCommand recognises "/name arg..." as the whole text of a prompt.
func slashCommand(prompt []ContentBlock) (name, arg string, ok bool) {
	if len(prompt) != 1 || prompt[0].Type != "text" {
		return "", "", false
	}
	t := strings.TrimSpace(prompt[0].Text)
	if !strings.HasPrefix(t, "/") {
		return "", "", false
	}
	name, arg, _ = strings.Cut(t[1:], " ")
	return name, strings.TrimSpace(arg), name != ""
}

// refusedError is the user-prompt seam's refusal of a prompt.
type refusedError struct{ error }

// userParts is a prompt as the model sees it: its content, then what the
// user-prompt seam adds. The seam's refusal is a refusedError.
func (t *turnRun) userParts(prompt []ContentBlock) ([]llm.Part, error) {
	s, ctx := t.s, t.ctx
	parts, err := s.promptParts(ctx, prompt)
	if err != nil {
		return nil, err
	}
	extra, err := s.a.cfg.Pipeline.userPrompt(ctx, TurnStartEvent{SessionID: s.id, Prompt: prompt})
	if err != nil {
		return nil, refusedError{err}
	}
	if extra != "" {
		parts = append(parts, llm.Part{Type: llm.PartText, Text: extra})
	}
	t.instr.tr.ClientSent(partTexts(parts))
	return parts, nil
}

// logPrompt logs the user's prompt as one message, where the model sees
// it: the client showed it when it was sent, so it is replayed, not sent.
func (t *turnRun) logPrompt(prompt []ContentBlock) {
	id := newMessageID()
	for _, b := range prompt {
		t.logOnly(Update{Type: UserMessageChunk, Chunk: &b, MessageID: id})
	}
}
