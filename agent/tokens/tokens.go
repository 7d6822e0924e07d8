// Package tokens sizes model requests: the context window of a model, the
// budget a mode's requests may fill before the conversation is compacted,
// and an estimate of a request's tokens by character class (calibrated per
// session by the usage the endpoint reports).
package tokens

import (
	"strings"
	"sync"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// DefaultContextWindow is the context window assumed for a model that is
// neither configured (model.context_window) nor in knownWindows: small
// enough for most local models.
const DefaultContextWindow = 32_768

// knownWindows are the context windows (tokens) of well-known model
// families, matched by the longest prefix of the model name (a routing
// prefix such as "openai/" is ignored). Sources: the providers' model pages
// (OpenAI platform docs, Anthropic docs, Google AI docs, the Meta, Mistral,
// Qwen and DeepSeek model cards), as of 2025; docs/sessions.md has the table.
var knownWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-5", 400_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-4o", 128_000},
	{"gpt-4-turbo", 128_000},
	{"gpt-4", 8_192},
	{"gpt-3.5-turbo", 16_385},
	{"o1", 200_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"claude", 200_000},
	{"gemini", 1_048_576},
	{"deepseek", 64_000},
	{"llama3.1", 131_072},
	{"llama-3.1", 131_072},
	{"llama3.2", 131_072},
	{"llama-3.2", 131_072},
	{"llama3.3", 131_072},
	{"llama-3.3", 131_072},
	{"llama3", 8_192},
	{"qwen2.5", 32_768},
	{"qwen3", 32_768},
	{"mistral-large", 131_072},
	{"codestral", 262_144},
	{"mistral", 32_768},
	// The scripted model (tests, `agentls demo`) has no window: as large as
	// the largest, so a transcript compacts only when it sets
	// model.context_window.
	{"scripted", 1_047_576},
}

// ContextWindow is the context window of model: configured when positive,
// else from knownWindows, else DefaultContextWindow.
func ContextWindow(model string, configured int) int {
	if configured > 0 {
		return configured
	}
	if tokens, ok := knownWindow(model); ok {
		return tokens
	}
	return DefaultContextWindow
}

// KnownWindow is model's window from knownWindows, if its family is there.
func KnownWindow(model string) (int, bool) { return knownWindow(model) }

// knownWindow is model's window from knownWindows, if its family is there.
func knownWindow(model string) (int, bool) {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, tokens := 0, 0
	for _, k := range knownWindows {
		if strings.HasPrefix(name, k.prefix) && len(k.prefix) > best {
			best, tokens = len(k.prefix), k.tokens
		}
	}
	return tokens, best > 0
}

// Budget is the token budget of a mode's model requests.
type Budget struct {
	Window  int // the model's context window
	Reserve int // kept free for the answer
	// Threshold is the share of Window-Reserve a request may fill before
	// compaction.
	Threshold float64
	// Reported, when set, says Window is what the endpoint reported and
	// where it was read (e.g. "llama.cpp /props").
	Reported string
}

// Limit is the size a request may have before it is compacted.
func (b Budget) Limit() int {
	return int(b.Threshold * float64(b.Window-b.Reserve))
}

// Reported is the context window an endpoint reported for model and where
// it read it (0: none).
type Reported func(model string) (tokens int, source string)

// ModelOf is the model mode's requests go to under cfg, or chosen (the
// session's own model; "" for none), and the context window the
// configuration gives it (0: none; model.context_window and
// plan_context_window are the configured models' windows, not a chosen
// one's).
func ModelOf(cfg config.Config, mode agentproto.Mode, chosen string) (model string, configured int) {
	model, configured = cfg.Model.Name, cfg.Model.ContextWindow
	if mode == agentproto.ModePlan && cfg.Model.PlanName != "" {
		model = cfg.Model.PlanName
		if cfg.Model.PlanContextWindow > 0 {
			configured = cfg.Model.PlanContextWindow
		}
	}
	if chosen != "" && chosen != model {
		return chosen, 0
	}
	return model, configured
}

// BudgetOf is the budget of mode's model under cfg, or of chosen (the
// session's own model; "" for none): its context window (configured, else
// the one the endpoint reported, else known, else DefaultContextWindow; a
// chosen model without a report or a known window has the configured
// model's), the answer's reserve (model.max_tokens, at most half the
// window) and the compaction threshold (compaction.threshold, 0.85 when
// unset or out of range). reported may be nil.
func BudgetOf(cfg config.Config, mode agentproto.Mode, chosen string, reported Reported) Budget {
	model, window := ModelOf(cfg, mode, chosen)
	source := ""
	if window == 0 && reported != nil {
		window, source = reported(model)
	}
	if window <= 0 {
		window, source = 0, ""
		if w, ok := knownWindow(model); ok {
			window = w
		}
	}
	if window == 0 {
		// A chosen model nobody knows: the configured one's window, the
		// best the user said.
		configuredModel, configured := ModelOf(cfg, mode, "")
		window = ContextWindow(configuredModel, configured)
	}
	reserve := cfg.Model.MaxTokens
	if reserve <= 0 || reserve > window/2 {
		reserve = min(8192, window/8)
	}
	threshold := cfg.Compaction.Threshold
	if threshold <= 0 || threshold > 1 {
		threshold = 0.85
	}
	return Budget{Window: window, Reserve: reserve, Threshold: threshold, Reported: source}
}

