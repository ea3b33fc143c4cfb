package bedrock

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// sigV4 signs each request it sends, every attempt anew: a retry after a
// Retry-After wait must not carry a stale X-Amz-Date.
type sigV4 struct {
	signer *v4.Signer
	creds  aws.Credentials
	region string
	base   http.RoundTripper
	// accept is the answer's media type: the runtime streams AWS event
	// streams, the control plane's listings are JSON.
	accept string
}

// signingClient returns a client like c whose requests are signed by s.
// c's timeouts and redirect policy are kept; its transport does the
// sending.
func signingClient(c *http.Client, s *sigV4) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	s.base = c.Transport
	if s.base == nil {
		s.base = http.DefaultTransport
	}
	out := *c
	out.Transport = s
	return &out
}

// RoundTrip implements http.RoundTripper. The request is cloned before it
// is changed, as the interface requires.
func (s *sigV4) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	sum := sha256.New()
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return nil, fmt.Errorf("bedrock: reading the body to sign: %w", err)
		}
		_, err = io.Copy(sum, body)
		body.Close()
		if err != nil {
			return nil, fmt.Errorf("bedrock: reading the body to sign: %w", err)
		}
	}
	r.Header.Set("Accept", cmp.Or(s.accept, "application/vnd.amazon.eventstream"))
	r.Header.Del("Authorization")
	if err := s.signer.SignHTTP(r.Context(), s.creds, r, hex.EncodeToString(sum.Sum(nil)), signingName, s.region, time.Now().UTC()); err != nil {
		return nil, fmt.Errorf("bedrock: signing the request: %w", err)
	}
	return s.base.RoundTrip(r)
}
