package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/slash"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agentproto"
)

// builtinCommand is a command agentls itself carries out, as the user's
// own act (the same rules as the agent/* method it stands for).
type builtinCommand struct {
	info agentproto.CommandInfo
	run  func(ctx context.Context, s *Session, args string) (commandOutcome, error)
}

// builtinCommands are the built-ins, in the order they are listed.
var builtinCommands = []builtinCommand{
	{agentproto.CommandInfo{Name: "plan", Description: "Switch to plan mode (only .plan files can change)"}, runPlanCommand},
	{agentproto.CommandInfo{Name: "build", Description: "Switch to build mode; approves a plan awaiting approval"}, runBuildCommand},
	{agentproto.CommandInfo{Name: "approve", Description: "Approve the plan awaiting approval and build it"}, runApproveCommand},
	{agentproto.CommandInfo{Name: "reject", Description: "Reject the plan awaiting approval; the planner revises it", Hint: "<reason>"}, runRejectCommand},
	{agentproto.CommandInfo{Name: "plans", Description: "List the plans of this workspace"}, runPlansCommand},
	{agentproto.CommandInfo{Name: "compact", Description: "Compact the conversation to free context"}, runCompactCommand},
	{agentproto.CommandInfo{Name: CommandNew, Description: "Start a new session"}, runNewCommand},
	{agentproto.CommandInfo{Name: "model", Description: "Show or set this session's model for its mode", Hint: "<model id>"}, runModelCommand},
	{agentproto.CommandInfo{Name: "init", Description: "Write a starter AGENTS.md for this project (build mode)", Hint: "[what to stress]"}, runInitCommand},
	{agentproto.CommandInfo{Name: "rewind", Description: "Restore the code as it was before the last turn (or before a message id)", Hint: "[message id]"}, runRewindCommand},
}

// builtinByName finds a built-in by its name.
var builtinByName = func() map[string]builtinCommand {
	out := make(map[string]builtinCommand, len(builtinCommands))
	for _, b := range builtinCommands {
		out[b.info.Name] = b
	}
	return out
}()

// noArgs refuses arguments to a command that takes none.
func noArgs(name, args string) error {
	if args != "" {
		return commandErrorf("/%s takes no argument", name)
	}
	return nil
}

func runPlanCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	return modeCommand(ctx, s, "plan", args)
}

func runBuildCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	return modeCommand(ctx, s, "build", args)
}

// modeCommand is /plan and /build: agent/setMode, the user's switch.
func modeCommand(ctx context.Context, s *Session, mode, args string) (commandOutcome, error) {
	if err := noArgs(mode, args); err != nil {
		return commandOutcome{}, err
	}
	info, err := s.m.SetMode(ctx, s.ID(), mode)
	if err != nil {
		return commandOutcome{}, err
	}
	answer := "Mode: " + string(info.Mode) + "."
	if info.PlanFile != nil && info.Mode == agentproto.ModeBuild {
		answer = fmt.Sprintf("Mode: build, with the plan %s.", *info.PlanFile)
	}
	return commandOutcome{answer: answer}, nil
}

// runApproveCommand is /approve: agent/resolvePlan "approve".
func runApproveCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	if err := noArgs("approve", args); err != nil {
		return commandOutcome{}, err
	}
	info, err := s.m.ResolvePlan(ctx, s.ID(), "approve", "")
	if err != nil {
		return commandOutcome{}, err
	}
	plan := ""
	if info.PlanFile != nil {
		plan = " " + *info.PlanFile
	}
	return commandOutcome{answer: fmt.Sprintf("Plan%s approved; mode: %s.", plan, info.Mode)}, nil
}

// runRejectCommand is /reject <reason>: agent/resolvePlan "reject".
func runRejectCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	if args == "" {
		return commandOutcome{}, commandErrorf("/reject needs a reason: /reject <what to change>")
	}
	if _, err := s.m.ResolvePlan(ctx, s.ID(), "reject", args); err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{answer: "Plan rejected; the planner revises it."}, nil
}

// runPlansCommand is /plans: agent/listPlans, as text.
func runPlansCommand(_ context.Context, s *Session, args string) (commandOutcome, error) {
	if err := noArgs("plans", args); err != nil {
		return commandOutcome{}, err
	}
	plans, total, err := s.m.ListPlans("", 50)
	if err != nil {
		return commandOutcome{}, err
	}
	if total == 0 {
		return commandOutcome{answer: fmt.Sprintf("No plans in %s yet.", s.m.plansDir())}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plans (%d of %d, newest first):", len(plans), total)
	for _, p := range plans {
		title := p.Title
		if title == "" {
			title = "(untitled)"
		}
		status := p.Status
		if p.Error != "" {
			status = "cannot be read: " + p.Error
		}
		fmt.Fprintf(&b, "\n- %s — %s [%s, %d/%d steps]", p.Path, textline.OneLine(title), status, p.StepsDone, p.StepsTotal)
	}
	return commandOutcome{answer: b.String()}, nil
}

// runCompactCommand is /compact: agent/compact.
func runCompactCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	if err := noArgs("compact", args); err != nil {
		return commandOutcome{}, err
	}
	res, err := s.m.Compact(ctx, s.ID())
	if err != nil {
		return commandOutcome{}, err
	}
	if !res.Compacted {
		return commandOutcome{answer: fmt.Sprintf("Nothing to compact yet (about %d tokens of context).", res.ContextTokens)}, nil
	}
	return commandOutcome{answer: fmt.Sprintf("Compacted the conversation: about %d tokens of context now.", res.ContextTokens)}, nil
}