// EstimateText estimates the tokens of s by character class, the way BPE
// tokenizers (cl100k, o200k, Llama's) split text: a run of about four ASCII
// letters or digits is one token, punctuation is about one token per two
// characters, whitespace mostly merges into the next token, and every
// other character (accents, CJK, emoji) costs about one token. The result is
// calibrated by the usage the endpoint reports (agent's Session.calibrate).
func EstimateText(s string) float64 {
	if len(s) < memoMinLen {
		return countTokens(s)
	}
	textEstimates.Lock()
	v, ok := textEstimates.m[s]
	textEstimates.Unlock()
	if ok {
		return v
	}
	v = countTokens(s)
	textEstimates.Lock()
	if textEstimates.bytes+len(s) > memoMaxBytes {
		clear(textEstimates.m)
		textEstimates.bytes = 0
	}
	textEstimates.m[s] = v
	textEstimates.bytes += len(s)
	textEstimates.Unlock()
	return v
}

// textEstimates memoizes EstimateText for long strings. Every request
// estimates the whole history and the tool definitions again, and at turn
// 300 that byte-by-byte count was a fifth of the server's CPU; a map lookup
// hashes a string an order of magnitude faster than the count reads it.
// The map holds at most memoMaxBytes of strings (it is emptied when a new
// one would pass that), so it never keeps more than that alive.
var textEstimates = struct {
	sync.Mutex
	m     map[string]float64
	bytes int
}{m: map[string]float64{}}

const (
	memoMinLen   = 256      // shorter strings are counted each time
	memoMaxBytes = 16 << 20 // the memo's bound on the strings it keeps
)

// countTokens is EstimateText's count, without the memo: each byte counted
// in its class (byteClass), one table look-up a byte instead of a chain of
// comparisons (the count ran over every short string of the history at
// every request: a fifth of an estimate at turn 300).
func countTokens[T string | []byte](s T) float64 {
	// Four sets of counters, one per byte of each group of four: the
	// increments of neighbouring bytes do not wait for each other.
	var n [4][classes]int
	i := 0
	for ; i+4 <= len(s); i += 4 {
		n[0][byteClass[s[i]]]++
		n[1][byteClass[s[i+1]]]++
		n[2][byteClass[s[i+2]]]++
		n[3][byteClass[s[i+3]]]++
	}
	for ; i < len(s); i++ {
		n[0][byteClass[s[i]]]++
	}
	var c [classes]int
	for k := range n {
		for j := range c {
			c[j] += n[k][j]
		}
	}
	return float64(c[classAlnum])/4 + float64(c[classSpace])/8 + float64(c[classPunct])/2 + float64(c[classOther])
}

// The byte classes of countTokens.
const (
	classPunct    = iota // ASCII punctuation and control characters
	classAlnum           // ASCII letters and digits, '_'
	classSpace           // ' ', '\n', '\t', '\r'
	classOther           // the first byte of a multi-byte UTF-8 rune (and 0xF8-0xFF)
	classContinue        // a UTF-8 continuation byte (0x80-0xBF): its rune counted at its first byte
	classes
)

// byteClass is each byte's class.
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 0xC0:
			t[c] = classOther
		case c >= 0x80:
			t[c] = classContinue
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			t[c] = classSpace
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			t[c] = classAlnum
		default:
			t[c] = classPunct
		}
	}
	return t
}()

// EstimateMessage estimates one message: its text, its tool calls, and a
// few tokens of framing.
func EstimateMessage(m llm.Message) float64 {
	n := 4 + EstimateText(m.Content)
	// A reasoning model's thinking goes back with a message that called
	// tools, when its provider kept what it needs to send it (agent/openai:
	// DeepSeek must get it); otherwise it is only shown, never sent, and
	// counting it would skew the calibration.
	if m.Thinking != "" && len(m.ToolCalls) > 0 && len(m.ProviderState) > 0 {
		n += EstimateText(m.Thinking)
	}
	for _, c := range m.ToolCalls {
		n += 6 + EstimateText(c.Name) + EstimateText(c.Arguments)
	}
	return n
}

// EstimateRequest is the uncalibrated estimate of a request's prompt tokens.
func EstimateRequest(req llm.Request) float64 {
	n := EstimateFixed(req)
	for _, m := range req.Messages {
		n += EstimateMessage(m)
	}
	return n
}

// EstimateFixed is the uncalibrated estimate of a request's system prompt
// and tool definitions.
func EstimateFixed(req llm.Request) float64 {
	return 3 + EstimateText(req.System) + estimateTools(req.Tools)
}

// estimateTools is the estimate of tool definitions, memoized per tool set:
// every request is estimated about three times (before it is sent, when its
// usage calibrates the estimate, for the usage update) and offers the same
// tools, whose counting (and copying each schema into a string to look it
// up) was most of an estimate.
func estimateTools(specs []llm.ToolSpec) float64 {
	if len(specs) == 0 {
		return 0
	}
	n, _ := toolEstimates.Get(specs, func(specs []llm.ToolSpec) (float64, error) {
		n := 0.0
		for _, t := range specs {
			n += 8 + EstimateText(t.Name) + EstimateText(t.Description) + countTokens([]byte(t.Parameters))
		}
		return n, nil
	})
	return n
}

// toolEstimates memoizes estimateTools per tool set.
var toolEstimates llm.ToolSetMemo[float64]
