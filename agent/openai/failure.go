package openai

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"
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
	// longer than the model's context window (see contextExceeded).
	ContextExceeded bool
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

// hint suggests what the user can check.
func (e *Error) hint() string {
	switch {
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return "check OPENAI_API_KEY / api_key_env"
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

// streamDropError marks a stream that broke off (connection reset,
// unexpected EOF, ended before any data).
type streamDropError struct{ err error }

func (s *streamDropError) Error() string { return "stream dropped: " + s.err.Error() }
func (s *streamDropError) Unwrap() error { return s.err }

// malformedError marks a stream chunk or answer that could not be parsed.
type malformedError struct{ err error }

func (m *malformedError) Error() string { return "malformed answer: " + m.err.Error() }
func (m *malformedError) Unwrap() error { return m.err }

// retryableCodes are provider error codes and types of transient failures,
// as found in error events inside a stream.
var retryableCodes = map[string]bool{
	"rate_limit_exceeded": true, "rate_limit_error": true, "server_error": true,
	"internal_error": true, "internal_server_error": true, "overloaded": true,
	"overloaded_error": true, "server_overloaded": true, "service_unavailable": true,
	"api_error": true, "timeout": true,
}

// classify turns an attempt's error into an *Error (Attempts not yet set);
// its Transient field says whether a retry may help.
func classify(err error) *Error {
	var reqErr *goopenai.RequestError
	if errors.As(err, &reqErr) {
		msg := excerpt(string(reqErr.Body))
		if msg == "" && reqErr.Err != nil {
			msg = reqErr.Err.Error()
		}
		return &Error{
			StatusCode:      reqErr.HTTPStatusCode,
			Status:          statusText(reqErr.HTTPStatusCode, reqErr.HTTPStatus),
			Message:         msg,
			Transient:       statusRetryable(reqErr.HTTPStatusCode, ""),
			ContextExceeded: contextExceeded(string(reqErr.Body)),
			Err:             err,
		}
	}
	var apiErr *goopenai.APIError
	if errors.As(err, &apiErr) {
		code, num := errorCode(apiErr.Code)
		if code == "" {
			code = apiErr.Type
		}
		quota := code == "insufficient_quota" || apiErr.Type == "insufficient_quota"
		if quota {
			code = "insufficient_quota"
		}
		e := &Error{Code: code, Message: excerpt(apiErr.Message), Err: err,
			ContextExceeded: contextExceeded(code, apiErr.Type, apiErr.Message)}
		if apiErr.HTTPStatusCode > 0 {
			e.StatusCode = apiErr.HTTPStatusCode
			e.Status = statusText(apiErr.HTTPStatusCode, apiErr.HTTPStatus)
			e.Transient = !quota && statusRetryable(apiErr.HTTPStatusCode, code)
			return e
		}
		// An error event inside a stream: no HTTP status, classify by code/type.
		e.Message = "error event in stream"
		if code != "" {
			e.Message += " [" + code + "]"
		}
		e.Message += ": " + excerpt(apiErr.Message)
		e.Transient = !quota && (retryableCodes[code] || retryableCodes[apiErr.Type] ||
			(num > 0 && statusRetryable(num, code)))
		return e
	}
	var timeout *timeoutError
	if errors.As(err, &timeout) {
		return &Error{Message: timeout.Error(), Transient: true, Err: err}
	}
	var drop *streamDropError
	if errors.As(err, &drop) {
		return &Error{Message: drop.Error(), Transient: true, Err: err}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return &Error{Message: "cannot reach the server: " + err.Error(), Err: err}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		// The connection broke before an answer arrived (reset, EOF, timeout).
		return &Error{Message: err.Error(), Transient: true, Err: err}
	}
	return &Error{Message: err.Error(), Err: err}
}

// statusRetryable reports whether an HTTP status is worth retrying: 408, 429
// (unless the quota is exhausted) and 5xx.
func statusRetryable(status int, code string) bool {
	switch {
	case status == http.StatusTooManyRequests:
		return code != "insufficient_quota"
	case status == http.StatusRequestTimeout:
		return true
	default:
		return status >= 500 && status <= 599
	}
}

// streamUnsupported reports whether e is a server saying it cannot stream this
// request (llama.cpp: "Cannot use tools with stream").
func streamUnsupported(e *Error) bool {
	if e.StatusCode == 0 || e.StatusCode == http.StatusTooManyRequests {
		return false
	}
	m := strings.ToLower(e.Message)
	if !strings.Contains(m, "stream") {
		return false
	}
	for _, s := range []string{"not supported", "unsupported", "cannot use", "not implemented"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// errorCode renders an APIError.Code (a string, a number or nil) as text, and
// returns it as a number too when it is one.
func errorCode(code any) (string, int) {
	switch c := code.(type) {
	case string:
		n, _ := strconv.Atoi(c)
		return c, n
	case int:
		return strconv.Itoa(c), c
	case float64:
		return strconv.Itoa(int(c)), int(c)
	case nil:
		return "", 0
	default:
		return fmt.Sprint(c), 0
	}
}

// statusText returns the "404 Not Found" form of a status.
func statusText(code int, status string) string {
	if status != "" {
		return status
	}
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return strconv.Itoa(code)
}

// excerpt collapses whitespace in s and shortens it to at most 300 runes.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 300
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + "…"
	}
	return s
}