// runNewCommand is /new: agent/newSession in the configured default mode.
func runNewCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	if err := noArgs(CommandNew, args); err != nil {
		return commandOutcome{}, err
	}
	info, err := s.m.NewSession(ctx, "", "")
	if err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{answer: fmt.Sprintf("New %s session %s.", info.Mode, info.SessionID), newSession: info.SessionID}, nil
}

// runModelCommand is /model [id]: without an argument it shows the model of
// the session's mode and the choices; with one it sets this session's model
// for its current mode, in memory, to one of the configured models
// (model.name, model.plan_name).
func runModelCommand(_ context.Context, s *Session, args string) (commandOutcome, error) {
	cfg := s.m.config().Model
	var choices []string
	for _, n := range []string{cfg.Name, cfg.PlanName} {
		if n != "" && !slices.Contains(choices, n) {
			choices = append(choices, n)
		}
	}
	mode := s.State().Mode
	if args == "" {
		return commandOutcome{answer: fmt.Sprintf("Model in %s mode: %s. The configured models are %s; choose with /model <id>.",
			mode, s.modelName(mode), strings.Join(choices, ", "))}, nil
	}
	if !slices.Contains(choices, args) {
		return commandOutcome{}, commandErrorf("/model: %q is not a configured model; the configured models are %s (configure others in .agentls.yaml: model.name, model.plan_name)",
			slash.QuoteName(args), strings.Join(choices, ", "))
	}
	if err := s.setModel(mode, args); err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{answer: fmt.Sprintf("Model in %s mode for this session: %s (the configuration is unchanged).", mode, args)}, nil
}

// modelName is the model the session's requests in mode name: its /model
// choice, else the configured one.
func (s *Session) modelName(mode agentproto.Mode) string {
	if name := s.chosenModel(mode); name != "" {
		return name
	}
	cfg := s.m.config().Model
	if mode == agentproto.ModePlan && cfg.PlanName != "" {
		return cfg.PlanName
	}
	return cfg.Name
}

// chosenModel is the session's /model choice for mode ("" for none).
// Plan mode without a model of its own (the session's or model.plan_name)
// takes the session's build model, as it takes model.name.
func (s *Session) chosenModel(mode agentproto.Mode) string {
	planName := s.m.config().Model.PlanName
	s.mu.Lock()
	defer s.mu.Unlock()
	if mode == agentproto.ModePlan && (s.meta.PlanModel != "" || planName != "") {
		return s.meta.PlanModel
	}
	return s.meta.BuildModel
}

// initPrompt is /init's message to the agent in build mode.
const initPrompt = "The user ran /init: write a starter AGENTS.md at the workspace root for coding agents working on this project. " +
	"First read what is there (README, build and test files, the layout of the source folders, any existing AGENTS.md or CLAUDE.md). " +
	"Then write short, concrete instructions: how to build, test and lint; the project's conventions; where the main parts live; what to avoid. " +
	"If AGENTS.md exists, improve it and keep what the user wrote. Write it with your file tools; change nothing else."

// runInitCommand is /init: in build mode a prompt asking the agent to
// write AGENTS.md with its normal (guarded) tools; in plan mode an answer
// that it needs build mode.
func runInitCommand(_ context.Context, s *Session, args string) (commandOutcome, error) {
	if s.State().Mode != agentproto.ModeBuild {
		return commandOutcome{answer: "/init writes AGENTS.md and needs build mode: switch with /build, then run /init again."}, nil
	}
	prompt := initPrompt
	if args != "" {
		prompt += "\n\nThe user adds: " + args
	}
	return commandOutcome{prompt: prompt}, nil
}

// runRewindCommand is /rewind [message id]: the workspace's files as they
// were before the given user message, or before the last turn's prompt
// (code only: the conversation stays; agent/rewind rewinds it too).
func runRewindCommand(ctx context.Context, s *Session, args string) (commandOutcome, error) {
	to := strings.TrimSpace(args)
	if to == "" {
		msgs := s.Messages()
		for i := len(msgs) - 1; i >= 0 && to == ""; i-- {
			if msgs[i].Role == llm.RoleUser && msgs[i].ID != "" {
				to = msgs[i].ID
			}
		}
		if to == "" {
			return commandOutcome{answer: "Nothing to rewind yet: this session has no earlier turn."}, nil
		}
	}
	res, err := s.m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: "code"})
	if err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{answer: rewindSummary(to, res)}, nil
}

// rewindSummary says what a code rewind did, in a few lines.
func rewindSummary(to string, res agentproto.RewindResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Rewound the code to before message %s: %d file(s) restored", to, len(res.Restored))
	if len(res.Skipped) > 0 {
		fmt.Fprintf(&b, ", %d skipped (%s)", len(res.Skipped), strings.Join(res.Skipped, ", "))
	}
	b.WriteString(".")
	for _, c := range res.Conflicts {
		fmt.Fprintf(&b, "\nLeft alone (changed since): %s — %s", c.Path, c.Reason)
	}
	if res.UndoMessageID != "" {
		fmt.Fprintf(&b, "\nTo undo: /rewind %s", res.UndoMessageID)
	}
	return b.String()
}
