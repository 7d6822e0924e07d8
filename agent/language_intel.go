package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/problemtext"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// LanguageIntel is the language intelligence the agent reads
// (docs/language-intel.md): the editor's, asked over agent/diagnostics and
// agent/navigate (server), or agentls's own pool of language servers
// (langpool). The faces pick one and give it in Options.LanguageIntel.
type LanguageIntel = intel.Source

// LanguageIntel is the session's source of language intelligence
// (tools.IntelEnv), nil when none serves.
func (e *env) LanguageIntel() intel.Source { return e.s.m.intel }

// intelState is one session's memory of diagnostics: the baseline of each
// file taken when the session first touched it (carried through every
// edit since), the files changed since the last tick (or approval), and
// the changes of each running tool call.
type intelState struct {
	mu        sync.Mutex
	baseline  map[string][]intel.Diagnostic
	stepFiles map[string]bool
	calls     map[string][]workspace.Change
	lastMode  agentproto.Mode
}

// intelState is the session's state, made on first use.
func (s *Session) intelState() *intelState {
	v, _ := s.m.intelStates.LoadOrStore(s.meta.ID, &intelState{
		baseline: map[string][]intel.Diagnostic{}, stepFiles: map[string]bool{}, calls: map[string][]workspace.Change{},
	})
	return v.(*intelState)
}

// withoutIntelTools drops the tools that need language intelligence when
// no source serves (they are offered only when one does), and names the
// served file types in their descriptions when one does.
func (s *Session) withoutIntelTools(specs []llm.ToolSpec) []llm.ToolSpec {
	var served []string
	if s.m.intel != nil && s.m.config().LSP.Source != "off" {
		served = intel.ServedTypes(s.m.intel)
	}
	out := specs[:0:0]
	for _, t := range specs {
		if tools.NeedsLanguageIntel(t.Name) {
			if len(served) == 0 {
				continue
			}
			t.Description = tools.WithServedTypes(t.Description, served)
		}
		out = append(out, t)
	}
	return out
}

// intelOn reports whether the session checks diagnostics around its edits:
// a source serves and the session is in build mode.
func (s *Session) intelOn() bool {
	return s.m.intel != nil && s.m.config().LSP.Source != "off" && s.State().Mode == agentproto.ModeBuild
}

// observeMode notes the mode of a call: the first build-mode call after
// plan mode (an approval) starts a new step.
func (s *Session) observeMode() {
	if s.m.intel == nil {
		return
	}
	mode := s.State().Mode
	st := s.intelState()
	st.mu.Lock()
	defer st.mu.Unlock()
	if mode == agentproto.ModeBuild && st.lastMode != agentproto.ModeBuild {
		st.stepFiles = map[string]bool{}
	}
	st.lastMode = mode
}

// servedEdits are the changes' files whose type the source serves, with the
// text each had before (created files: none).
func (s *Session) servedEdits(changes []workspace.Change) []workspace.Change {
	var out []workspace.Change
	for _, c := range changes {
		if (c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate) && !isPlanPath(c.Path.Rel) && s.m.intel.Serves(c.Path.Abs) {
			out = append(out, c)
		}
	}
	return out
}

func isPlanPath(rel string) bool { return strings.HasSuffix(strings.ToLower(rel), ".plan") }

// beforeEdit runs before changes are applied in build mode: it takes the
// baseline of each served file the session touches for the first time
// (settled; a created file has none), and refuses a tick of the plan while
// the step's files have new errors (tickGate).
func (s *Session) beforeEdit(ctx context.Context, tool string, changes []workspace.Change) error {
	if tool == guard.SystemActor || !s.intelOn() {
		return nil
	}
	if err := s.tickGate(ctx, changes); err != nil {
		return err
	}
	st := s.intelState()
	var first []string
	st.mu.Lock()
	for _, c := range s.servedEdits(changes) {
		if _, ok := st.baseline[c.Path.Abs]; ok {
			continue
		}
		st.baseline[c.Path.Abs] = nil
		if c.Kind == workspace.ChangeEdit {
			first = append(first, c.Path.Abs)
		}
	}
	st.mu.Unlock()
	if len(first) == 0 {
		return nil
	}
	// A baseline that is not settled would count old problems as new:
	// it may wait four times the budget (only a file's first touch does).
	snap, settled, err := intel.Settle(ctx, s.m.intel, first, baselineBudgets*s.settleBudget())
	if err != nil {
		slog.Warn("language intel: baseline", "files", first, "err", err)
		return nil
	}
	if !settled {
		slog.Warn("language intel: the baseline did not settle", "files", first)
	}
	st.mu.Lock()
	for _, f := range first {
		st.baseline[f] = snap.Files[f]
	}
	st.mu.Unlock()
	return nil
}

// afterEdit records applied changes: the baselines follow each edit, the
// files join the step's, and the call's changes wait for its result.
func (s *Session) afterEdit(ctx context.Context, tool string, changes []workspace.Change) {
	if tool == guard.SystemActor || !s.intelOn() {
		return
	}
	served := s.servedEdits(changes)
	if len(served) == 0 {
		return
	}
	st := s.intelState()
	st.mu.Lock()
	defer st.mu.Unlock()
	id := ToolCallID(ctx)
	for _, c := range served {
		st.baseline[c.Path.Abs] = intel.Shift(st.baseline[c.Path.Abs], c.Before, c.After)
		st.stepFiles[c.Path.Abs] = true
		if id != "" {
			st.calls[id] = append(st.calls[id], c)
		}
	}
}

