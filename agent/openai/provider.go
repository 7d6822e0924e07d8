package openai

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
)

// Provider is an llm.Provider for an OpenAI-compatible endpoint. It is safe
// for concurrent use.
type Provider struct {
	cfg    Config
	client *goopenai.Client
	// noStream is set once the server said it cannot stream: later calls
	// then ask for whole answers.
	noStream atomic.Bool
	// sleep waits between retries; tests replace it.
	sleep func(context.Context, time.Duration) error
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider for cfg. It fails when cfg.Model is empty or
// cfg.BaseURL is not an http(s) URL.
func New(cfg Config) (*Provider, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	oc := goopenai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = recordingDoer{client: cfg.HTTPClient}
	p := &Provider{cfg: cfg, client: goopenai.NewClientWithConfig(oc), sleep: sleepCtx}
	p.noStream.Store(cfg.NoStream)
	return p, nil
}

// Complete sends req and returns the answer, streaming its text and reasoning
// to onEvent (which may be nil). Rate limits (429, except insufficient_quota),
// 408, 5xx, broken connections and streams that drop before any output are
// retried up to MaxRetries times with exponential backoff, honouring
// Retry-After; so is an attempt that gets no first event within
// FirstByteTimeout, or whose stream falls silent for IdleTimeout before any
// output. Other failures return an *Error at once. A cancelled ctx aborts
// the request and any backoff; the error then wraps ctx.Err().
func (p *Provider) Complete(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	creq, err := p.chatRequest(req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("model request: %w", err)
	}
	attempts := 0
	for retry := 0; ; retry++ {
		attempts++
		streaming := !p.noStream.Load()
		actx, dog, stop := p.watch(ctx)
		ex := &exchange{dog: dog}
		var (
			resp    llm.Response
			emitted bool
		)
		if streaming {
			resp, emitted, err = p.streamAttempt(actx, creq, onEvent, ex)
		} else {
			resp, emitted, err = p.plainAttempt(actx, creq, onEvent, ex)
		}
		te, watchdogEnded := timedOut(actx)
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
		fail := classify(err)
		fail.Attempts = attempts
		if streaming && !emitted && streamUnsupported(fail) {
			p.noStream.Store(true)
			p.cfg.Logger.WarnContext(ctx, "model server cannot stream this request; using non-streaming requests from now on",
				"model", creq.Model, "error", fail.Message)
			retry-- // the switch is not a retry
			continue
		}
		if fail.Transient && emitted {
			fail.Message = "output had started, not retried: " + fail.Message
			return llm.Response{}, fail
		}
		if !fail.Transient || retry >= p.cfg.MaxRetries {
			return llm.Response{}, fail
		}
		delay := p.backoff(retry, retryAfter(ex.header, time.Now()))
		p.cfg.Logger.WarnContext(ctx, "model request failed; retrying",
			"model", creq.Model, "attempt", attempts, "max_attempts", p.cfg.MaxRetries+1,
			"delay", delay, "status", fail.Status, "error", fail.Message)
		if err := p.sleep(ctx, delay); err != nil {
			return llm.Response{}, fmt.Errorf("model request: %w", err)
		}
	}
}
