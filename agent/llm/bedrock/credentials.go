package bedrock

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
)

// Chain resolves the AWS SDK's default configuration: the credential
// chain (environment, ~/.aws/credentials and config profiles, SSO, web
// identity, container and instance roles) and the region. profile and
// region, when set, win over the environment's and the shared files'.
// Credentials are only retrieved when a request needs them (and refreshed
// as they expire), so a slow or absent source costs nothing here.
func Chain(ctx context.Context, profile, region string) (aws.CredentialsProvider, string, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(profile))
	}
	if region != "" {
		opts = append(opts, awsconfig.WithRegion(region))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("bedrock: loading the AWS configuration: %w", err)
	}
	return cfg.Credentials, cfg.Region, nil
}
