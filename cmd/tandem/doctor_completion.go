package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/completion"
)

// checkCompletion reports the inline-completion configuration: off, where
// requests go and in which FIM format, whether this workspace turned them
// off, and with --online whether the model answers a small request.
func (d *doctor) checkCompletion(ctx context.Context) []finding {
	c := d.cfg.Completion
	if d.cfgErr != nil || !c.Enabled() {
		return []finding{{levelInfo, "completion", "off", `set "completion": {"provider": "ollama", "model": "qwen2.5-coder:1.5b-base"} in config.json, or TANDEM_COMPLETION_PROVIDER and TANDEM_COMPLETION_MODEL`}}
	}
	o := completion.Options{Config: c, InstructionFiles: instructions.DefaultConfig(d.cfg.Home).FileNames()}
	if c.Provider == config.CompletionChat {
		if p, err := newProvider(d.cfg, llm.Transport{}); err == nil && p != nil {
			o.Chat, o.ChatModel = p, d.cfg.Model
		}
	}
	e, err := completion.New(o)
	if err != nil {
		return []finding{{levelFail, "completion", err.Error(), "correct the completion object in config.json"}}
	}
	defer e.Close()
	out := []finding{{levelOK, "completion", e.Describe(), ""}}
	if settings.CompletionsOff(d.dir) {
		out = append(out, finding{levelInfo, "completion here", "turned off in " + d.dir, `"completion": {"enabled": true} in .tandem/settings.local.json turns it on for you`})
	}
	if !d.online {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	// An invented file in no workspace: nothing of the user's is sent.
	_, err = e.Complete(ctx, completion.Request{Doc: filepath.Join(d.cfg.Home, "doctor.py"), Before: "def add(a, b):\n    return ", After: "\n", Invoked: true})
	var pe *llm.Error
	switch {
	case err == nil:
		out = append(out, finding{levelOK, "completion test", fmt.Sprintf("the model answered in %s", time.Since(start).Round(time.Millisecond)), ""})
	case errors.As(err, &pe) && (pe.Status == 401 || pe.Status == 403):
		out = append(out, finding{levelFail, "completion test", fmt.Sprintf("the key was refused (HTTP %d)", pe.Status), "check " + pe.KeyEnv})
	default:
		out = append(out, finding{levelFail, "completion test", err.Error(), "check completion.baseURL, that the server runs and has the model"})
	}
	return out
}
