package mcpclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTimeout bounds one HTTP exchange with a server (a call's own timeout
// is mcp.call_timeout_secs; this is the transport's backstop).
const httpTimeout = 10 * time.Minute

// headerTransport adds a server's static headers to each request (HTTP
// servers authenticate with these; OAuth is not supported) that goes to
// the configured scheme and host: a redirect elsewhere gets none (net/http
// drops Authorization on such a redirect; re-adding it would hand the
// user's token to a host they never configured).
type headerTransport struct {
	headers map[string]string
	origin  string // the configured URL's scheme://host
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme+"://"+r.URL.Host != h.origin {
		return h.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// originOf is raw's scheme://host ("" when it does not parse).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// checkURL reports why an HTTP server's URL cannot be used, or nil.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("url %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("url %q is not an http(s) URL", raw)
	}
	return nil
}

// connectHTTP connects to a streamable HTTP server with its static
// headers and lists its tools.
func (s *Server) connectHTTP(ctx context.Context) (*mcp.ClientSession, []*mcp.Tool, error) {
	client := s.newClient()
	tr := &mcp.StreamableClientTransport{
		Endpoint:   s.spec.URL,
		HTTPClient: &http.Client{Timeout: httpTimeout, Transport: headerTransport{headers: s.spec.Headers, origin: originOf(s.spec.URL), base: http.DefaultTransport}},
		// The standalone SSE stream stays on: a server sends its requests
		// (elicitation) and notifications (list_changed, progress) there
		// when it answers calls with plain JSON.
	}
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to %s: %w", s.spec.URL, err)
	}
	tools, err := listTools(ctx, cs)
	if err != nil {
		_ = cs.Close()
		return nil, nil, fmt.Errorf("list the tools of %q: %w", s.spec.Name, err)
	}
	return cs, tools, nil
}
