package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/agentkinds"
	"github.com/agentls/agentls/agent/fence"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/sessionstore"
)

// The statuses of a task result.
const (
	taskCompleted       = "completed"
	taskBudgetExhausted = "budget_exhausted"
	taskCancelled       = "cancelled"
	taskError           = "error"
)

var _ tools.TaskRunner = (*env)(nil)

// RunTask runs a task call: a sub-agent of the kind asked for, as a child
// session of this one (docs/subagents.md).
func (e *env) RunTask(ctx context.Context, req tools.TaskRequest) (tools.Result, error) {
	return e.s.runTask(ctx, ToolCallID(ctx), req)
}

// runTask checks the request against the kinds, the depth and the mode,
// waits for a slot, starts the child, runs its turn and returns its answer
// fenced as data. wireCall is the task call's id as the root's stream
// shows it.
func (s *Session) runTask(ctx context.Context, wireCall string, req tools.TaskRequest) (tools.Result, error) {
	m := s.m
	cfg := m.subagentLimits()
	kinds := m.kinds()
	k, ok := kinds[req.Kind]
	if !ok {
		return tools.Failf("unknown sub-agent kind %q; the kinds are: %s", req.Kind, agentkinds.Names(kinds)), nil
	}
	depth := 1
	var parentGrant *guard.Grant
	if s.sub != nil {
		depth, parentGrant = s.sub.depth+1, s.sub.grant
	}
	maxDepth := cfg.MaxDepth
	if depth > maxDepth {
		return tools.Failf("task refused: sub-agents may nest %d level(s) deep (subagents.max_depth), and this would be level %d", maxDepth, depth), nil
	}
	if k.Base == agentkinds.Build {
		if st := s.State(); st.Mode != agentproto.ModeBuild || m.planOnly != "" {
			return tools.Refused(buildTaskRefusal(st)), nil
		}
	}
	root := s.rootSession()
	if k.Base != agentkinds.Build || s.sub == nil || s.sub.kind.Base != agentkinds.Build {
		// A build child's own build task runs while it waits on the call:
		// still one build at a time, and it holds the slot already.
		release, err := root.tree.acquire(ctx, k.Base, cfg.MaxParallel)
		if err != nil {
			return tools.Result{}, err
		}
		defer release()
	}
	if k.Base == agentkinds.Build {
		// The mode may have changed while the task waited for its slot.
		if st := s.State(); st.Mode != agentproto.ModeBuild {
			return tools.Refused(buildTaskRefusal(st)), nil
		}
	}
	grant := agentkinds.ToolsOf(s.tools(), k, parentGrant, depth < maxDepth)
	maxTurns := cfg.MaxTurns
	if k.MaxTurns > 0 {
		maxTurns = min(maxTurns, k.MaxTurns)
	}
	if req.MaxTurns > 0 {
		maxTurns = min(maxTurns, req.MaxTurns)
	}
	callID := s.rawCallID(wireCall)
	link := &subLink{root: root, parent: s, kind: k, key: s.childKey(callID, k.Name), depth: depth,
		callID: callID, parentWire: wireCall, grantTools: grant, maxTurns: max(maxTurns, 1), maxTokens: max(cfg.MaxTokens, 1)}
	meta := sessionstore.Meta{Title: k.Name + ": " + textline.FirstRunes(textline.OneLine(req.Prompt), 60), Mode: string(s.State().Mode),
		ParentID: s.meta.ID, ParentToolCallID: callID, Kind: k.Name}
	child, err := m.createSessionOf(meta, link)
	if err != nil {
		return tools.Failf("the sub-agent could not start: %v", err), nil
	}
	s.record(chatRecord{Record: recordSubagent, ToolCallID: callID, Child: child.meta.ID})
	slog.Info("sub-agent started", "session", s.meta.ID, "child", child.meta.ID, "kind", k.Name, "key", link.key, "tools", grant)
	res := child.runChild(ctx, taskPrompt(req))
	slog.Info("sub-agent ended", "child", child.meta.ID, "status", res.Status, "turns", res.Turns, "tokens", res.Tokens)
	return tools.OK(res), nil
}

