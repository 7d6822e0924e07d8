package agent

import (
	"context"
	"time"
)

// progressKey is the context key of a turn's progress handle.
type progressKey struct{}

func withProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressOf is the turn's progress handle (one that shows nothing outside
// a turn).
func progressOf(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok {
		return p
	}
	return noProgress{}
}

// noProgress shows nothing.
type noProgress struct{}

func (noProgress) Report(context.Context, string) {}
func (noProgress) End(context.Context)            {}

// finalSendGrace bounds a send that reports how something ended after its
// turn was cancelled (a tool call's end, the progress's end): the editor
// must hear it, but a client that stops reading holds the turn no longer.
const finalSendGrace = 5 * time.Second

// finalSendContext is ctx without its cancellation, bounded by finalSendGrace.
func finalSendContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), finalSendGrace)
}
