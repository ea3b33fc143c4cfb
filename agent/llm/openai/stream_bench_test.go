package openai

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// BenchmarkReadStream is the decoding a streamed text chunk costs (the
// bench/editor.sh stream scenario measures it with everything around).
func BenchmarkReadStream(b *testing.B) {
	var body bytes.Buffer
	const chunks = 1000
	for range chunks {
		fmt.Fprintf(&body, "data: %s\n\n", `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4.1","system_fingerprint":"fp_llmtest","obfuscation":"xyz","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`)
	}
	body.WriteString("data: [DONE]\n\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readStream(context.Background(), nil, bytes.NewReader(body.Bytes()), func(llm.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
}
