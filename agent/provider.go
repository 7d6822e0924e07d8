package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
)

// NewProvider builds the configured chat model. A scripted model's transcript
// path is relative to root.
func NewProvider(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error) {
	switch cfg.Model.Provider {
	case "", "openai":
		if err := checkAPIKey(cfg, getenv); err != nil {
			return nil, err
		}
		p, err := openai.New(openai.Config{
			BaseURL:   cfg.Model.BaseURL,
			APIKey:    cfg.APIKey(getenv),
			Model:     cfg.Model.Name,
			MaxTokens: cfg.Model.MaxTokens,

			ConnectTimeout:   secs(cfg.Model.ConnectTimeoutSecs),
			FirstByteTimeout: secs(cfg.Model.FirstByteTimeoutSecs),
			IdleTimeout:      secs(cfg.Model.IdleTimeoutSecs),
		})
		if err != nil {
			return nil, fmt.Errorf("openai model: %w", err)
		}
		return p, nil
	case "scripted":
		if cfg.Model.Script == "" {
			return nil, fmt.Errorf("scripted model: model.script (the transcript file) is not set")
		}
		path := cfg.Model.Script
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		s, err := scripted.Load(path)
		if err != nil {
			return nil, fmt.Errorf("scripted model: %w", err)
		}
		return scripted.New(s), nil
	}
	return nil, fmt.Errorf("unknown model provider %q (use openai or scripted)", cfg.Model.Provider)
}

// secs is a config duration in seconds (0: the provider's default).
func secs(n int) time.Duration { return time.Duration(n) * time.Second }

// BrokenProvider fails every request with Err: it stands in for a model that
// could not be configured, so the editor still starts and every turn says why.
type BrokenProvider struct{ Err error }

// Complete returns the configuration error.
func (b BrokenProvider) Complete(context.Context, llm.Request, func(llm.Event)) (llm.Response, error) {
	return llm.Response{}, fmt.Errorf("the model is not configured: %w", b.Err)
}
