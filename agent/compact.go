package agent

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
)

//go:embed prompts/summarize.md
var summarizePrompt string

// Shares of the compaction limit kept verbatim at the end of the history:
// normally, and when the endpoint said the request was too long anyway.
const (
	keepRecentShare     = 0.35
	keepRecentShareHard = 0.15
)

// maxFixedShare is the largest share of the request limit the calibration
// may make a request's fixed part (system prompt and tools) count for.
const maxFixedShare = 0.9

// summaryCharsPerToken bounds the transcript sent for a summary: at most
// this many characters per token of the limit (a cautious ratio).
const summaryCharsPerToken = 3

// compaction is what one compaction did.
type compaction struct {
	before, after int
	stubbed       int       // tool results newly stubbed
	summarised    int       // messages newly summarised
	used          llm.Usage // the summary request's
}

func (c compaction) done() bool { return c.stubbed > 0 || c.summarised > 0 }

// Compact compacts a session's history on request (agent/compact): old tool
// results are stubbed and older turns summarised, whatever the budget. A
// session whose turn runs is ErrBusy.
func (m *Manager) Compact(ctx context.Context, id string) (agentproto.CompactResult, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.CompactResult{}, err
	}
	ctx, release, err := s.begin(ctx)
	if err != nil {
		return agentproto.CompactResult{}, err
	}
	defer release()
	c, err := s.compact(ctx, keepRecentShare, true, 0)
	if err != nil {
		return agentproto.CompactResult{}, err
	}
	return agentproto.CompactResult{Compacted: c.done(), ContextTokens: c.after}, nil
}

// compactIfNeeded compacts when req, the next request, passes the budget,
// and returns the request to send (rebuilt after a compaction), the
// mode-change notice it carries and its raw (uncalibrated) estimate, which
// the caller reuses for the calibration and the usage update instead of
// estimating the same request again. A request still over the budget after
// compaction is not sent: the error says why (overBudgetError).
func (s *Session) compactIfNeeded(ctx context.Context, req llm.Request, notice string) (llm.Request, string, float64, error) {
	b := s.budget()
	limit := b.Limit()
	raw := tokens.EstimateRequest(req)
	if s.calibrated(raw) <= limit {
		return req, notice, raw, nil
	}
	c, err := s.compact(ctx, keepRecentShare, false, limit)
	if err != nil {
		if ctx.Err() != nil {
			return req, notice, raw, ctx.Err()
		}
		slog.Warn("compaction failed", "session", s.meta.ID, "err", err)
	}
	if c.done() {
		req, notice = s.buildRequest()
		raw = tokens.EstimateRequest(req)
	}
	if size := s.calibrated(raw); size > limit {
		s.mu.Lock()
		summary := s.view.summary
		s.mu.Unlock()
		return req, notice, raw, overBudgetError(size, s.fixedTokens(req, summary), s.pinnedPlan(), b, limit, s.learnedByCut())
	}
	return req, notice, raw, nil
}

