package host

import (
	"math"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// TestProviderTable: every row has a name and a builder, names are unique,
// and every price is positive with cached input cheaper than fresh input.
func TestProviderTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, p := range Providers {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if seen[n] {
				t.Errorf("provider name %q twice", n)
			}
			seen[n] = true
		}
		if p.Name == "" || p.Build == nil {
			t.Errorf("row %+v: want a name and a builder", p)
		}
		for model, pr := range p.Prices {
			if pr.Input <= 0 || pr.Output <= 0 || pr.CachedInput <= 0 || pr.CachedInput > pr.Input {
				t.Errorf("%s/%s: price %+v", p.Name, model, pr)
			}
		}
	}
}

func TestPriceOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, model string
		want            float64 // input price; 0: unknown
	}{
		{"openai", "gpt-4.1", 2.00},
		{"", "gpt-4.1-mini", 0.40},
		{"openai", "gpt-4.1-2025-04-14", 2.00},
		{"openai", "openai/o4-mini", 1.10},
		{"openai", "llama3.1:8b", 0},
		{"scripted", "gpt-4.1", 0},
		{"nope", "gpt-4.1", 0},
	}
	for _, tt := range tests {
		p, ok := PriceOf(tt.provider, tt.model)
		if ok != (tt.want != 0) || p.Input != tt.want {
			t.Errorf("PriceOf(%q, %q) = %+v, %v", tt.provider, tt.model, p, ok)
		}
	}
}

func TestPriceCost(t *testing.T) {
	t.Parallel()
	p := Price{Input: 2, CachedInput: 0.5, Output: 8}
	got := p.Cost(llm.Usage{InputTokens: 1_000_000, CachedInputTokens: 400_000, OutputTokens: 500_000})
	if want := 0.6*2 + 0.4*0.5 + 0.5*8; math.Abs(got-want) > 1e-9 {
		t.Errorf("cost = %v, want %v", got, want)
	}
	// A provider that reports more cached tokens than input is capped.
	if got := p.Cost(llm.Usage{InputTokens: 10, CachedInputTokens: 20}); math.Abs(got-10*0.5/1e6) > 1e-12 {
		t.Errorf("capped cost = %v", got)
	}
}

// TestProviderDefaults: a provider's defaults replace the built-in (OpenAI)
// ones only where the configuration did not set its own.
func TestProviderDefaults(t *testing.T) {
	t.Parallel()
	spec := ProviderSpec{Name: "x", Defaults: ProviderDefaults{BaseURL: "https://x.example/v1", Model: "x-1", KeyEnv: "X_KEY"}}
	cfg := config.Default()
	got := withProviderDefaults(spec, cfg).Model
	if got.BaseURL != "https://x.example/v1" || got.Name != "x-1" || got.APIKeyEnv != "X_KEY" {
		t.Errorf("defaults not applied: %+v", got)
	}
	cfg.Model.Name = "mine"
	cfg.Model.BaseURL = "http://127.0.0.1:9/v1"
	got = withProviderDefaults(spec, cfg).Model
	if got.BaseURL != "http://127.0.0.1:9/v1" || got.Name != "mine" || got.APIKeyEnv != "X_KEY" {
		t.Errorf("user settings overridden: %+v", got)
	}
}
