package kit

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff returns the delay before retry number attempt (0 for the first
// retry): initial doubled per attempt, capped at maxDelay, with "equal
// jitter" (a random value in [d/2, d]). A server's retry delay, when known
// (retryAfter >= 0), replaces it, capped at maxDelay.
func Backoff(attempt int, retryAfter, initial, maxDelay time.Duration) time.Duration {
	if retryAfter >= 0 {
		return min(retryAfter, maxDelay)
	}
	d := initial
	for i := 0; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	half := d / 2
	return half + rand.N(d-half+1)
}

// RetryAfter reads the server's retry delay from a response header:
// retry-after-ms (milliseconds, sent by OpenAI) or Retry-After (seconds or an
// HTTP date). It returns -1 when there is none or it cannot be parsed.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return -1
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return -1
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return -1
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return -1
}

// SleepCtx waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() in the latter case.
func SleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
