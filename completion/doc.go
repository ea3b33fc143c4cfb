// Package completion serves inline completions (ghost text): it turns the
// text around the cursor, a budgeted context (signatures from the code
// index, snippets of the other open buffers, optionally the workspace's
// instructions) and the user's completion configuration into one
// fill-in-the-middle request, streams the answer, stops it early, and
// caches it so that typing into a suggestion narrows it without another
// request.
//
// The wires it speaks (wire_*.go): Ollama's /api/generate with suffix (or
// raw, with the model family's own FIM tokens, when the family is known;
// Ollama ignores suffix in raw mode and applies the model's template
// otherwise), llama.cpp's /infill, OpenAI-compatible /v1/completions with
// suffix (or a raw FIM prompt for a known open model), Mistral's Codestral
// /v1/fim/completions, DeepSeek's FIM beta /beta/completions, and any chat
// provider (llm.Provider) asked for the middle only. HTTP, retries, error
// kinds and credentials are agent/llm's and agent/config's.
//
// An Engine holds per-document state only: at most one model request in
// flight per document, a request superseded by a newer one for the same
// document answered empty at once, and a few cached suggestions. It never
// sends a protected, secret-looking or ignored file (Excluded), never logs
// file contents, and sends no telemetry. Front doors (lsp/) translate their
// protocol into Request and call Complete; they hold no completion logic.
package completion
