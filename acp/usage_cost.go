package acp

import (
	"sync"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
)

// modelPrice is a model's price per million tokens, in USD.
type modelPrice struct {
	InputPerMTok, OutputPerMTok float64
}

// priceOf looks up the configured model's price in the provider table
// (host/providers.go; cached input tokens are counted at the input price
// here). Tests replace it.
var priceOf = func(cfg config.Config) (modelPrice, bool) {
	p, ok := host.PriceOf(cfg.Model.Provider, cfg.Model.Name)
	if !ok {
		return modelPrice{}, false
	}
	return modelPrice{InputPerMTok: p.Input, OutputPerMTok: p.Output}, true
}

// sessionCosts adds up each session's spend on this connection (ACP's cost
// is the session's cumulative cost).
type sessionCosts struct {
	mu    sync.Mutex
	total map[string]float64
}

// add records one request's tokens at price and returns the session's total.
func (c *sessionCosts) add(sessionID string, inputTokens, outputTokens int, p modelPrice) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total == nil {
		c.total = map[string]float64{}
	}
	c.total[sessionID] += (float64(inputTokens)*p.InputPerMTok + float64(outputTokens)*p.OutputPerMTok) / 1e6
	return c.total[sessionID]
}

// usageCost is usage_update's cost.
type usageCost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}
