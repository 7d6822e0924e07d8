package host

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
)

// ProviderSpec is one row of the provider table: what `model.provider`
// names, the defaults a configuration that does not set them gets, the known
// prices of its models, and how the provider is built. Adding a provider is
// adding a row (docs/contributing.md, "Adding a model provider").
type ProviderSpec struct {
	// Name is the value of `model.provider`.
	Name string
	// Aliases are other names accepted for it ("" is the default provider).
	Aliases []string
	// Defaults replace the built-in (OpenAI) base URL, model and key
	// variable when the configuration leaves them at the built-in values.
	Defaults ProviderDefaults
	// Prices are per model name; see Price.
	Prices map[string]Price
	// Build makes the provider from a configuration whose defaults are
	// applied; root is the workspace root.
	Build func(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error)
}

// ProviderDefaults are a provider's endpoint, model and API key variable.
type ProviderDefaults struct {
	BaseURL, Model, KeyEnv string
}

// Price is what a model costs in US dollars per million tokens: fresh input,
// output, and input served from the provider's prompt cache.
type Price struct {
	Input, Output, CachedInput float64
}

// Cost is the price of one request's usage in US dollars. Cached input
// tokens are part of InputTokens and billed at CachedInput instead.
func (p Price) Cost(u llm.Usage) float64 {
	cached := min(u.CachedInputTokens, u.InputTokens)
	fresh := u.InputTokens - cached
	return (float64(fresh)*p.Input + float64(cached)*p.CachedInput + float64(u.OutputTokens)*p.Output) / 1e6
}

// openAIPrices are OpenAI's list prices (standard tier), USD per million
// tokens, from https://openai.com/api/pricing as of 2025-08-07. They are
// data: update them here when the list changes.
var openAIPrices = map[string]Price{
	"gpt-4.1":      {Input: 2.00, CachedInput: 0.50, Output: 8.00},
	"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40},
	"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10.00},
	"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60},
	"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10.00},
	"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2.00},
	"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40},
	"o3":           {Input: 2.00, CachedInput: 0.50, Output: 8.00},
	"o3-mini":      {Input: 1.10, CachedInput: 0.55, Output: 4.40},
	"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40},
}

// Providers is the provider table.
var Providers = []ProviderSpec{{
	Name:    "openai",
	Aliases: []string{""},
	Defaults: ProviderDefaults{
		BaseURL: openai.DefaultBaseURL, Model: "gpt-4.1", KeyEnv: "OPENAI_API_KEY",
	},
	Prices: openAIPrices,
	Build:  buildOpenAI,
}, {
	Name: "scripted",
	// The scripted model is named "scripted" unless model.name says otherwise
	// (not the built-in OpenAI model it never calls).
	Defaults: ProviderDefaults{Model: "scripted"},
	Build:    buildScripted,
}}

// LookupProvider returns the table row for a `model.provider` value.
func LookupProvider(name string) (ProviderSpec, bool) {
	for _, p := range Providers {
		if p.Name == name || slices.Contains(p.Aliases, name) {
			return p, true
		}
	}
	return ProviderSpec{}, false
}

// providerNames lists the table's names, for error messages: "a, b or c".
func providerNames() string {
	names := make([]string, len(Providers))
	for i, p := range Providers {
		names[i] = p.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// snapshotSuffix is the date OpenAI appends to a pinned model version
// ("gpt-4.1-2025-04-14").
var snapshotSuffix = regexp.MustCompile(`-\d{4}-\d{2}-\d{2}$`)

// PriceOf returns the price of a provider's model, when the table knows it.
// A routing prefix ("openai/gpt-4.1") and a snapshot date are ignored.
func PriceOf(provider, model string) (Price, bool) {
	spec, ok := LookupProvider(provider)
	if !ok {
		return Price{}, false
	}
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		model = model[i+1:]
	}
	if p, ok := spec.Prices[model]; ok {
		return p, true
	}
	p, ok := spec.Prices[snapshotSuffix.ReplaceAllString(model, "")]
	return p, ok
}

// withProviderDefaults returns cfg with the provider's defaults in place of
// the built-in (OpenAI) base URL, model and key variable it still has.
func withProviderDefaults(spec ProviderSpec, cfg config.Config) config.Config {
	builtin, d := config.Default().Model, spec.Defaults
	m := &cfg.Model
	if d.BaseURL != "" && m.BaseURL == builtin.BaseURL {
		m.BaseURL = d.BaseURL
	}
	if d.Model != "" && m.Name == builtin.Name {
		m.Name = d.Model
	}
	if d.KeyEnv != "" && m.APIKeyEnv == builtin.APIKeyEnv {
		m.APIKeyEnv = d.KeyEnv
	}
	return cfg
}

// withOwnDefaults is cfg with its provider's defaults in place of the
// built-in (OpenAI) ones it still has, so that what the faces show (the ACP
// model option, /model, agent/checkModel) names the model that answers. An
// unknown provider is left alone (NewProvider names the problem).
func withOwnDefaults(cfg config.Config) config.Config {
	if spec, ok := LookupProvider(cfg.Model.Provider); ok {
		return withProviderDefaults(spec, cfg)
	}
	return cfg
}

// buildOpenAI builds an OpenAI-compatible provider.
func buildOpenAI(cfg config.Config, getenv func(string) string, _ string) (llm.Provider, error) {
	key, err := apiKey(cfg, getenv) // key_file.go: model.api_key, model.api_key_file, then model.api_key_env
	if err != nil {
		return nil, err
	}
	if key, err = dropLiteralKeyName(cfg, key); err != nil { // key_literal.go
		return nil, err
	}
	if err := checkAPIKey(cfg, key); err != nil {
		return nil, err
	}
	p, err := openai.New(openai.Config{
		BaseURL:   cfg.Model.BaseURL,
		APIKey:    key,
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
}

// buildScripted builds the scripted model (a YAML transcript, relative to
// the workspace root).
func buildScripted(cfg config.Config, _ func(string) string, root string) (llm.Provider, error) {
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
