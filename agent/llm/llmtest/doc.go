// Package llmtest is a scripted fake model server for tests. It speaks the
// wire formats tandem's providers use, over real HTTP on 127.0.0.1:
//
//	POST /v1/messages          Anthropic Messages API, SSE
//	POST /v1/chat/completions  OpenAI Chat Completions, SSE
//	POST /v1/responses         OpenAI Responses API, SSE with typed events
//	POST /v1beta/models/{m}:streamGenerateContent?alt=sse           the Gemini API
//	POST /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:streamGenerateContent?alt=sse
//	POST /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:streamRawPredict  (Vertex AI)
//
// Point an anthropic provider at srv.URL, the OpenAI providers at
// srv.URL+"/v1" and Google's at srv.URL (srv.BaseURL(format) returns the
// right one). ServiceAccount makes a service account key file whose token
// endpoint is a fake that checks its signed JWT.
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
