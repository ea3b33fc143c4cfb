// Package redact is tandem's one redactor: every string that leaves the
// process on the agent's behalf — editor updates, session files, tool
// results shown to the model, errors, logs — passes a Redactor, and the
// environment handed to child processes is filtered by the same notion of
// what a secret is.
//
// A Redactor knows two kinds of secret. Known values (the configured
// provider keys and the values of secret-looking variables in tandem's
// environment) are hidden everywhere, in their common encodings too (URL
// and JSON escapes, base64, a Bearer or Basic header). Patterns (the shapes
// of well-known token formats, private key blocks, passwords in URLs) are
// hidden only in text tandem itself produces — logs and errors — because a
// workspace file may hold a test fixture that looks like a token, and
// masking it in a read would make the model write the mask back.
//
// The package never logs, never stores what it hides anywhere but in
// memory, and never decides what may run.
package redact
