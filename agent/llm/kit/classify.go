package kit

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// RetryableCodes are provider error codes and types of transient failures,
// as found in error events inside a stream.
var RetryableCodes = map[string]bool{
	"rate_limit_exceeded": true, "rate_limit_error": true, "server_error": true,
	"internal_error": true, "internal_server_error": true, "overloaded": true,
	"overloaded_error": true, "server_overloaded": true, "service_unavailable": true,
	"api_error": true, "timeout": true,
}

// Classify turns the errors every HTTP provider shares into an *Error
// (Attempts not yet set): watchdog timeouts and dropped streams are
// transient, a refused connection is not, a connection broken before an
// answer is. A provider classifies its library's own error types first and
// hands the rest here.
func Classify(err error) *Error {
	var timeout *TimeoutError
	if errors.As(err, &timeout) {
		return &Error{Message: timeout.Error(), Transient: true, Err: err}
	}
	var drop *StreamDrop
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

// StatusRetryable reports whether an HTTP status is worth retrying: 408, 429
// (unless the quota is exhausted, code "insufficient_quota") and 5xx.
func StatusRetryable(status int, code string) bool {
	switch {
	case status == http.StatusTooManyRequests:
		return code != "insufficient_quota"
	case status == http.StatusRequestTimeout:
		return true
	default:
		return status >= 500 && status <= 599
	}
}

// StatusText returns the "404 Not Found" form of a status.
func StatusText(code int, status string) string {
	if status != "" {
		return status
	}
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return strconv.Itoa(code)
}

// Excerpt collapses whitespace in s and shortens it to at most 300 runes.
func Excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 300
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + "…"
	}
	return s
}
