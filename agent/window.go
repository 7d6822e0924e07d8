package agent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
)

// retryShares are the sizes, as shares of the first request the endpoint
// refused as too long, that the retries of one model request are compacted
// to before the turn fails.
var retryShares = []float64{0.90, 0.75, 0.60}

// sameSize is how far apart two overflow sizes may be (a share of the
// larger) and still count as "at the same size": evidence of one window.
const sameSize = 0.10

// maxOverflows bounds the overflow sizes a session remembers.
const maxOverflows = 8

// learnedWindow is what overflow errors taught of one model's window.
type learnedWindow struct {
	// window, when set, is a context window smaller than the configured
	// one.
	window int
	// overflows are the last requests the endpoint refused as too long.
	overflows []overflow
	// cut says the window was learned from requests the endpoint cut
	// without an error (cutWindow), not from refusals.
	cut bool
}

// overflow is one request the endpoint refused as too long.
type overflow struct {
	size   int // its calibrated estimate (tokens)
	stated int // the window the endpoint stated, in the same units (statedWindow; 0: none)
}

// noteOverflow records that the endpoint refused a request of size tokens
// (calibrated estimate) to model (requestModel) as too long for its
// context window, stating the window stated (statedWindow; 0 when it did
// not). One refusal teaches nothing (an endpoint may fail spuriously); a
// second one at the same size (within sameSize of an earlier one), or
// stating the same window, shows the real window is smaller than assumed,
// and the model's window in this session becomes the smaller of the two
// sizes, or the window both stated (it only ever shrinks). Each model
// learns alone: a small plan model's overflows do not shrink the build
// model's window. It reports whether a window was learned.
func (s *Session) noteOverflow(model string, size, stated int) bool {
	if size <= 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.windows == nil {
		s.windows = map[string]*learnedWindow{}
	}
	lw := s.windows[model]
	if lw == nil {
		lw = &learnedWindow{}
		s.windows[model] = lw
	}
	learned := false
	for _, o := range lw.overflows {
		w := 0
		switch {
		case stated > 0 && o.stated > 0 && near(stated, o.stated):
			w = max(stated, o.stated)
		case near(size, o.size):
			w = min(size, o.size)
			if stated > 0 && o.stated > 0 {
				w = min(w, max(stated, o.stated))
			}
		default:
			continue
		}
		if lw.window == 0 || w < lw.window {
			lw.window, learned = w, true
		}
	}
	lw.overflows = append(lw.overflows, overflow{size, stated})
	if len(lw.overflows) > maxOverflows {
		lw.overflows = lw.overflows[1:]
	}
	return learned
}

// learned is the window overflows taught of model (0: none).
func (s *Session) learned(model string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lw := s.windows[model]; lw != nil {
		return lw.window
	}
	return 0
}

// learnedByCut reports whether the window of the model the session's
// requests go to in its current mode (as budget takes it) was learned from
// requests the endpoint cut without an error (noteCut).
func (s *Session) learnedByCut() bool {
	model := s.requestModel(s.State().Mode)
	s.mu.Lock()
	defer s.mu.Unlock()
	lw := s.windows[model]
	return lw != nil && lw.window > 0 && lw.cut
}

// cutShare is the share of a request's raw estimate under which the
// endpoint's count of it is no tokenizer's difference (estimates run from
// about 0.6 to 1.5 times the real count: calibrate keeps 0.5 to 4).
const cutShare = 0.5

// cutWindow reads the endpoint's count of a request's prompt tokens,
// reported, against the request's raw estimate: a count far below it and
// exactly what Ollama keeps of a prompt longer than its context length
// (num_ctx, a power of two in its defaults and as people set it) says the
// endpoint cut the prompt without an error — its start, the system prompt
// first — and the model answered the rest. Ollama keeps num_ctx tokens
// (older versions) or num_ctx/2+2 (newer ones). It returns num_ctx, the
// window that implies, or 0 when the count says no cut.
func cutWindow(reported int, raw float64) int {
	if reported <= 0 || float64(reported) >= cutShare*raw {
		return 0
	}
	for w := 1 << 11; w <= 1<<20; w <<= 1 { // 2048, Ollama's smallest default, to 1M
		if reported == w || reported == w/2+2 {
			return w
		}
	}
	return 0
}

// noteCut records that the endpoint cut a request of size tokens
// (calibrated estimate) to model to fit a window of window tokens
// (cutWindow): like a refusal stating that window (noteOverflow), so a
// second cut to the same window teaches it and later requests are
// compacted to fit it; the editor's log says so when it does.
func (s *Session) noteCut(ctx context.Context, model string, size, window int) {
	learned := s.noteOverflow(model, size, window)
	s.mu.Lock()
	if learned {
		s.windows[model].cut = true
	}
	s.mu.Unlock()
	slog.Warn("the endpoint cut the request's prompt without an error: its context window is smaller than the request", "session", s.meta.ID,
		"model", model, "estimate", size, "window", window, "learned", learned)
	if learned {
		s.m.notify(ctx, fmt.Sprintf("[compaction] session=%s the endpoint cut requests to fit a %d-token context window without an error (Ollama does so past its context length): requests are compacted to fit it from now on; give the model's server a larger context (OLLAMA_CONTEXT_LENGTH, num_ctx) and set model.context_window to it", s.meta.ID, window))
	}
}

// cutRemedy is what to change when the endpoint cut requests to fit window
// without an error (noteCut).
func cutRemedy(window int) string {
	return fmt.Sprintf("the endpoint cut longer requests to fit a %d-token window without an error (Ollama does so past its context length): give the model's server a larger context (OLLAMA_CONTEXT_LENGTH, or a Modelfile's num_ctx) and set model.context_window to it", window)
}