// compact makes the model's view of the history smaller, until the next
// request fits limit (0: the budget's): first the bodies of old tool
// results become one-line stubs, then, if still over (or nothing was
// stubbed, or summarise is set), the older turns are replaced by a hand-off
// summary the model writes, and if the request is still over, every tool
// result left is stubbed too (a single huge result of the last step). The
// part of the limit the history may use is what the fixed part (system
// prompt and tools) leaves; the most recent messages (keep of that part)
// stay verbatim, and so does the attached plan (pinned in the system
// prompt). The current turn's prompt (the last user message) is never
// summarised. The mode, pending questions and approvals are not touched;
// the history is not rewritten (compaction records are appended).
func (s *Session) compact(ctx context.Context, keep float64, summarise bool, limit int) (compaction, error) {
	b := s.budget()
	if limit <= 0 {
		limit = b.Limit()
	}
	c := compaction{before: s.contextTokens()}
	c.after = c.before
	s.mu.Lock()
	msgs := s.messages
	v := s.view
	s.mu.Unlock()
	history := max(limit-s.fixedTokens(s.modelRequest(), v.summary), 0)
	keepFrom := recentStart(msgs, v, int(keep*float64(history)))
	prompt := lastUser(msgs)

	// 1. Stub old tool results.
	if keepFrom > v.stubBefore {
		if n := v.countStubbable(msgs, v.stubBefore, keepFrom); n > 0 {
			s.record(chatRecord{Record: recordCompaction, StubBefore: keepFrom, SummaryUpto: v.summaryUpto, Summary: v.summary,
				TokensBefore: c.before})
			c.stubbed = n
			c.after = s.contextTokens()
			v.stubBefore = keepFrom
		}
	}
	if c.after > limit || !c.done() || summarise {
		// 2. Summarise the older turns, never the current prompt: the
		// cut is at the prompt at the latest, or, when the running turn
		// alone does not fit, at one of its steps, the prompt pinned
		// before the steps kept (viewState.pinnedPrompt).
		end := min(keepFrom, prompt)
		if keepFrom > prompt && (v.summaryUpto >= prompt || turnTooLong(msgs, v, prompt, history)) {
			end = keepFrom
		}
		cut := summaryCut(msgs, v.summaryUpto, end)
		if cut > v.summaryUpto {
			summary, used := s.summarise(ctx, &v, v.visible(msgs, v.summaryUpto, cut), v.summary, max(history, limit/5))
			c.used = used
			if ctx.Err() != nil {
				return c, ctx.Err()
			}
			s.record(chatRecord{Record: recordCompaction, StubBefore: max(v.stubBefore, cut), SummaryUpto: cut, Summary: summary,
				TokensBefore: c.before})
			c.summarised = cut - v.summaryUpto
			c.after = s.contextTokens()
			v.stubBefore, v.summaryUpto, v.summary = max(v.stubBefore, cut), cut, summary
		}
	}
	if c.after > limit && len(msgs) > v.stubBefore {
		// 3. Stub every tool result left, the last step's too: a single
		// huge result goes before the request is given up.
		if n := v.countStubbable(msgs, v.stubBefore, len(msgs)); n > 0 {
			s.record(chatRecord{Record: recordCompaction, StubBefore: len(msgs), SummaryUpto: v.summaryUpto, Summary: v.summary,
				TokensBefore: c.before})
			c.stubbed += n
			c.after = s.contextTokens()
		}
	}
	if c.done() {
		s.m.notify(ctx, fmt.Sprintf("[compaction] session=%s context %d → %d tokens (limit %d of a %d-token window): %d old tool results stubbed, %d messages summarised",
			s.meta.ID, c.before, c.after, limit, b.Window, c.stubbed, c.summarised))
	}
	if c.done() || c.used != (llm.Usage{}) {
		// The summary request's tokens count like a turn's (ACP's cost).
		s.m.notes.Update(ctx, s.meta.ID, agentproto.UsageUpdate{SessionUpdate: "usage_update", ContextTokens: c.after, ContextWindow: b.Window,
			InputTokens: c.used.InputTokens, OutputTokens: c.used.OutputTokens})
	}
	return c, nil
}

// lastUser is the index of the last user message (the running turn's
// prompt), or len(msgs) when there is none.
func lastUser(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return i
		}
	}
	return len(msgs)
}

// recentStart is the index from which messages are kept verbatim: the
// shortest tail holding at least keepTokens (estimated), and at least the
// last step (the last assistant message and its results).
func recentStart(msgs []llm.Message, v viewState, keepTokens int) int {
	lastStep := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant || msgs[i].Role == llm.RoleUser {
			lastStep = i
			break
		}
	}
	sum := 0.0
	i := len(msgs)
	for i > 0 && sum < float64(keepTokens) {
		i--
		if !v.setAside(i) {
			sum += tokens.EstimateMessage(msgs[i])
		}
	}
	return min(i, lastStep)
}

