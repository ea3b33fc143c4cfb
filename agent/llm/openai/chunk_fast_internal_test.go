package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSeeds are chunks as servers send them, and the edges where the
// fast path must either decode as encoding/json does or give up.
var chunkSeeds = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4.1","system_fingerprint":"fp","obfuscation":"xyz","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"think"},"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"reasoning":"r"}}]}`,
	`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}`,
	`{"choices":[{"index":1,"delta":{"content":"other"}}]}`,
	` { "choices" : [ { "index" : 0 , "delta" : { "content" : "spaced" } } ] } `,
	`{"choices":[{"index":0,"delta":{"content":"naïve ünïcödé 日本"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"esc \"q\" \n \u00e9 \ud83d\ude00"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"bad \xff utf8"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a"},"Delta":{"content":"b"}}]}`,
	`{"Choices":[{"index":0,"delta":{"content":"case"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":null,"content":"x"}}]}`,
	`{"choices":null}`,
	`{"choices":[null]}`,
	`{"choices":[{"index":1.5,"delta":{"content":"x"}}]}`,
	`{"choices":[{"index":-1,"delta":{"content":"x"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":5}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}}],"error":null}`,
	`{"error":{"message":"boom"}}`,
	`{"error":"boom"}`,
	`{"x":[1,-2.5e3,true,false,null,{"y":"\u0041"}],"choices":[]}`,
	`{"x":01}`,
	`{"x":1.}`,
	`{"choices":[]} x`,
	`{"choices":[],}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}},]}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}}]`,
	`null`,
	`[]`,
	`{"ſhoices":[]}`,
	`{"x":"\q"}`,
	"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ctl\x01\"}}]}",
	`{"choices":[{"index":0,"finish_reason":"length","delta":null}]}`,
	`{"choices":[{"index":00,"delta":{"content":"x"}}]}`,
	`{"choices":[{"index":1234567890123,"delta":{"content":"x"}}]}`,
}

// TestFastChunkAgreesWithJSON: wherever the fast path decodes a chunk, it
// decodes what encoding/json does.
func TestFastChunkAgreesWithJSON(t *testing.T) {
	decoded := 0
	for _, s := range chunkSeeds {
		if agree(t, []byte(s)) {
			decoded++
		}
	}
	if decoded < 10 {
		t.Errorf("the fast path decoded only %d of the chunks servers send", decoded)
	}
}

func FuzzFastChunk(f *testing.F) {
	for _, s := range chunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agree(t, b) })
}

// agree checks the fast path against encoding/json on b and reports
// whether the fast path took it.
func agree(t *testing.T, b []byte) bool {
	t.Helper()
	var fast, slow wireChunk
	if !fastChunk(b, &fast) {
		return false
	}
	if err := json.Unmarshal(b, &slow); err != nil {
		t.Errorf("fast path decoded %q, which encoding/json refuses: %v", b, err)
		return true
	}
	if len(slow.Error) > 0 && string(slow.Error) != "null" {
		t.Errorf("fast path decoded %q, which carries an error", b)
	}
	slow.Error = nil
	if len(fast.Choices) == 0 && len(slow.Choices) == 0 {
		fast.Choices, slow.Choices = nil, nil // empty or null: the same to the stream
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%q: fast path %+v, encoding/json %+v", b, fast, slow)
	}
	return true
}
