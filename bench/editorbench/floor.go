package main

// floorSource is the floor: the least a program can do to serve the same
// exchanges as tandem over stdio. It answers initialize, session/new and
// session/set_mode, and for session/prompt reads the fake model's SSE
// (OpenAI or Anthropic, FLOOR_WIRE) with encoding/json, writes one
// session/update per text chunk and per tool call (start and end), does a
// tool call's file work itself (read_file reads, edit_file replaces and
// writes a temporary file renamed over the old one) and sends the results
// back, until the model ends the turn. The bench builds it as tandem is
// built, so its start-up is the floor of tandem's too.
const floorSource = `package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

type msg struct {
	ID     json.RawMessage ` + "`json:\"id\"`" + `
	Method string          ` + "`json:\"method\"`" + `
	Params struct {
		Cwd    string ` + "`json:\"cwd\"`" + `
		Prompt []struct {
			Text string ` + "`json:\"text\"`" + `
		} ` + "`json:\"prompt\"`" + `
	} ` + "`json:\"params\"`" + `
}

var (
	out  = bufio.NewWriterSize(os.Stdout, 64<<10)
	wire = os.Getenv("FLOOR_WIRE")
	base = os.Getenv("FLOOR_URL")
	cwd  string
)

func write(v any) {
	b, _ := json.Marshal(v)
	out.Write(b)
	out.WriteByte('\n')
	out.Flush()
}

func answer(id json.RawMessage, result any) {
	write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func update(u any) {
	write(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
}

type call struct{ id, name, args string }

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var history []any
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m msg
		if json.Unmarshal(line, &m) != nil || m.Method == "" {
			continue
		}
		switch m.Method {
		case "initialize":
			answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}})
		case "session/new":
			cwd = m.Params.Cwd
			answer(m.ID, map[string]any{"sessionId": "s1"})
		case "session/set_mode":
			answer(m.ID, map[string]any{})
		case "session/prompt":
			text := ""
			for _, p := range m.Params.Prompt {
				text += p.Text
			}
			history = append(history, map[string]any{"role": "user", "content": text})
			history = turn(history)
			answer(m.ID, map[string]any{"stopReason": "end_turn"})
		}
	}
}

// turn runs requests until the model stops asking for tools.
func turn(history []any) []any {
	for {
		text, calls := request(history)
		if len(calls) == 0 {
			if wire == "anthropic" {
				return append(history, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}})
			}
			return append(history, map[string]any{"role": "assistant", "content": text})
		}
		var results []string
		for _, c := range calls {
			update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": c.id, "title": c.name, "status": "in_progress"})
			r := work(c)
			update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": c.id, "status": "completed", "content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": r}}}})
			results = append(results, r)
		}
		if wire == "anthropic" {
			var uses, res []any
			for i, c := range calls {
				uses = append(uses, map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": json.RawMessage(c.args)})
				res = append(res, map[string]any{"type": "tool_result", "tool_use_id": c.id, "content": results[i]})
			}
			history = append(history, map[string]any{"role": "assistant", "content": uses}, map[string]any{"role": "user", "content": res})
			continue
		}
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		history = append(history, map[string]any{"role": "assistant", "content": nil, "tool_calls": tcs})
		for i, c := range calls {
			history = append(history, map[string]any{"role": "tool", "tool_call_id": c.id, "content": results[i]})
		}
	}
}

// work does a tool call's file work, as tandem's read_file and edit_file do.
func work(c call) string {
	var a struct {
		Path string ` + "`json:\"path\"`" + `
		Old  string ` + "`json:\"old_string\"`" + `
		New  string ` + "`json:\"new_string\"`" + `
	}
	json.Unmarshal([]byte(c.args), &a)
	path := filepath.Join(cwd, a.Path)
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if c.name != "edit_file" {
		return string(b)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Replace(string(b), a.Old, a.New, 1)), 0o644); err != nil {
		return err.Error()
	}
	if err := os.Rename(tmp, path); err != nil {
		return err.Error()
	}
	return "edited " + a.Path
}

// request sends one streamed request and returns the reply's text and tool
// calls, writing each text chunk as it arrives.
func request(history []any) (string, []call) {
	body := map[string]any{"model": "m", "stream": true, "messages": history}
	url := base + "/chat/completions"
	if wire == "anthropic" {
		body["max_tokens"] = 1024
		url = base + "/v1/messages"
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("x-api-key", "k")
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		return "", nil
	}
	defer resp.Body.Close()
	sc := bufio.NewReaderSize(resp.Body, 64<<10)
	var text strings.Builder
	var calls []call
	for {
		line, err := sc.ReadBytes('\n')
		if err == io.EOF || err != nil {
			break
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			break
		}
		var ev struct {
			Type    string ` + "`json:\"type\"`" + `
			Choices []struct {
				Delta struct {
					Content   string ` + "`json:\"content\"`" + `
					ToolCalls []struct {
						Index    int    ` + "`json:\"index\"`" + `
						ID       string ` + "`json:\"id\"`" + `
						Function struct {
							Name      string ` + "`json:\"name\"`" + `
							Arguments string ` + "`json:\"arguments\"`" + `
						} ` + "`json:\"function\"`" + `
					} ` + "`json:\"tool_calls\"`" + `
				} ` + "`json:\"delta\"`" + `
			} ` + "`json:\"choices\"`" + `
			ContentBlock struct {
				Type string ` + "`json:\"type\"`" + `
				ID   string ` + "`json:\"id\"`" + `
				Name string ` + "`json:\"name\"`" + `
			} ` + "`json:\"content_block\"`" + `
			Delta struct {
				Type        string ` + "`json:\"type\"`" + `
				Text        string ` + "`json:\"text\"`" + `
				PartialJSON string ` + "`json:\"partial_json\"`" + `
			} ` + "`json:\"delta\"`" + `
		}
		if json.Unmarshal(data, &ev) != nil {
			continue
		}
		chunk := ""
		if wire == "anthropic" {
			switch {
			case ev.Type == "content_block_start" && ev.ContentBlock.Type == "tool_use":
				calls = append(calls, call{id: ev.ContentBlock.ID, name: ev.ContentBlock.Name})
			case ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta":
				chunk = ev.Delta.Text
			case ev.Type == "content_block_delta" && ev.Delta.Type == "input_json_delta" && len(calls) > 0:
				calls[len(calls)-1].args += ev.Delta.PartialJSON
			case ev.Type == "message_stop":
				return text.String(), calls
			}
		} else if len(ev.Choices) > 0 {
			d := ev.Choices[0].Delta
			chunk = d.Content
			for _, tc := range d.ToolCalls {
				for len(calls) <= tc.Index {
					calls = append(calls, call{})
				}
				c := &calls[tc.Index]
				if tc.ID != "" {
					c.id = tc.ID
				}
				if tc.Function.Name != "" {
					c.name = tc.Function.Name
				}
				c.args += tc.Function.Arguments
			}
		}
		if chunk != "" {
			text.WriteString(chunk)
			update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": chunk}})
		}
	}
	return text.String(), calls
}
`
