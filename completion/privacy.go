package completion

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/settings"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/filelist"
	"github.com/tandemhq/tandem/internal/pathx"
)

// Excluded reports whether the file at abs must never leave the machine
// as completion context, nor be completed at all: a protected path
// (tools.Protected: version control, tandem's and editors' settings,
// instruction files), a file whose name says it holds secrets (.env,
// keys), or a file the workspace's ignore rules exclude
// (filelist.Ignored). root is the workspace folder holding abs ("" when
// none: then only the file's own directory's rules apply, and a path
// outside root is excluded).
func Excluded(root, abs string, instructionFiles []string) bool {
	if secretName(filepath.Base(abs)) {
		return true
	}
	if root == "" {
		root = filepath.Dir(abs)
	}
	if tools.Protected(root, abs, instructionFiles) {
		return true
	}
	rel, ok := pathx.Within(root, abs)
	if !ok {
		return true
	}
	return filelist.Ignored(root, filepath.ToSlash(rel))
}

// secretName reports file names that hold credentials by convention,
// ignored or not: dotenv files, private keys and certificates' keys,
// package managers' and netrc's tokens.
func secretName(name string) bool {
	n := strings.ToLower(name)
	if n == ".env" || strings.HasPrefix(n, ".env.") || strings.HasSuffix(n, ".env") {
		return !strings.HasSuffix(n, ".example") && !strings.HasSuffix(n, ".sample") && !strings.HasSuffix(n, ".template")
	}
	switch n {
	case ".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", "credentials.json", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519":
		return true
	}
	switch path.Ext(n) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".tfvars":
		return true
	}
	return false
}

// recheck is how long a privacy or settings answer is kept: editing a
// .gitignore or the workspace's settings takes effect within it.
const recheck = 5 * time.Second

// privacy keeps Excluded's, the deny rules' and the workspace switch's
// answers for a while: they read files, and completions ask on every
// keystroke.
type privacy struct {
	home, userHome string // $TANDEM_HOME (the user's rules) and ~ (rules written ~/…)

	mu    sync.Mutex // guards paths, roots and rules
	paths map[string]kept
	roots map[string]kept
	rules map[string]keptRules
}

type keptRules struct {
	rs policy.Rules
	at time.Time
}

type kept struct {
	yes bool
	at  time.Time
}

func (p *privacy) ask(m *map[string]kept, key string, fn func() bool) bool {
	now := time.Now()
	p.mu.Lock()
	k, ok := (*m)[key]
	p.mu.Unlock()
	if ok && now.Sub(k.at) < recheck {
		return k.yes
	}
	yes := fn()
	p.mu.Lock()
	defer p.mu.Unlock()
	if *m == nil {
		*m = map[string]kept{}
	}
	(*m)[key] = kept{yes: yes, at: now}
	return yes
}

// allowed reports whether abs may be sent: not Excluded, and not a file
// the workspace's or the user's deny rules keep the agent from reading
// (read_file(.env), Claude Code's Read(secrets/**)): what the agent may
// not read, completions do not send either.
func (p *privacy) allowed(root, abs string, instructionFiles []string) bool {
	return p.ask(&p.paths, abs, func() bool {
		return !Excluded(root, abs, instructionFiles) && !p.denied(root, abs)
	})
}

// denied applies the deny rules of root's settings to reading abs.
func (p *privacy) denied(root, abs string) bool {
	if root == "" {
		root = filepath.Dir(abs)
	}
	rs := p.rulesOf(root)
	if len(rs.Deny) == 0 {
		return false
	}
	c := policy.Call{Tool: tools.ReadFileName, Group: tools.GroupRead, Root: root, Path: abs, Home: p.userHome}
	return policy.Decide(policy.ModeCode, c, rs).Decision == policy.Deny
}

// rulesOf returns root's rules, read again after recheck.
func (p *privacy) rulesOf(root string) policy.Rules {
	now := time.Now()
	p.mu.Lock()
	k, ok := p.rules[root]
	p.mu.Unlock()
	if ok && now.Sub(k.at) < recheck {
		return k.rs
	}
	rs := settings.Load(context.Background(), settings.Options{Home: p.home, UserHome: p.userHome, Root: root}).Rules()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rules == nil {
		p.rules = map[string]keptRules{}
	}
	p.rules[root] = keptRules{rs: rs, at: now}
	return rs
}

// off reports whether root's settings turn completions off.
func (p *privacy) off(root string) bool {
	return p.ask(&p.roots, root, func() bool { return settings.CompletionsOff(root) })
}

// forget drops what is kept about a closed document.
func (p *privacy) forget(abs string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.paths, abs)
}
