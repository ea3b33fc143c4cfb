// Command mkrelease builds tandem's release into dist/ (`make release`):
// see package release.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tandemhq/tandem/internal/release"
)

func main() {
	version := flag.String("version", "", "the release version, x.y.z (default: the v-tag at HEAD)")
	out := flag.String("out", "dist", "the directory to write (emptied first)")
	platforms := flag.String("platforms", "", "comma-separated platforms to build (default all)")
	baseURL := flag.String("base-url", "", "where the archives are downloaded from (default the GitHub release of the version)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *version, *out, *platforms, *baseURL); err != nil {
		fmt.Fprintln(os.Stderr, "mkrelease:", err)
		os.Exit(1)
	}
}

var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

func run(ctx context.Context, version, out, platforms, baseURL string) error {
	git := func(args ...string) (string, error) {
		b, err := exec.CommandContext(ctx, "git", args...).Output()
		return strings.TrimSpace(string(b)), err
	}
	if version == "" {
		tag, err := git("describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD")
		if err != nil {
			return fmt.Errorf("HEAD has no vX.Y.Z tag: tag it or pass -version (make release VERSION=x.y.z)")
		}
		version = strings.TrimPrefix(tag, "v")
	}
	if !semver.MatchString(version) {
		// npm, the VS Code Marketplace and the ACP Registry all want x.y.z.
		return fmt.Errorf("version %q is not x.y.z", version)
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("git rev-parse HEAD: %w", err)
	}
	// SOURCE_DATE_EPOCH when set, else the commit's time: the same commit
	// releases to the same bytes.
	epoch := os.Getenv("SOURCE_DATE_EPOCH")
	if epoch == "" {
		if epoch, err = git("log", "-1", "--format=%ct", "HEAD"); err != nil {
			return fmt.Errorf("git log: %w", err)
		}
	}
	secs, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return fmt.Errorf("SOURCE_DATE_EPOCH %q: %w", epoch, err)
	}
	root, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	if baseURL == "" {
		baseURL = "https://github.com/tandemhq/tandem/releases/download/v" + version
	}
	var list []string
	if platforms != "" {
		list = strings.Split(platforms, ",")
	}
	return release.Release(ctx, release.Options{Root: root, Out: out, Version: version, Commit: commit,
		Epoch: time.Unix(secs, 0).UTC(), BaseURL: baseURL, Platforms: list, Log: os.Stderr})
}
