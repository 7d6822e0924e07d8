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
// servers authenticate with these; OAuth is not supported).
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
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
		HTTPClient: &http.Client{Timeout: httpTimeout, Transport: headerTransport{headers: s.spec.Headers, base: http.DefaultTransport}},
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
