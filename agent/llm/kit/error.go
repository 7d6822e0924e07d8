package kit

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/agentls/agentls/agent/llm"
)

// Error is a failed model request, after any retries.
type Error struct {
	// StatusCode is the HTTP status, 0 when the failure was not an HTTP error
	// status (an error event inside a stream, a dropped connection).
	StatusCode int
	// Status is the HTTP status text, e.g. "401 Unauthorized".
	Status string
	// Code is the provider's error code (or type), when it sent one.
	Code string
	// Message is the provider's message, or a description of the failure.
	Message string
	// Attempts is how many requests were made.
	Attempts int
	// Transient reports a failure of a retryable kind: the retries ran out, or
	// the stream had already produced output and could not be replayed.
	Transient bool
	// ContextExceeded reports that the endpoint refused the request as
	// longer than the model's context window (see ContextExceeded).
	ContextExceeded bool
	// Counts are the numbers the endpoint stated with a context overflow
	// (OverflowCounts): its window, the request's tokens.
	Counts llm.ContextCounts
	// KeyHint is what the user should check after a 401 or 403, e.g.
	// "check OPENAI_API_KEY / api_key_env"; empty means a generic hint.
	KeyHint string
	// Err is the underlying error.
	Err error
}

// Error renders e as "model request failed[ after N attempts]: <status>:
// <message> (<hint>)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("model request failed")
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	b.WriteString(": ")
	if e.Status != "" {
		b.WriteString(e.Status)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if h := e.hint(); h != "" {
		b.WriteString(" (")
		b.WriteString(h)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, llm.ErrContextExceeded) true for a request the
// endpoint refused as longer than the context window.
func (e *Error) Is(target error) bool {
	return target == llm.ErrContextExceeded && e.ContextExceeded
}

// ContextCounts is what the endpoint stated with a context overflow
// (llm.CountsOf).
func (e *Error) ContextCounts() llm.ContextCounts { return e.Counts }

// hint suggests what the user can check.
func (e *Error) hint() string {
	switch {
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		if e.KeyHint != "" {
			return e.KeyHint
		}
		return "check the API key / api_key_env"
	case e.StatusCode == http.StatusNotFound:
		return "check the model name and base_url"
	case e.Code == "insufficient_quota":
		return "insufficient_quota: check the account's plan and billing; not retried"
	}
	var opErr *net.OpError
	if errors.As(e.Err, &opErr) && opErr.Op == "dial" {
		return "check base_url and that the server is running"
	}
	return ""
}

// StreamDrop marks a stream that broke off (connection reset, unexpected
// EOF, ended before any data): transient.
type StreamDrop struct{ Err error }

func (s *StreamDrop) Error() string { return "stream dropped: " + s.Err.Error() }
func (s *StreamDrop) Unwrap() error { return s.Err }

// Malformed marks a stream chunk or answer that could not be parsed:
// transient only when the provider says so (it is retried by Policy.Run like
// any failure classified Transient).
type Malformed struct{ Err error }

func (m *Malformed) Error() string { return "malformed answer: " + m.Err.Error() }
func (m *Malformed) Unwrap() error { return m.Err }
