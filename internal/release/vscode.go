package release

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// writeVSCode packages editors/vscode once per target with that target's
// binary in bin/ (vsce package --target), and once without a binary
// (universal: the extension then runs tandem from PATH). The bundle is
// built with the extension's own npm scripts and locked dependencies.
func writeVSCode(ctx context.Context, dir string, o Options, targets []Target, bins map[string]string) error {
	// The bundle is built in a copy of the sources from the lock file, so a
	// release never depends on (or races with) the checkout's node_modules.
	src := filepath.Join(dir, "build")
	if err := copyTree(filepath.Join(o.Root, "editors", "vscode"), src); err != nil {
		return err
	}
	npm := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "npm", args...)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("npm %v: %w\n%s", args, err, out)
		}
		return nil
	}
	if err := npm("ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
		return err
	}
	if err := npm("run", "build"); err != nil {
		return err
	}
	stage := filepath.Join(dir, "stage")
	if err := stageExtension(src, stage, o.Version); err != nil {
		return err
	}
	vsce := filepath.Join(src, "node_modules", ".bin", "vsce")
	pack := func(out string, args ...string) error {
		cmd := exec.CommandContext(ctx, vsce, append([]string{"package", "--no-dependencies", "--skip-license", "--out", out}, args...)...)
		cmd.Dir = stage
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("vsce package %v: %w\n%s", args, err, b)
		}
		return nil
	}
	for _, t := range targets {
		b, err := os.ReadFile(bins[t.Platform])
		if err != nil {
			return err
		}
		binDir := filepath.Join(stage, "bin")
		if err := os.MkdirAll(binDir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(binDir, t.Exe()), b, 0o755); err != nil {
			return err
		}
		err = pack(filepath.Join(dir, VSIX(o.Version, t.VSCode)), "--target", t.VSCode)
		if rmErr := os.RemoveAll(binDir); err == nil {
			err = rmErr
		}
		if err != nil {
			return err
		}
	}
	if err := pack(filepath.Join(dir, VSIX(o.Version, ""))); err != nil {
		return err
	}
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	return os.RemoveAll(src)
}

// copyTree copies the extension's sources: everything but what a build
// or an install leaves (node_modules, out, dist, bin, packages).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && (rel == "node_modules" || rel == "out" || rel == "dist" || rel == "bin"):
			return filepath.SkipDir
		case d.IsDir() || strings.HasSuffix(rel, ".vsix"):
			return nil
		}
		return copyFile(p, filepath.Join(to, rel))
	})
}

// VSIX is the extension package's file name; target "" is the universal
// one.
func VSIX(version, target string) string {
	if target == "" {
		return "tandem-vscode-" + version + ".vsix"
	}
	return "tandem-vscode-" + version + "-" + target + ".vsix"
}

// stageExtension copies what the .vsix holds (.vscodeignore says) into
// stage, with the release's version in package.json.
func stageExtension(src, stage, version string) error {
	for _, rel := range []string{".vscodeignore", "README.md", filepath.Join("dist", "extension.js")} {
		if err := copyFile(filepath.Join(src, rel), filepath.Join(stage, rel)); err != nil {
			return err
		}
	}
	media, err := os.ReadDir(filepath.Join(src, "media"))
	if err != nil {
		return err
	}
	for _, e := range media {
		if err := copyFile(filepath.Join(src, "media", e.Name()), filepath.Join(stage, "media", e.Name())); err != nil {
			return err
		}
	}
	b, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return err
	}
	var manifest map[string]any
	if err := json.Unmarshal(b, &manifest); err != nil {
		return fmt.Errorf("editors/vscode/package.json: %w", err)
	}
	manifest["version"] = version
	delete(manifest, "scripts") // vsce would run vscode:prepublish; the bundle is built
	delete(manifest, "devDependencies")
	out, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(stage, "package.json"), append(out, '\n'), 0o644)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
