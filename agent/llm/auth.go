package llm

import (
	"context"
	"errors"
	"net/http"
)

// Auth sets a request's credential on h, for providers whose credential
// is not a fixed Bearer key (Azure's api-key header, an Entra ID token
// fetched and refreshed as it expires). It returns the secret it sent, for
// Post to scrub from what the server answers; an error is the credential
// failing, reported before anything is sent.
type Auth func(ctx context.Context, h http.Header) (secret string, err error)

// BearerAuth sends key as a Bearer token, or nothing when key is empty
// (local servers need none).
func BearerAuth(key string) Auth {
	return func(_ context.Context, h http.Header) (string, error) {
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
		return key, nil
	}
}

// Named sets provider as the Provider of the *Error in err's chain, for a
// wire package serving under another name (Azure's OpenAI wires): a
// stream's errors are made where the name is not known.
func Named(err error, provider string) error {
	var e *Error
	if errors.As(err, &e) {
		e.Provider = provider
	}
	return err
}