// countStubbable counts the tool results and tool calls (their long
// arguments) in msgs[from:to] that a stub shortens (the person's answers and sub-agents' answers are kept whole:
// keptWhole).
func (v *viewState) countStubbable(msgs []llm.Message, from, to int) int {
	n := 0
	for _, m := range msgs[from:to] {
		if m.Role == llm.RoleTool && len(m.Content) >= stubMinBytes && !v.keptWhole(m) {
			n++
		}
		n += countStubbableCalls(m)
	}
	return n
}

// turnTooLong reports whether the turn that starts at prompt, as the model
// would see it with everything before it summarised, passes history (the
// tokens the fixed part leaves) with the current summary.
func turnTooLong(msgs []llm.Message, v viewState, prompt, history int) bool {
	v.summaryUpto, v.stubBefore = prompt, max(v.stubBefore, prompt)
	v.stubs = nil // a copy's own cache, not the session's
	out, _, _ := v.view(msgs)
	n := tokens.EstimateText(v.summary)
	for _, m := range out {
		n += tokens.EstimateMessage(m)
	}
	return n > float64(history)
}

// summaryCut is where the summarised part ends: the last user message in
// (from, keepFrom], else the last assistant message there (a step's start),
// so that no tool result is cut from its call. It returns from when there
// is none.
func summaryCut(msgs []llm.Message, from, keepFrom int) int {
	keepFrom = min(keepFrom, len(msgs))
	for _, role := range []llm.Role{llm.RoleUser, llm.RoleAssistant} {
		for i := keepFrom; i > from; i-- {
			if i < len(msgs) && msgs[i].Role == role {
				return i
			}
		}
	}
	return from
}

// summarise asks the model for a hand-off summary of msgs (which follow the
// earlier summary prev), rendered as v shows them. When the model cannot give one, a summary made of
// the user's messages and the tools called stands in. used is the
// request's usage (the endpoint bills it).
func (s *Session) summarise(ctx context.Context, v *viewState, msgs []llm.Message, prev string, limit int) (summary string, used llm.Usage) {
	transcript := v.renderTranscript(msgs, prev, limit*summaryCharsPerToken/2)
	req := llm.Request{
		System:   summarizePrompt,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: transcript}},
		Model:    s.requestModel(s.State().Mode), // the model the turns go to
	}
	resp, err := s.m.Provider().Complete(ctx, req, nil)
	used = resp.Usage // billed whether or not it is used
	text := strings.TrimSpace(resp.Message.Content)
	if err == nil && text != "" {
		return capSummary(text, limit), used
	}
	if err == nil {
		err = errors.New("the model answered with no text")
	}
	if ctx.Err() == nil {
		slog.Warn("the model could not summarise the conversation; using a plain summary", "session", s.meta.ID, "err", err)
	}
	return capSummary(v.plainSummary(msgs, prev), limit), used
}

// capSummary keeps a summary within a fifth of the limit (about four
// characters a token), cutting its middle.
func capSummary(text string, limit int) string {
	maxChars := max(limit*4/5, 2000)
	if len(text) <= maxChars {
		return text
	}
	head := maxChars / 2
	return strings.ToValidUTF8(text[:head]+"\n[… cut …]\n"+text[len(text)-(maxChars-head):], "")
}

