package openai

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
)

// Provider is an llm.Provider for an OpenAI-compatible endpoint. It is safe
// for concurrent use.
type Provider struct {
	cfg    Config
	client *goopenai.Client
	// noStream is set once the server said it cannot stream: later calls
	// then ask for whole answers.
	noStream atomic.Bool
	// enc keeps the encoded pieces of request bodies.
	enc *encodeCache
	// echoAll is set once the server refused a request for a missing
	// reasoning_content: from then on every assistant message carries one;
	// noEcho once it refused the reasoning sent back: from then on none
	// does (reasoning_state.go).
	echoAll, noEcho atomic.Bool
	// closeOnly are the models whose reasoning comes without its opening
	// tag (think_close.go).
	closeOnly closeOnlyModels
	// windows is what the endpoint reported of its models' context
	// windows (window.go).
	windows windowCache
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
	p := &Provider{cfg: cfg, client: goopenai.NewClientWithConfig(oc), sleep: kit.SleepCtx, enc: newEncodeCache()}
	p.noStream.Store(cfg.NoStream)
	return p, nil
}

// Complete sends req and returns the answer, streaming its text and reasoning
// to onEvent (which may be nil). Retries, backoff, Retry-After and the
// watchdog are the provider kit's (kit.Policy.Run): rate limits (429, except
// insufficient_quota), 408, 5xx, broken connections and streams that drop or
// fall silent before any output are retried up to MaxRetries times. Other
// failures return a *kit.Error at once. A cancelled ctx aborts the request
// and any backoff; the error then wraps ctx.Err().
func (p *Provider) Complete(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	creq, enc, err := p.chatRequest(req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("model request: %w", err)
	}
	pol := p.cfg.policy()
	pol.Sleep = p.sleep
	var streaming bool
	echo := p.echoMode() // as enc was encoded
	return pol.Run(ctx, kit.Call{
		Model: creq.Model,
		Do: func(actx context.Context, a *kit.Attempt) (llm.Response, error) {
			streaming = !p.noStream.Load()
			if now := p.echoMode(); now != echo {
				e, err := p.enc.request(req, creq.Model, now)
				if err != nil {
					return llm.Response{}, fmt.Errorf("model request: %w", err)
				}
				enc, echo = e, now
			}
			ex := &exchange{dog: a.Dog, assumeOpen: p.closeOnly.assumed(creq.Model)}
			var (
				resp llm.Response
				err  error
			)
			if streaming {
				resp, a.Emitted, err = p.streamAttempt(actx, creq, enc, onEvent, ex)
			} else {
				resp, a.Emitted, err = p.plainAttempt(actx, creq, enc, onEvent, ex)
			}
			a.Header = ex.header
			if err == nil {
				p.closeOnly.learn(creq.Model, ex.closing)
				keepReasoning(&resp.Message, creq.Model, ex.reasoningField(), ex.reasoning)
				if resp.Message.Thinking == "" {
					resp.Message.Thinking = ex.inline // shown again on reload, never sent back
				}
			}
			return resp, err
		},
		Classify: classify,
		Fallback: func(ctx context.Context, fail *kit.Error) bool {
			switch {
			case reasoningDemanded(fail) && echo == echoInSpans:
				p.echoAll.Store(true)
				p.cfg.Logger.WarnContext(ctx, "the model server wants reasoning_content back on every assistant message; sending it from now on",
					"model", creq.Model, "error", fail.Message)
				return true
			case reasoningRefused(fail) && echo != echoNone:
				p.noEcho.Store(true)
				p.cfg.Logger.WarnContext(ctx, "the model server refuses reasoning sent back with assistant messages; sending none from now on",
					"model", creq.Model, "error", fail.Message)
				return true
			}
			if !streaming || !streamUnsupported(fail) {
				return false
			}
			p.noStream.Store(true)
			p.cfg.Logger.WarnContext(ctx, "model server cannot stream this request; using non-streaming requests from now on",
				"model", creq.Model, "error", fail.Message)
			return true
		},
	})
}
