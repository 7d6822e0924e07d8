package kit

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/agentls/agentls/agent/llm"
)

// The retry defaults a provider uses when its configuration leaves them zero.
const (
	DefaultMaxRetries     = 4
	DefaultInitialBackoff = 500 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
)

// The timeout defaults: generous enough for slow local models (a 70B model on
// a CPU may think for minutes before its first token).
const (
	DefaultConnectTimeout   = 30 * time.Second
	DefaultFirstByteTimeout = 10 * time.Minute
	DefaultIdleTimeout      = 2 * time.Minute
)

// Policy is how a provider retries and watches its attempts. The zero fields
// must have been filled in (WithDefaults).
type Policy struct {
	// MaxRetries is how many times a transient failure is retried.
	MaxRetries int
	// InitialBackoff is the delay before the first retry, doubled for each
	// further one up to MaxBackoff, which also caps a Retry-After.
	InitialBackoff, MaxBackoff time.Duration
	// FirstByteTimeout bounds the wait for an attempt's first event;
	// IdleTimeout the silence between two events.
	FirstByteTimeout, IdleTimeout time.Duration
	// Logger receives retry notices.
	Logger *slog.Logger
	// Sleep waits between retries (SleepCtx; tests replace it).
	Sleep func(context.Context, time.Duration) error
}

// WithDefaults returns p with its zero fields set to the defaults; a
// negative MaxRetries disables retries.
func (p Policy) WithDefaults() Policy {
	switch {
	case p.MaxRetries == 0:
		p.MaxRetries = DefaultMaxRetries
	case p.MaxRetries < 0:
		p.MaxRetries = 0
	}
	if p.InitialBackoff <= 0 {
		p.InitialBackoff = DefaultInitialBackoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = DefaultMaxBackoff
	}
	if p.MaxBackoff < p.InitialBackoff {
		p.MaxBackoff = p.InitialBackoff
	}
	if p.FirstByteTimeout <= 0 {
		p.FirstByteTimeout = DefaultFirstByteTimeout
	}
	if p.IdleTimeout <= 0 {
		p.IdleTimeout = DefaultIdleTimeout
	}
	if p.Logger == nil {
		p.Logger = slog.Default()
	}
	if p.Sleep == nil {
		p.Sleep = SleepCtx
	}
	return p
}

// Attempt is what one attempt tells the retry loop besides its result.
type Attempt struct {
	// Dog is the attempt's watchdog: call Beat on every streamed event.
	Dog *Watchdog
	// Header is the response's headers, when one arrived (for Retry-After).
	Header http.Header
	// Emitted is set once any event reached the caller: the attempt can then
	// not be retried without duplicating output.
	Emitted bool
}

// Call is one model request as the retry loop sees it.
type Call struct {
	// Model names the model in log lines.
	Model string
	// Do makes one attempt under ctx (which the watchdog cancels).
	Do func(ctx context.Context, a *Attempt) (llm.Response, error)
	// Classify turns an attempt's error into an *Error (Attempts not set);
	// the provider's own error types first, then Classify.
	Classify func(error) *Error
	// Fallback, when set, is asked about a failure before any output: when it
	// returns true (it changed how the next attempt is made, e.g. without
	// streaming) the request is made again, and that is not a retry.
	Fallback func(ctx context.Context, fail *Error) bool
}

// Run makes c's attempts. Transient failures are retried up to MaxRetries
// times with exponential backoff, honouring Retry-After; so is an attempt the
// watchdog ended. A transient failure after output had started is not
// retried. A cancelled ctx aborts the attempt and any backoff; the error then
// wraps ctx.Err(). Other failures return the *Error at once.
func (p Policy) Run(ctx context.Context, c Call) (llm.Response, error) {
	attempts := 0
	for retry := 0; ; retry++ {
		attempts++
		actx, dog, stop := Watch(ctx, p.FirstByteTimeout, p.IdleTimeout)
		a := &Attempt{Dog: dog}
		resp, err := c.Do(actx, a)
		te, watchdogEnded := TimedOut(actx)
		stop()
		if err == nil {
			return resp, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return llm.Response{}, fmt.Errorf("model request: %w", ctxErr)
		}
		if watchdogEnded {
			err = te
		}
		fail := c.Classify(err)
		fail.Attempts = attempts
		if !a.Emitted && c.Fallback != nil && c.Fallback(ctx, fail) {
			retry-- // the switch is not a retry
			continue
		}
		if fail.Transient && a.Emitted {
			fail.Message = "output had started, not retried: " + fail.Message
			return llm.Response{}, fail
		}
		if !fail.Transient || retry >= p.MaxRetries {
			return llm.Response{}, fail
		}
		delay := Backoff(retry, RetryAfter(a.Header, time.Now()), p.InitialBackoff, p.MaxBackoff)
		p.Logger.WarnContext(ctx, "model request failed; retrying",
			"model", c.Model, "attempt", attempts, "max_attempts", p.MaxRetries+1,
			"delay", delay, "status", fail.Status, "error", fail.Message)
		if err := p.Sleep(ctx, delay); err != nil {
			return llm.Response{}, fmt.Errorf("model request: %w", err)
		}
	}
}