// renderTranscript renders msgs as text for the summariser, within about
// maxChars: each message is cut to a few thousand characters, tool results
// to a line (those never stubbed, keptWhole, like messages), and when the
// whole is still too long its middle is left out.
func (v *viewState) renderTranscript(msgs []llm.Message, prev string, maxChars int) string {
	var b strings.Builder
	if prev != "" {
		b.WriteString("## Summary of the conversation before this part\n\n")
		b.WriteString(prev)
		b.WriteString("\n\n## The conversation since\n\n")
	}
	calls := callsByID(msgs)
	for _, m := range msgs {
		switch {
		case v.keptWhole(m):
			fmt.Fprintf(&b, "[tool result %s, kept whole] %s\n\n", m.Name, excerpt(m.Content, 4000))
		case m.Role == llm.RoleTool:
			fmt.Fprintf(&b, "[tool result %s] %s\n\n", m.Name, excerpt(textline.OneLine(v.stubResult(m, calls[m.ToolCallID], true)), 400))
		default:
			if m.Content != "" {
				fmt.Fprintf(&b, "[%s] %s\n\n", m.Role, excerpt(m.Content, 4000))
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "[%s calls %s] %s\n\n", m.Role, c.Name, excerpt(textline.OneLine(c.Arguments), 400))
			}
		}
	}
	out := b.String()
	if maxChars > 0 && len(out) > maxChars {
		head := maxChars / 3
		out = out[:head] + "\n\n[… the middle of the conversation is left out …]\n\n" + out[len(out)-(maxChars-head):]
	}
	return strings.ToValidUTF8(out, "")
}

// plainSummary is the stand-in summary when the model gives none: the
// earlier summary, the user's messages, the tools that were called and the
// results never stubbed (keptWhole: the person's and sub-agents' answers).
func (v *viewState) plainSummary(msgs []llm.Message, prev string) string {
	var b strings.Builder
	b.WriteString("(The model could not summarise this part; these are its user messages and tool calls.)\n")
	if prev != "" {
		b.WriteString("\nEarlier summary:\n")
		b.WriteString(prev)
		b.WriteString("\n")
	}
	b.WriteString("\nUser messages:\n")
	for _, m := range msgs {
		if m.Role == llm.RoleUser {
			fmt.Fprintf(&b, "- %s\n", excerpt(textline.OneLine(m.Content), 500))
		}
	}
	b.WriteString("\nTool calls:\n")
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "- %s %s\n", c.Name, excerpt(textline.OneLine(c.Arguments), 160))
		}
	}
	for _, m := range msgs {
		if v.keptWhole(m) {
			fmt.Fprintf(&b, "\nResult of %s (kept whole):\n%s\n", m.Name, excerpt(m.Content, 4000))
		}
	}
	return b.String()
}

// contextTokens estimates the tokens of the next request, calibrated by the
// usage the endpoint reported.
func (s *Session) contextTokens() int {
	return s.calibrated(tokens.EstimateRequest(s.modelRequest()))
}

// calibrated applies the session's calibration to a raw estimate.
func (s *Session) calibrated(raw float64) int {
	s.mu.Lock()
	f := s.calib
	s.mu.Unlock()
	if f == 0 {
		f = 1
	}
	return int(raw*f + 0.5)
}

// calibrate records the ratio of the prompt tokens the endpoint reported
// for req to raw, its raw estimate (tokens.EstimateRequest). Every report
// is smoothed, the first one too (from 1: one odd report, a gateway adding
// a retried attempt's tokens, moves the calibration halfway), the ratio is
// kept within [0.5, 4], and the calibration never makes req's fixed part
// (system prompt and tools, which no compaction shrinks) pass
// maxFixedShare of the request limit: a calibration that did would refuse
// every later request before it is sent, and so never hear the usage
// report that would correct it. A fixed part really over the limit is
// then learned from the endpoint's overflow errors (window.go).
func (s *Session) calibrate(req llm.Request, raw float64, reported int) {
	if reported <= 0 {
		return
	}
	if raw <= 0 {
		return
	}
	r := min(max(float64(reported)/raw, 0.5), 4)
	limit := float64(s.budget().Limit())
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.calib
	if prev == 0 {
		prev = 1
	}
	f := 0.5*prev + 0.5*r
	if fixed := fixedRaw(req, s.view.summary); fixed > 0 && f*fixed > maxFixedShare*limit {
		// Capped, but never lower than the estimate itself or what was
		// learned before, because of a higher report.
		f = min(f, max(maxFixedShare*limit/fixed, min(prev, 1)))
	}
	s.calib = f
}
