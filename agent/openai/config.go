package openai

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/agentls/agentls/agent/llm/kit"
)

// DefaultBaseURL is used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config configures a Provider.
type Config struct {
	// BaseURL is the endpoint root, e.g. http://localhost:11434/v1 for Ollama.
	// Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization header.
	APIKey string
	// Model is the model name used when a Request does not name one. Required.
	Model string
	// MaxRetries is how many times a transient failure is retried: 0 means
	// kit.DefaultMaxRetries, a negative value disables retries.
	MaxRetries int
	// InitialBackoff is the delay before the first retry, doubled for each
	// further one up to MaxBackoff. Zero means the defaults. A Retry-After
	// header replaces the computed delay but is capped at MaxBackoff too.
	InitialBackoff, MaxBackoff time.Duration
	// HTTPClient sends the requests; nil means a client whose connections
	// (TCP and TLS) time out after ConnectTimeout; the attempts' watchdog and
	// the request context bound the rest.
	HTTPClient *http.Client
	// ConnectTimeout bounds connecting to the endpoint when HTTPClient is
	// nil; a connection that cannot be made is a clear error, not retried.
	ConnectTimeout time.Duration
	// FirstByteTimeout bounds the wait from sending a request to the first
	// streamed event (or, without streaming, the whole answer); a timed-out
	// attempt is retried.
	FirstByteTimeout time.Duration
	// IdleTimeout bounds the silence between two streamed events; a stream
	// that falls silent before any output is retried, after output it is a
	// clear error (output cannot be replayed).
	IdleTimeout time.Duration
	// MaxTokens caps the answer length when positive. It is sent as
	// max_completion_tokens to reasoning models (o1, o3, o4, gpt-5, gpt-6),
	// which reject max_tokens.
	MaxTokens int
	// NoStream asks for whole answers instead of streams.
	NoStream bool
	// Logger receives retry and fallback notices; nil means slog.Default().
	Logger *slog.Logger
}

// withDefaults validates c and fills in its zero fields.
func (c Config) withDefaults() (Config, error) {
	if c.Model == "" {
		return c, errors.New("openai provider: model name is empty")
	}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return c, fmt.Errorf("openai provider: base URL %q: %w", c.BaseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("openai provider: base URL %q: want http(s)://host[:port]/path", c.BaseURL)
	}
	pol := c.policy().WithDefaults()
	c.MaxRetries, c.InitialBackoff, c.MaxBackoff = pol.MaxRetries, pol.InitialBackoff, pol.MaxBackoff
	c.FirstByteTimeout, c.IdleTimeout, c.Logger = pol.FirstByteTimeout, pol.IdleTimeout, pol.Logger
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = kit.DefaultConnectTimeout
	}
	if c.HTTPClient == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = (&net.Dialer{Timeout: c.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
		tr.TLSHandshakeTimeout = c.ConnectTimeout
		c.HTTPClient = &http.Client{Transport: tr}
	}
	return c, nil
}

// policy is the kit's retry policy of c.
func (c Config) policy() kit.Policy {
	return kit.Policy{
		MaxRetries: c.MaxRetries, InitialBackoff: c.InitialBackoff, MaxBackoff: c.MaxBackoff,
		FirstByteTimeout: c.FirstByteTimeout, IdleTimeout: c.IdleTimeout, Logger: c.Logger,
	}
}
