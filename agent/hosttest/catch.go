package hosttest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
)

// CatchToolName is the name of the tool Catch returns; a scripted model
// calls it to hand the session's host to the test.
const CatchToolName = "hosttest_catch_host"

// Catch returns a tool that sends the Host of the session running it on
// the channel. A front door's test gives it to the agent (Config.ExtraTools),
// has the fake model call it, and so gets the very host the front door
// built, reached through its public entry point rather than its internals.
func Catch() (tools.Tool, <-chan tools.Host) {
	ch := make(chan tools.Host, 1)
	return catchTool{ch}, ch
}

type catchTool struct{ ch chan tools.Host }

func (catchTool) Info() tools.Info {
	return tools.Info{Name: CatchToolName, Group: tools.GroupPlan, Kind: tools.KindOther,
		Description: "Hands the session's host to the test.", Schema: json.RawMessage(`{"type":"object","properties":{}}`)}
}

func (catchTool) Describe(string, json.RawMessage) tools.Preview {
	return tools.Preview{Title: "catch the host"}
}

func (c catchTool) Run(_ context.Context, env *tools.Env, _ json.RawMessage) (tools.Result, error) {
	select {
	case c.ch <- env.Host:
	default: // caught already
	}
	return tools.Result{Output: "caught"}, nil
}

// CatchingAgent returns an agent whose fake model, on the first prompt,
// calls the Catch tool and ends the turn; the channel then holds the host
// the front door gave that session.
func CatchingAgent(t *testing.T) (*agent.Agent, <-chan tools.Host) {
	t.Helper()
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: CatchToolName, Args: "{}"}}}, llmtest.Reply{Text: []string{"caught"}})
	tool, ch := Catch()
	a := agent.New(agent.Config{
		Provider:   anthropic.New(anthropic.Options{APIKey: "test", BaseURL: model.BaseURL(llmtest.Anthropic)}),
		Model:      "test-model",
		ExtraTools: []tools.Tool{tool},
	})
	return a, ch
}

// Caught waits for the host the Catch tool sends.
func Caught(t *testing.T, ch <-chan tools.Host) tools.Host {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(20 * time.Second):
		t.Fatal("hosttest: the session never ran the catch tool")
		return nil
	}
}
