// Package llmtest is a scripted fake model server for tests. It speaks the
// wire formats tandem's providers use, over real HTTP on 127.0.0.1:
//
//	POST /v1/messages          Anthropic Messages API, SSE
//	POST /v1/chat/completions  OpenAI Chat Completions, SSE
//	POST /v1/responses         OpenAI Responses API, SSE with typed events
//
// Point an anthropic provider at srv.URL and the OpenAI providers at
// srv.URL+"/v1" (srv.BaseURL(format) returns the right one).
//
// Replies come from a FIFO queue (Enqueue), then from a function of the
// request (Handle). Every request is recorded with its raw body and a
// provider-neutral view (Requests). A Reply can script text, reasoning,
// tool calls split into deltas, stop reason, usage, HTTP errors repeated N
// times, a stream cut mid-JSON, a hang until the client cancels, and
// per-chunk delays. RunProviderTests is the conformance suite every
// llm.Provider runs against it.
//
// It is test support only: production code must never import it.
package llmtest
