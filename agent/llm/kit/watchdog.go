package kit

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// TimeoutError is an attempt the watchdog ended: no first event within the
// first-byte timeout, or a stream silent for the idle timeout.
type TimeoutError struct {
	Idle  bool
	After time.Duration
}

func (e *TimeoutError) Error() string {
	if e.Idle {
		return fmt.Sprintf("the model's stream was silent for %s (model.idle_timeout_secs)", e.After)
	}
	return fmt.Sprintf("no answer from the model endpoint within %s of the request (model.first_byte_timeout_secs)", e.After)
}

// Watchdog ends an attempt whose endpoint stays silent: its context is
// cancelled with a *TimeoutError as the cause.
type Watchdog struct {
	timer   *time.Timer
	started atomic.Bool // an event arrived: the idle timeout applies
	idle    time.Duration
}

// Watch returns an attempt's context, its watchdog, and the function that
// stops both (call it when the attempt is over).
func Watch(ctx context.Context, first, idle time.Duration) (context.Context, *Watchdog, func()) {
	actx, cancel := context.WithCancelCause(ctx)
	w := &Watchdog{idle: idle}
	w.timer = time.AfterFunc(first, func() {
		if w.started.Load() {
			cancel(&TimeoutError{Idle: true, After: w.idle})
			return
		}
		cancel(&TimeoutError{After: first})
	})
	return actx, w, func() {
		w.timer.Stop()
		cancel(nil)
	}
}

// Beat records an event: the stream is alive, and from now on may stay
// silent for the idle timeout at most. A nil Watchdog ignores it.
func (w *Watchdog) Beat() {
	if w == nil {
		return
	}
	w.started.Store(true)
	w.timer.Reset(w.idle)
}

// TimedOut returns the watchdog's error if it ended the attempt.
func TimedOut(actx context.Context) (*TimeoutError, bool) {
	te, ok := context.Cause(actx).(*TimeoutError)
	return te, ok
}