// runChild runs the child's one turn on prompt and makes its result.
func (c *Session) runChild(ctx context.Context, prompt string) tools.TaskResult {
	link := c.sub
	cctx, release, err := c.begin(ctx)
	if err != nil {
		return tools.TaskResult{Status: taskError, Answer: fence.Wrap("subagent-error", err.Error()), Session: c.meta.ID}
	}
	c.append(llm.Message{Role: llm.RoleUser, Content: prompt})
	res := c.endTurn(c.runPersisted(cctx))
	release()
	out := tools.TaskResult{Turns: int(link.turns.Load()), Tokens: int(link.tokens.Load()), Session: c.meta.ID}
	text := res.Text
	switch res.StopReason {
	case agentproto.StopEndTurn:
		out.Status = taskCompleted
		if text == "" {
			text = "(the sub-agent ended without an answer)"
		}
		out.Answer = fence.Wrap("subagent-answer", text)
		return out
	case agentproto.StopMaxTurnRequests:
		out.Status = taskBudgetExhausted
		why := link.exhausted()
		if why == "" {
			why = "it used its budget"
		}
		out.Answer = fence.Wrap("subagent-partial", partialAnswer(why, text))
	case agentproto.StopCancelled:
		out.Status = taskCancelled
		out.Answer = fence.Wrap("subagent-partial", partialAnswer("it was cancelled", text))
	case agentproto.StopMaxTokens:
		out.Status = taskError
		out.Answer = fence.Wrap("subagent-partial", partialAnswer("the model's output token limit cut its answer off", text))
	default:
		out.Status = taskError
		why := string(res.StopReason)
		if res.Err != nil {
			why = res.Err.Error()
		}
		out.Answer = fence.Wrap("subagent-partial", partialAnswer("it failed: "+why, text))
	}
	return out
}

// partialAnswer marks a sub-agent's last text as a partial answer.
func partialAnswer(why, text string) string {
	if text == "" {
		text = "(no answer yet)"
	}
	return "PARTIAL ANSWER: the sub-agent stopped before it finished (" + why + "). What it had said last:\n\n" + text
}

// taskPrompt is the child's first message: the parent's prompt and, for a
// build child, the steps it carries out.
func taskPrompt(req tools.TaskRequest) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(req.Prompt))
	if len(req.Steps) > 0 {
		b.WriteString("\n\nCarry out these steps of the approved plan, in order:\n")
		for i, st := range req.Steps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, textline.OneLine(st))
		}
	}
	return b.String()
}

// buildTaskRefusal refuses a build sub-agent outside build mode, as the
// guard refuses any change in plan mode.
func buildTaskRefusal(st guard.State) *guard.Refusal {
	r := &guard.Refusal{ToolName: agentkinds.TaskTool, ToolKind: guard.KindOther, EnteredReason: st.EnteredReason,
		Hint: "a build sub-agent runs only in build mode; while planning, use explore sub-agents"}
	if !st.EnteredAt.IsZero() {
		r.EnteredAt = st.EnteredAt.UTC().Format(time.RFC3339)
	}
	return r
}

// rawCallID is the id of the call in s's own history for the id its stream
// shows (a sub-agent's carry its short id).
func (s *Session) rawCallID(wire string) string {
	if s.sub == nil {
		return wire
	}
	return strings.TrimPrefix(wire, s.sub.short+"/")
}

// childKey names the child of s's task call callID of kind: "<kind>-<n>"
// where n counts the task calls of that kind in s's history up to this
// one, so that parallel children of one step get the order of their calls
// (and a scripted model's sections replay deterministically); below
// another child, the parent's key comes first ("build-1/explore-1").
func (s *Session) childKey(callID, kind string) string {
	n := 0
	s.mu.Lock()
	msgs := s.messages
	s.mu.Unlock()
	found := false
	for _, msg := range msgs {
		for _, c := range msg.ToolCalls {
			if c.Name != agentkinds.TaskTool {
				continue
			}
			var a struct {
				Kind string `json:"kind"`
			}
			if json.Unmarshal([]byte(c.Arguments), &a) == nil && strings.TrimSpace(a.Kind) == kind {
				n++
			}
			if c.ID == callID {
				found = true
				break
			}
		}
		if found {
			break
		}
	}
	key := fmt.Sprintf("%s-%d", kind, max(n, 1))
	if s.sub != nil {
		key = s.sub.key + "/" + key
	}
	return key
}

// subagentLimits is subagents.* in force, a zero value read as its default
// (a configuration built without config.Default).
func (m *Manager) subagentLimits() config.Subagents {
	c, d := m.config().Subagents, config.Default().Subagents
	if c.MaxParallel <= 0 {
		c.MaxParallel = d.MaxParallel
	}
	if c.MaxDepth < 0 {
		c.MaxDepth = d.MaxDepth
	}
	if c.MaxTurns <= 0 {
		c.MaxTurns = d.MaxTurns
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = d.MaxTokens
	}
	return c
}
