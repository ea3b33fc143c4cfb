package anthropic

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// A long reply is gathered at a cost proportional to its length: joining
// each delta onto the block's text copied the whole reply per delta, some
// 800 MB for 20,000 chunks (half of tandem's CPU streaming one).
func TestReadStreamGathersTextLinearly(t *testing.T) {
	const chunks = 20000
	var b strings.Builder
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	for range chunks {
		b.WriteString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"tok \"}}\n\n")
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":5}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	body := b.String()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := readStream(context.Background(), nil, "anthropic", strings.NewReader(body), func(llm.Event) {})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(100*len(body)); got > limit {
		t.Errorf("reading %d deltas (%d bytes) allocated %d bytes, over %d", chunks, len(body), got, limit)
	}
	if c := resp.Message.Content; len(c) != 1 || c[0].Text != strings.Repeat("tok ", chunks) {
		t.Fatalf("the reply was not gathered whole: %d parts", len(c))
	}
}
