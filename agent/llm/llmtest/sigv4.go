package llmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// The AWS credentials the fake Bedrock accepts: AWSAccessKeyID with
// AWSSecretKey (the conformance suite's key). A session token, when sent,
// is part of the signature like any signed header.
const (
	AWSAccessKeyID = "AKIALLMTEST000000000"
	AWSSecretKey   = suiteKey
	AWSRegion      = "us-east-1"
)

// checkSigV4 verifies a Bedrock request's signature the way the service
// does: it signs the same request again with the AWS SDK's own signer
// (the headers the client signed, its X-Amz-Date, the body's hash) and
// compares. A bad or missing signature gets Bedrock's 403 answer.
func (s *Server) checkSigV4(w http.ResponseWriter, r *http.Request, body []byte) bool {
	fail := func(msg string) bool {
		w.Header().Set("X-Amzn-Errortype", "InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write(mustJSON(map[string]string{"message": msg}))
		return false
	}
	auth := r.Header.Get("Authorization")
	fields := map[string]string{}
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return fail("Authorization header requires 'AWS4-HMAC-SHA256' signature.")
	}
	for _, f := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[3] != "bedrock" || scope[4] != "aws4_request" {
		return fail("Credential should be scoped to a valid region and service 'bedrock'.")
	}
	if scope[0] != AWSAccessKeyID {
		return fail("The security token included in the request is invalid.")
	}
	when, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return fail("missing or malformed X-Amz-Date")
	}
	// The request again, with only what the client signed.
	again, err := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	if err != nil {
		return fail(err.Error())
	}
	for _, h := range strings.Split(fields["SignedHeaders"], ";") {
		switch h {
		case "host":
		case "content-length":
			again.ContentLength = r.ContentLength
		default:
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: AWSAccessKeyID, SecretAccessKey: AWSSecretKey, SessionToken: r.Header.Get("X-Amz-Security-Token")}
	if err := v4.NewSigner().SignHTTP(r.Context(), creds, again, hex.EncodeToString(sum[:]), "bedrock", scope[2], when); err != nil {
		return fail(err.Error())
	}
	if again.Header.Get("Authorization") != auth {
		return fail("The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.")
	}
	return true
}

// bedrockException is the exception Bedrock names for an HTTP status.
func bedrockException(status int) string {
	switch {
	case status == 400:
		return "ValidationException"
	case status == 401 || status == 403:
		return "AccessDeniedException"
	case status == 408:
		return "ModelTimeoutException"
	case status == 429:
		return "ThrottlingException"
	case status == 503:
		return "ServiceUnavailableException"
	case status >= 500:
		return "InternalServerException"
	}
	return "ValidationException"
}
