package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

// runLogin stores a provider key in $TANDEM_HOME/credentials.json (mode
// 0600). Editors offer it as ACP's terminal login; on a terminal it asks
// for the key without echoing it, otherwise it reads one line from stdin.
func runLogin(ctx context.Context, m *Main, args []string) error {
	fs := m.flags("login", "[--provider anthropic|openai|gemini|vertex|azure]  (the key is read from the terminal or stdin)")
	provider := fs.String("provider", "", "which provider the key is for (asked on a terminal when unset; anthropic otherwise)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	home, err := config.Home(m.Getenv)
	if err != nil {
		return err
	}
	in := bufio.NewReader(m.Stdin)
	f, tty := m.Stdin.(*os.File)
	tty = tty && term.IsTerminal(int(f.Fd()))
	if *provider == "" {
		*provider = "anthropic"
		if tty {
			fmt.Fprint(m.Stderr, "Provider (anthropic, openai, gemini or vertex) [anthropic]: ")
			line, err := in.ReadString('\n')
			if err != nil {
				return fmt.Errorf("login: %w", err)
			}
			if line = strings.TrimSpace(line); line != "" {
				*provider = strings.ToLower(line)
			}
		}
	}
	switch *provider {
	case "anthropic", "openai", config.Gemini, config.Azure:
	case config.Vertex:
		// Vertex takes Google Cloud's credentials, not a key tandem keeps.
		return loginVertex(ctx, m)
	case config.Bedrock:
		return errors.New("login: bedrock takes the AWS credentials of your environment and profiles, not a key: run aws configure or aws sso login (and set AWS_PROFILE, AWS_REGION), then tandem doctor")
	default:
		return fmt.Errorf("login: unknown provider %q: use anthropic, openai, gemini, vertex or azure", *provider)
	}
	var key string
	if tty {
		fmt.Fprintf(m.Stderr, "%s API key (not shown): ", *provider)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(m.Stderr)
		if err != nil {
			return fmt.Errorf("login: %w", err)
		}
		key = string(b)
	} else {
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return errors.New("login: no key on stdin")
		}
		key = line
	}
	key = strings.TrimSpace(key)
	if key == "" || strings.ContainsAny(key, " \t\r\n") {
		return errors.New("login: a key is one word with no spaces")
	}
	if err := config.SaveKey(home, *provider, key); err != nil {
		return err
	}
	fmt.Fprintf(m.Stderr, "Saved the %s key to %s. Sessions already open use it on their next prompt.\n", *provider, filepath.Join(home, config.CredentialsFile))
	return nil
}

// loginVertex checks Google Cloud's credentials for Vertex AI: tandem
// stores none of its own, it uses the application-default credentials
// (gcloud's login) or the key file GOOGLE_APPLICATION_CREDENTIALS names.
func loginVertex(ctx context.Context, m *Main) error {
	cfg, err := config.Load(m.Getenv)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	project, err := newVertex(cfg, llm.Transport{}, m.redactor()).Check(ctx)
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	fmt.Fprintf(m.Stderr, "Google Cloud credentials work (project %s). Use them with TANDEM_PROVIDER=vertex (and GOOGLE_CLOUD_LOCATION for a region other than global).\n", project)
	return nil
}
