package release

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// launcher is the npm package's bin: it finds the platform package npm
// installed (the others' os/cpu did not match) and runs its binary.
//
//go:embed launcher.js
var launcher []byte

// writeNPM writes the launcher package and one package per platform under
// dir, each also packed with `npm pack` into dir/*.tgz, ready for
// `npm publish <tgz>`.
func writeNPM(ctx context.Context, dir string, o Options, targets []Target, bins map[string]string, docs []string) error {
	optional := map[string]string{}
	for _, t := range targets {
		name := NPMName + "-" + t.NPMOS + "-" + t.NPMCPU
		optional[name] = o.Version
		pkg := filepath.Join(dir, "tandem-"+t.NPMOS+"-"+t.NPMCPU)
		manifest := map[string]any{
			"name": name, "version": o.Version, "description": "The tandem binary for " + t.Platform + " (installed by " + NPMName + ")",
			"repository": repository, "os": []string{t.NPMOS}, "cpu": []string{t.NPMCPU},
			"files": []string{"bin"}, "preferUnplugged": true,
		}
		if err := writePackage(pkg, manifest, docs); err != nil {
			return err
		}
		b, err := os.ReadFile(bins[t.Platform])
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pkg, "bin", t.Exe()), b, 0o755); err != nil {
			return err
		}
	}
	main := filepath.Join(dir, "tandem")
	manifest := map[string]any{
		"name": NPMName, "version": o.Version, "description": description, "repository": repository,
		"bin": map[string]string{"tandem": "bin/tandem.js"}, "files": []string{"bin"},
		"optionalDependencies": optional, "engines": map[string]string{"node": ">=18"},
	}
	if err := writePackage(main, manifest, docs); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(main, "bin"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(main, "bin", "tandem.js"), launcher, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", dir, filepath.Join(dir, e.Name()))
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("npm pack %s: %w\n%s", e.Name(), err, out)
		}
	}
	return nil
}

// writePackage writes dir/package.json and the docs (npm adds README and
// LICENSE to a package whatever its files say).
func writePackage(dir string, manifest map[string]any, docs []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(d)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
