package acp

import "github.com/agentls/agentls/config"

// OutQueueLen is outQueueLen, for the stalled-client test.
const OutQueueLen = outQueueLen

// SetPriceForTest makes every model cost in and out USD per million
// tokens (until the returned function restores the lookup).
func SetPriceForTest(in, out float64) func() {
	old := priceOf
	priceOf = func(config.Config) (modelPrice, bool) { return modelPrice{InputPerMTok: in, OutputPerMTok: out}, true }
	return func() { priceOf = old }
}
