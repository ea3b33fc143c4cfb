package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// oauthHandler signs tandem in to a remote (streamable HTTP) server that
// answers 401: the SDK's authorization-code flow with PKCE, a client
// registered dynamically, and a redirect to a listener on the loopback
// address that lives only while the user signs in. The user gets the link
// as a notice; the client and token go to the token store, so the next
// session refreshes instead of asking.
type oauthHandler struct {
	s     *server
	store *tokenStore

	tsMu sync.Mutex // guards ts
	ts   oauth2.TokenSource
}

var _ auth.OAuthHandler = (*oauthHandler)(nil)

func newOAuthHandler(s *server, store *tokenStore) *oauthHandler {
	h := &oauthHandler{s: s, store: store}
	if r, ok := store.load(s.cfg.URL); ok {
		cfg := &oauth2.Config{ClientID: r.ClientID, ClientSecret: r.ClientSecret,
			Endpoint: oauth2.Endpoint{AuthURL: r.AuthURL, TokenURL: r.TokenURL, AuthStyle: r.AuthStyle}}
		h.ts = h.saving(context.Background(), cfg, r.Token)
	}
	return h
}

func (h *oauthHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.tsMu.Lock()
	defer h.tsMu.Unlock()
	return h.ts, nil
}

// Authorize runs the sign-in the server asked for with its 401.
func (h *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("listening for the sign-in redirect: %w", err)
	}
	redirect := "http://" + ln.Addr().String() + "/callback"
	results := make(chan *auth.AuthorizationResult, 1)
	cb := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/callback" || (q.Get("code") == "" && q.Get("error") == "") {
			http.NotFound(w, r)
			return
		}
		select {
		case results <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
		default: // one answer per sign-in
		}
		fmt.Fprintln(w, "tandem is signed in; you can close this page.")
	})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = cb.Serve(ln) // ErrServerClosed once the sign-in is over
	}()
	defer func() {
		cb.Close()
		<-served // the server's goroutine is this sign-in's: it ends with it
	}()

	flow, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "tandem", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
		RedirectURL:         redirect,
		RequestRefreshToken: true,
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			// The user's time in the browser does not count against the
			// connect deadline; signInWait bounds it instead.
			defer h.s.holdConnectDeadline()()
			ctx, cancel := context.WithTimeout(ctx, signInWait)
			defer cancel()
			h.s.m.tell(fmt.Sprintf("MCP server %q needs you to sign in. Open this link in a browser: %s", h.s.cfg.Name, a.URL))
			select {
			case r := <-results:
				if r.Code == "" {
					return nil, errors.New("the authorization server refused the sign-in")
				}
				return r, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("waiting for the sign-in: %w", ctx.Err())
			}
		},
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return h.saving(ctx, cfg, tok), nil
		},
	})
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := flow.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("signing in: %w", err)
	}
	ts, _ := flow.TokenSource(ctx)
	h.tsMu.Lock()
	h.ts = ts
	h.tsMu.Unlock()
	h.s.log.Info("mcp server: signed in")
	return nil
}

// saving is cfg's token source starting from tok that writes each new
// token (the first, and every refresh) to the store.
func (h *oauthHandler) saving(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	st := &savingSource{h: h, cfg: cfg, src: cfg.TokenSource(ctx, tok)}
	st.save(tok)
	return st
}

type savingSource struct {
	h   *oauthHandler
	cfg *oauth2.Config
	src oauth2.TokenSource

	mu   sync.Mutex // guards last
	last string     // the access token saved last
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.src.Token()
	if err != nil {
		return nil, err
	}
	s.save(tok)
	return tok, nil
}

func (s *savingSource) save(tok *oauth2.Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok == nil || tok.AccessToken == s.last {
		return
	}
	s.last = tok.AccessToken
	r := oauthRecord{ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, AuthURL: s.cfg.Endpoint.AuthURL,
		TokenURL: s.cfg.Endpoint.TokenURL, AuthStyle: s.cfg.Endpoint.AuthStyle, Token: tok}
	if err := s.h.store.save(s.h.s.cfg.URL, r); err != nil {
		s.h.s.log.Warn("mcp server: the sign-in could not be saved; the next session asks again", "err", err)
	}
}

// tell shows the user msg without logging it (it may carry a link with
// one-time values in it).
func (m *Manager) tell(msg string) {
	m.events.push(event{notice: msg})
}

// signInWait bounds how long a sign-in waits for the user.
const signInWait = 10 * time.Minute

// holdConnectDeadline stops the connect deadline's clock; the function it
// returns starts it again from the beginning. A deadline that has passed
// already stays passed.
func (s *server) holdConnectDeadline() (resume func()) {
	s.stateMu.Lock()
	t := s.connectTimer
	s.stateMu.Unlock()
	if t == nil || !t.Stop() {
		return func() {}
	}
	return func() { t.Reset(s.m.opts.ConnectTimeout) }
}

// enableOAuth lets a streamable HTTP server ask tandem to sign in.
func (s *server) enableOAuth() {
	if t, ok := s.link.transport.(*sdk.StreamableClientTransport); ok {
		t.OAuthHandler = newOAuthHandler(s, s.m.tokens)
	}
}
