package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Configured headers (credentials, usually) go with every request, over
// both HTTP transports; the server here is the SDK's own, over real HTTP.
func TestHTTPHeadersSent(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "inproc", Version: "1"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "shout", Description: "upper-cases text"},
		func(_ context.Context, _ *sdk.CallToolRequest, a args) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
		})
	for _, tc := range []struct {
		typ     Type
		handler http.Handler
	}{
		{TypeHTTP, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)},
		{TypeSSE, sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return server }, nil)},
	} {
		t.Run(string(tc.typ), func(t *testing.T) {
			var mu sync.Mutex
			var seen, missing int
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				if r.Header.Get("Authorization") == "Bearer s3cret" && r.Header.Get("X-Team") == "tandem" {
					seen++
				} else {
					missing++
				}
				mu.Unlock()
				tc.handler.ServeHTTP(w, r)
			}))
			defer ts.Close()
			srv := Server{Name: "inproc", Type: tc.typ, URL: ts.URL,
				Headers: []NameValue{{"Authorization", "Bearer s3cret"}, {"X-Team", "tandem"}}}
			m, rec := start(t, Options{Servers: []Server{srv}})
			waitReady(t, m, 10*time.Second)
			rec.wait(t, "shout", 5*time.Second, func(r *recorder) bool { return r.tools["mcp__inproc__shout"] != nil })
			if res := run(t, rec.tool(t, "mcp__inproc__shout"), `{"text":"hey"}`); res.Output != "HEY" {
				t.Errorf("shout = %+v", res)
			}
			m.Close()
			mu.Lock()
			defer mu.Unlock()
			if seen < 2 || missing != 0 {
				t.Errorf("%d requests carried the headers, %d did not", seen, missing)
			}
		})
	}
}
