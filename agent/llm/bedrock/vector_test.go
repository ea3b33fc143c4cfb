package bedrock_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// The signer the provider and the fake both use reproduces the worked
// example of AWS's Signature Version 4 documentation (IAM ListUsers,
// 2015-08-30), so the fake's check is not the signer agreeing with itself.
func TestSignerMatchesAWSExample(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08", nil)
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	when, _ := time.Parse("20060102T150405Z", "20150830T123600Z")
	empty := sha256.Sum256(nil)
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, r, hex.EncodeToString(empty[:]), "iam", "us-east-1", when); err != nil {
		t.Fatal(err)
	}
	const want = "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
	if got := r.Header.Get("Authorization"); !strings.HasSuffix(got, want) {
		t.Errorf("Authorization = %q, want it to end %s", got, want)
	}
}