// baselineBudgets is how many settle budgets a baseline may wait.
const baselineBudgets = 4

func (s *Session) settleBudget() time.Duration {
	return tools.SettleBudget(&env{s: s})
}

// EditDiagnostics is what an edit's result gains: the problems the edit
// introduced (docs/language-intel.md, "new") and whether the diagnostics
// settled within lsp.settle_ms.
type EditDiagnostics struct {
	New     []agentproto.Problem `json:"new"`
	Settled bool                 `json:"settled"`
	// Error says why there are none (the language server could not start
	// or answer).
	Error string `json:"error,omitempty"`
}

// newProblems settles the diagnostics of files and returns the problems
// not in their baselines.
func (s *Session) newProblems(ctx context.Context, files []string) ([]agentproto.Problem, map[string][]intel.Diagnostic, bool, error) {
	snap, settled, err := intel.Settle(ctx, s.m.intel, files, s.settleBudget())
	if err != nil {
		return nil, nil, false, err
	}
	st := s.intelState()
	fresh := map[string][]intel.Diagnostic{}
	st.mu.Lock()
	for _, f := range files {
		if n := intel.New(st.baseline[f], snap.Files[f]); len(n) > 0 {
			fresh[f] = n
		}
	}
	st.mu.Unlock()
	return tools.Problems(s.m.ws, fresh), fresh, settled, nil
}

// withDiagnostics adds the new problems of the files a successful call
// changed to its result (`diagnostics: {new, settled}`), and returns the
// problems as text for the faces (a log line each for plain editors, the
// tool call's content for ACP).
func (s *Session) withDiagnostics(ctx context.Context, callID string, res tools.Result) (tools.Result, string) {
	st := s.intelState()
	st.mu.Lock()
	changes := st.calls[callID]
	delete(st.calls, callID)
	st.mu.Unlock()
	if len(changes) == 0 || !res.Success {
		return res, ""
	}
	var files []string
	seen := map[string]bool{}
	for _, c := range changes {
		if !seen[c.Path.Abs] {
			seen[c.Path.Abs] = true
			files = append(files, c.Path.Abs)
		}
	}
	sort.Strings(files)
	probs, _, settled, err := s.newProblems(ctx, files)
	if err != nil {
		if ctx.Err() != nil {
			return res, ""
		}
		slog.Warn("language intel: diagnostics after an edit", "files", files, "err", err)
		// One line: a server's stderr in the error (a stack trace) goes
		// into one line of the chat and of a log message.
		why := strings.Join(strings.Fields(err.Error()), " ")
		res.Value = withField(res.Value, "diagnostics", EditDiagnostics{New: []agentproto.Problem{}, Error: excerpt(why, 300)})
		return res, ""
	}
	if len(probs) > tools.MaxCodeItems {
		probs = probs[:tools.MaxCodeItems]
	}
	if probs == nil {
		probs = []agentproto.Problem{}
	}
	res.Value = withField(res.Value, "diagnostics", EditDiagnostics{New: probs, Settled: settled})
	lines := problemtext.ShownLines(probs)
	for _, line := range lines {
		s.m.notify(ctx, "[diagnostics] "+line)
	}
	return res, strings.Join(lines, "\n")
}

// withField is v (a JSON object) with key set to val; v as it is when it
// is not an object.
func withField(v any, key string, val any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return v
	}
	vb, err := json.Marshal(val)
	if err != nil {
		return v
	}
	m[key] = vb
	return m
}

// tickGate refuses a change that ticks a step of the session's plan (a
// `- [ ]` becoming `- [x]`) while a file the session changed in that step
// has a new error; warnings are listed but do not block. An accepted tick
// starts the next step.
func (s *Session) tickGate(ctx context.Context, changes []workspace.Change) error {
	plan := s.planFile()
	if plan == "" {
		return nil
	}
	var ticked []string
	for _, c := range changes {
		if s.m.ws.Key(c.Path) == plan && (c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate) {
			ticked = append(ticked, newlyTicked(c.Before, c.After)...)
		}
	}
	if len(ticked) == 0 {
		return nil
	}
	st := s.intelState()
	st.mu.Lock()
	var files []string
	for f := range st.stepFiles {
		files = append(files, f)
	}
	st.mu.Unlock()
	sort.Strings(files)
	if len(files) > 0 {
		probs, _, _, err := s.newProblems(ctx, files)
		if err != nil {
			slog.Warn("language intel: the tick's check", "files", files, "err", err)
		} else if msg := problemtext.TickRefusal(probs); msg != "" {
			return tickRefused{agentproto.TickRefusal{Steps: ticked, Problems: problemtext.Blocking(probs), Message: msg}}
		}
	}
	st.mu.Lock()
	st.stepFiles = map[string]bool{}
	st.mu.Unlock()
	return nil
}

// checkedSteps counts the ticked steps of a plan's text.
func checkedSteps(text string) int {
	n := 0
	for _, e := range planEntries(text) {
		if e.Status == "completed" {
			n++
		}
	}
	return n
}
