package openai

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// timeoutError is an attempt the watchdog ended: no first event within
// FirstByteTimeout, or a stream silent for IdleTimeout.
type timeoutError struct {
	idle  bool
	after time.Duration
}

func (e *timeoutError) Error() string {
	if e.idle {
		return fmt.Sprintf("the model's stream was silent for %s (model.idle_timeout_secs)", e.after)
	}
	return fmt.Sprintf("no answer from the model endpoint within %s of the request (model.first_byte_timeout_secs)", e.after)
}

// watchdog ends an attempt whose endpoint stays silent: its context is
// cancelled with a *timeoutError as the cause.
type watchdog struct {
	timer   *time.Timer
	started atomic.Bool // an event arrived: the idle timeout applies
	idle    time.Duration
}

// watch returns the attempt's context, its watchdog, and the function that
// stops both (call it when the attempt is over).
func (p *Provider) watch(ctx context.Context) (context.Context, *watchdog, func()) {
	actx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{idle: p.cfg.IdleTimeout}
	first := p.cfg.FirstByteTimeout
	w.timer = time.AfterFunc(first, func() {
		if w.started.Load() {
			cancel(&timeoutError{idle: true, after: w.idle})
			return
		}
		cancel(&timeoutError{after: first})
	})
	return actx, w, func() {
		w.timer.Stop()
		cancel(nil)
	}
}

// beat records an event: the stream is alive, and from now on may stay
// silent for IdleTimeout at most.
func (w *watchdog) beat() {
	if w == nil {
		return
	}
	w.started.Store(true)
	w.timer.Reset(w.idle)
}

// timedOut returns the watchdog's error if it ended the attempt.
func timedOut(actx context.Context) (*timeoutError, bool) {
	te, ok := context.Cause(actx).(*timeoutError)
	return te, ok
}
