package kit

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, -1},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"zero", map[string]string{"Retry-After": "0"}, 0},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"negative", map[string]string{"Retry-After": "-3"}, -1},
		{"garbage", map[string]string{"Retry-After": "soon"}, -1},
		{"HTTP date", map[string]string{"Retry-After": now.Add(42 * time.Second).Format(http.TimeFormat)}, 42 * time.Second},
		{"HTTP date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"milliseconds win", map[string]string{"Retry-After-Ms": "120", "Retry-After": "9"}, 120 * time.Millisecond},
		{"bad milliseconds fall back", map[string]string{"Retry-After-Ms": "x", "Retry-After": "2"}, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h http.Header
			if tt.header != nil {
				h = http.Header{}
				for k, v := range tt.header {
					h.Set(k, v)
				}
			}
			if got := RetryAfter(h, now); got != tt.want {
				t.Errorf("retryAfter = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	backoff := func(attempt int, retryAfter time.Duration) time.Duration {
		return Backoff(attempt, retryAfter, 100*time.Millisecond, time.Second)
	}
	caps := []time.Duration{100, 200, 400, 800, 1000, 1000, 1000}
	for attempt, c := range caps {
		hi := c * time.Millisecond
		for range 50 {
			if d := backoff(attempt, -1); d < hi/2 || d > hi {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, hi/2, hi)
			}
		}
	}
	if d := backoff(0, 300*time.Millisecond); d != 300*time.Millisecond {
		t.Errorf("Retry-After 300ms gave %v", d)
	}
	if d := backoff(0, time.Hour); d != time.Second {
		t.Errorf("Retry-After 1h gave %v, want capped at 1s", d)
	}
	if d := backoff(60, -1); d < 500*time.Millisecond || d > time.Second {
		t.Errorf("backoff(60) = %v overflowed", d)
	}
}

func TestSleepCtx(t *testing.T) {
	if err := SleepCtx(context.Background(), time.Nanosecond); err != nil {
		t.Errorf("short sleep: %v", err)
	}
	if err := SleepCtx(context.Background(), 0); err != nil {
		t.Errorf("zero sleep: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SleepCtx(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled sleep = %v, want context.Canceled", err)
	}
}
