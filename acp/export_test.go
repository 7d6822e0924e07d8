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

// TrackPromptIDsForTest calls f, as each later connection starts, with a
// count of the prompt ids that connection keeps (promptIDs.tracked);
// restore undoes it. The caller must not run in parallel.
func TrackPromptIDsForTest(f func(tracked func() int)) (restore func()) {
	wireServed = func(w *wire) { f(w.prompts.tracked) }
	return func() { wireServed = nil }
}