// reportedRemedy is what to change when the window that does not hold a
// request is the one the endpoint reported (askWindow): the server's
// context, since model.context_window cannot make it larger.
func reportedRemedy(b tokens.Budget) string {
	return fmt.Sprintf("the endpoint reports the model's context window as %d tokens (%s): start the model's server with a larger context (llama.cpp -c, LM Studio's context length, Ollama num_ctx or OLLAMA_CONTEXT_LENGTH), or use a model with a larger one", b.Window, b.Reported)
}

// near reports whether a and b are "the same size": within sameSize of
// the larger.
func near(a, b int) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return float64(d) <= sameSize*float64(max(a, b))
}

// statedWindow is the window an endpoint's overflow error stated (counts),
// in the units of size, the refused request's calibrated estimate: the
// window less the answer's tokens when the endpoint counted them, scaled
// by size over the request's tokens when it stated them (by at most
// maxStatedScale either way: a count far from the estimate is not this
// request's). 0 when it stated no window.
func statedWindow(counts llm.ContextCounts, size int) int {
	if counts.Window <= counts.Completion {
		return 0
	}
	w := float64(counts.Window - counts.Completion)
	if counts.Prompt > 0 && size > 0 {
		w *= min(max(float64(size)/float64(counts.Prompt), 1/maxStatedScale), maxStatedScale)
	}
	return int(w)
}

// maxStatedScale bounds statedWindow's scaling from the endpoint's count of
// a request to the session's estimate of it.
const maxStatedScale = 4.0

// statedTarget is the size a request must be compacted to for stated, the
// window an overflow error stated (statedWindow; 0: none, and so is the
// result): the session's budget on that window, which leaves the answer's
// reserve (an eighth of the window at most) unless the endpoint counted the
// answer's tokens already.
func (s *Session) statedTarget(counts llm.ContextCounts, stated int) int {
	if stated <= 0 {
		return 0
	}
	b := s.budget()
	b.Window = stated
	b.Reserve = min(b.Reserve, stated/8)
	if counts.Completion > 0 {
		b.Reserve = 0
	}
	return b.Limit()
}

// fixedTokens is the calibrated estimate of the part of req that no
// compaction shrinks: the system prompt (without the hand-off summary,
// which stands for history) and the tool definitions.
func (s *Session) fixedTokens(req llm.Request, summary string) int {
	return s.calibrated(fixedRaw(req, summary))
}

// fixedRaw is the raw (uncalibrated) estimate of req's fixed part: its
// system prompt without the hand-off summary, and its tool definitions.
func fixedRaw(req llm.Request, summary string) float64 {
	return max(tokens.EstimateFixed(req)-tokens.EstimateText(summary), 0)
}

// pinnedPlan is the part of a request's fixed part that plans pinned in its
// system prompt take: the approved plan in build mode, the plans being
// written in plan mode once turns are summarised.
type pinnedPlan struct {
	paths  []string
	tokens int // calibrated estimate
}

// pinnedPlan is the plans pinned in the session's next request, as
// buildRequest pins them (read again: it is used only when a request does
// not fit).
func (s *Session) pinnedPlan() pinnedPlan {
	mode := s.State().Mode
	s.mu.Lock()
	planFile, summary, phasePlans := s.meta.PlanFile, s.view.summary, sortedKeys(s.planPhase)
	s.mu.Unlock()
	if s.sub != nil {
		planFile = s.planFile()
	}
	var paths []string
	switch {
	case mode == agentproto.ModeBuild && planFile != "":
		paths = []string{planFile}
	case mode == agentproto.ModePlan && summary != "":
		paths = planningPaths(planFile, phasePlans)
	}
	var p pinnedPlan
	raw := 0.0
	for _, rel := range paths {
		if text, err := s.m.readPlanText(rel); err == nil {
			p.paths = append(p.paths, rel)
			raw += tokens.EstimateText(text)
		}
	}
	p.tokens = s.calibrated(raw)
	return p
}

// overBudgetError is the error of a request still over the limit after
// compaction. When the fixed part alone passes the limit no compaction can
// help: it says so, how much of it the pinned plan takes (plan; the part
// the user can shorten) and which setting to change; otherwise the turn's
// own messages are too long, and the error wraps llm.ErrContextExceeded so
// that the turn is set aside (turn.go).
//
// cut says the window was learned from prompts the endpoint cut without an
// error (noteCut): the remedy is then a larger context for the server.
func overBudgetError(size, fixed int, plan pinnedPlan, b tokens.Budget, limit int, cut bool) error {
	planPart, remedy := "", "set model.context_window to the server's real window (or use a model with a larger one)"
	switch {
	case cut:
		remedy = cutRemedy(b.Window)
	case b.Reported != "":
		remedy = reportedRemedy(b)
	}
	if plan.tokens > 0 && len(plan.paths) > 0 {
		planPart = fmt.Sprintf(", of which the plan %s, pinned whole in every request, takes about %d", strings.Join(plan.paths, ", "), plan.tokens)
		if fixed >= limit && fixed-plan.tokens < limit {
			remedy = "shorten the plan or split it into smaller plans, or " + remedy
		}
	}
	if fixed >= limit {
		return fmt.Errorf("the system prompt and the tool definitions alone are about %d tokens%s, over the %d-token request limit of the model's %d-token context window, so no compaction can make a request fit: %s",
			fixed, planPart, limit, b.Window, remedy)
	}
	return fmt.Errorf("the request is about %d tokens after compaction, over the %d-token limit of the model's %d-token context window (system prompt and tools: about %d%s): %w",
		size, limit, b.Window, fixed, planPart, llm.ErrContextExceeded)
}
