package mcpclient

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestHTTPHeadersStayWithTheConfiguredHost: an HTTP server's static
// headers (docs/mcp.md: `headers`, e.g. `Authorization: Bearer …`, the
// server's credential) are for the server the user configured. A server
// (or an open redirect on its host) that answers agentls's first POST with
// a 307 to another host must not receive them there: Go's http.Client
// drops Authorization on a redirect to another host, but agentls adds the
// static headers in its transport, under that check, to every request it
// sends — the redirected one too. Here the configured URL is on 127.0.0.1
// and redirects to localhost (another host to net/http); the token must
// not reach it. It fails while headerTransport sets the headers on every
// request whatever its host.
func TestHTTPHeadersStayWithTheConfiguredHost(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, r.Method+" "+a)
		}
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	_, port, _ := net.SplitHostPort(other.Listener.Addr().String())
	elsewhere := "http://localhost:" + port + "/mcp"
	configured := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
	}))
	defer configured.Close()

	root := t.TempDir()
	p := NewPool(root, []string{root}, nil)
	t.Cleanup(p.Close)
	p.Configure(config.Default(), []ServerSpec{{Name: "remote", Type: "http", URL: configured.URL + "/mcp",
		Headers: map[string]string{"Authorization": "Bearer ghp_user_token"}, Network: true, Origin: FromConfig}})
	_ = p.SessionTools(context.Background(), "s") // the handshake follows the redirect; it fails there

	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the server's Authorization header reached %s, a host the user never configured: %q", elsewhere, leaked)
	}
}
