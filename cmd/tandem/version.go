package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// version, commit and date are stamped by the release build
// (internal/release: -ldflags "-X main.version=1.2.3 -X main.commit=<sha>
// -X main.date=<RFC 3339>"). A plain `go build` leaves them empty and the
// build info fills them in: Go records the module version (a pseudo-version
// in a git checkout) and the VCS revision, its time and whether the tree
// was modified.
var version, commit, date string

// buildInfo is what this binary knows of its own build.
type buildInfo struct {
	// Version is the stamped release version, else the module version Go
	// recorded (vX.Y.Z from `go install …@vX.Y.Z`, a pseudo-version from a
	// checkout), else "dev".
	Version string
	// Release is true when Version names a release, not a development
	// build: plugins' tandemVersion ranges are checked only then.
	Release  bool
	Commit   string
	Modified bool
	// Date is the stamped build date, else the commit's time: a plain
	// build records no build date, and a reproducible one is dated by its
	// commit anyway (SOURCE_DATE_EPOCH).
	Date string
	Go   string // the toolchain and the target, "go1.26.0 linux/amd64"
}

// pseudoVersion matches the date-and-revision part Go puts in a version it
// derived from an untagged commit (v0.0.0-20261204185831-a19bc7e12345).
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)

var currentBuild = sync.OnceValue(func() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return readBuild(bi, version, commit, date)
})

// readBuild combines the link-time stamps with the build info; a stamp
// wins over what the build info says.
func readBuild(bi *debug.BuildInfo, version, commit, date string) buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	b.Release = version != ""
	if bi != nil {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
			b.Release = !pseudoVersion.MatchString(b.Version) && !strings.Contains(b.Version, "+dirty")
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true" && commit == ""
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	if t, err := time.Parse(time.RFC3339, b.Date); err == nil {
		b.Date = t.UTC().Format(time.RFC3339)
	}
	return b
}

// PluginVersion is the version plugins' tandemVersion ranges are held to:
// "dev" (never checked) unless this is a release.
func (b buildInfo) PluginVersion() string {
	if !b.Release {
		return "dev"
	}
	return strings.TrimPrefix(b.Version, "v")
}

// String is `tandem version`'s output: the version on the first line, then
// one line each for what is known of the build.
func (b buildInfo) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "tandem %s\n", b.Version)
	if b.Commit != "" {
		c := b.Commit
		if b.Modified {
			c += " (modified)"
		}
		fmt.Fprintf(&s, "commit  %s\n", c)
	}
	if b.Date != "" {
		fmt.Fprintf(&s, "date    %s\n", b.Date)
	}
	fmt.Fprintf(&s, "go      %s\n", b.Go)
	return s.String()
}
