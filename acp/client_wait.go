package acp

import (
	"context"
	"fmt"
	"time"
)

// notifyWriteBound is how long one session/update may wait for room in the
// output queue (a client that stops reading): the turn's context ends it
// sooner; the update is then dropped.
const notifyWriteBound = 5 * time.Second

// requestTimeout is how long a request to the client that needs no human
// (fs/read_text_file, fs/write_text_file) may take: the configuration's
// editor.request_timeout_secs (60 when unset).
func (e *editor) requestTimeout() time.Duration {
	secs := e.h.Config().Editor.RequestTimeoutSecs
	if secs <= 0 {
		secs = 60
	}
	return time.Duration(secs) * time.Second
}

// clientCall runs call under ctx bounded by requestTimeout. When the bound,
// not ctx, ended it, the error says so (a client that never answers ends
// the request, not the turn).
func (e *editor) clientCall(ctx context.Context, method string, call func(context.Context) error) error {
	timeout := e.requestTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := call(cctx)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		return &unansweredError{method: method, after: timeout}
	}
	return err
}

// unansweredError is a request to the client that the bound ended.
type unansweredError struct {
	method string
	after  time.Duration
}

func (e *unansweredError) Error() string {
	return fmt.Sprintf("the client did not answer %s within %s (editor.request_timeout_secs)", e.method, e.after)
}
