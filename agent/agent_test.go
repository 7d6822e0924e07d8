package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// memEditor is an in-memory Editor: it records what the agent tells the
// editor, writes changes to disk after the guard's last check, and answers
// questions with ask (nil: there is no surface), as a person does: the
// answer comes personReads after the question (agentls takes a sooner
// allowing answer as the client's own, permission.HumanFloor), unless
// answerAtOnce.
type memEditor struct {
	ws  *workspace.Workspace
	ask func(ctx context.Context, req AskRequest) (AskReply, error)
	// answerAtOnce answers the moment the question comes, as a client that
	// answers by itself (an auto-approve setting) does.
	answerAtOnce bool
	// onApply, when set, is called with each request before it is applied.
	onApply func(ApplyRequest)

	mu      sync.Mutex
	updates []any
	notes   []string
	modes   []agentproto.ModeChangedParams
	shown   []string
	applied []ApplyRequest // every request Apply was given, applied or not
}

func (e *memEditor) Update(_ context.Context, _ string, u Update) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.updates = append(e.updates, u)
}

func (e *memEditor) ModeChanged(_ context.Context, mc agentproto.ModeChangedParams) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.modes = append(e.modes, mc)
}

func (e *memEditor) Notify(_ context.Context, line string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.notes = append(e.notes, line)
}

func (e *memEditor) Apply(_ context.Context, req ApplyRequest) error {
	if e.onApply != nil {
		e.onApply(req)
	}
	e.mu.Lock()
	e.applied = append(e.applied, req)
	e.mu.Unlock()
	for _, c := range req.Changes {
		op := guard.Op{Kind: c.Kind, Path: c.Path.Abs}
		if c.Kind == workspace.ChangeRename {
			op.From = c.From.Abs
		}
		if err := req.Check([]guard.Op{op}); err != nil {
			return err
		}
		if err := e.ws.ApplyToDisk(c); err != nil {
			return err
		}
	}
	return nil
}

// personReads is how long memEditor's person takes over a question
// before answering it: past permission.HumanFloor.
const personReads = permission.HumanFloor + 50*time.Millisecond

func (e *memEditor) Ask(ctx context.Context, req AskRequest) (AskReply, error) {
	if e.ask == nil {
		return AskReply{}, ErrNoSurface
	}
	readFor := personReads
	if e.answerAtOnce {
		readFor = 0
	}
	read := time.NewTimer(readFor)
	defer read.Stop()
	reply, err := e.ask(ctx, req)
	select { // the person reads the question before the answer goes back
	case <-read.C:
	case <-ctx.Done():
	}
	return reply, err
}

func (e *memEditor) ShowDocument(_ context.Context, abs string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shown = append(e.shown, abs)
	return nil
}

func (e *memEditor) StartProgress(context.Context, string) Progress { return noProgress{} }

func (e *memEditor) notifyLines() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.notes...)
}

// questionIDs are the ids of the question_pending updates so far.
func (e *memEditor) questionIDs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []string
	for _, u := range e.updates {
		if q, ok := u.(UpdateQuestion); ok {
			ids = append(ids, q.QuestionID)
		}
	}
	return ids
}

// newTestManager is a manager on a temporary workspace with a scripted model.
func newTestManager(t testing.TB, script string, ed *memEditor, tweak func(*config.Config)) (*Manager, *scripted.Provider) {
	t.Helper()
	return newTestManagerOf(t, script, ed, ed, tweak)
}

// newTestManagerOf is newTestManager with whole as the manager's Editor
// (ed, extended).
func newTestManagerOf(t testing.TB, script string, ed *memEditor, whole Editor, tweak func(*config.Config)) (*Manager, *scripted.Provider) {
	t.Helper()
	return newManagerOfSource(t, script, ed, whole, tweak, nil)
}

// newManagerOfSource is newTestManagerOf with src's tools beside the built-in
// ones (nil: none).
func newManagerOfSource(t testing.TB, script string, ed *memEditor, whole Editor, tweak func(*config.Config), src ToolSource) (*Manager, *scripted.Provider) {
	t.Helper()
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ed.ws = ws
	sc, err := scripted.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New(sc)
	cfg := config.Default()
	if tweak != nil {
		tweak(&cfg)
	}
	m, err := NewManager(Options{Workspace: ws, Config: cfg, Provider: model, Editor: whole, ToolSource: src})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, model
}

func newTestSession(t testing.TB, m *Manager, mode string) *Session {
	t.Helper()
	info, err := m.NewSession(context.Background(), mode, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.session(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantInvalid(t *testing.T, err error, want string) {
	t.Helper()
	var inv *InvalidParamsError
	if !errors.As(err, &inv) || !strings.Contains(inv.Msg, want) {
		t.Fatalf("error = %v, want invalid params containing %q", err, want)
	}
}

func TestPendingApprovalTakesOneDecision(t *testing.T) {
	t.Parallel()
	newAP := func() *pendingApproval {
		return &pendingApproval{plan: "plans/p.plan", decide: make(chan decision, 1), done: make(chan struct{})}
	}
	t.Run("second offer fails even after the first was taken", func(t *testing.T) {
		ap := newAP()
		if !ap.offer(decision{approve: true}) {
			t.Fatal("first offer refused")
		}
		if d := <-ap.decide; !d.approve {
			t.Fatalf("decision = %+v", d)
		}
		if ap.offer(decision{reason: "late"}) {
			t.Fatal("a second decision was accepted after the first was taken")
		}
	})
	t.Run("no offer after stop", func(t *testing.T) {
		ap := newAP()
		if _, ok := ap.stop(); ok {
			t.Fatal("stop returned a decision nobody made")
		}
		if ap.offer(decision{approve: true}) {
			t.Fatal("offer accepted after the tool stopped waiting")
		}
	})
	t.Run("stop returns a decision made just before", func(t *testing.T) {
		ap := newAP()
		ap.offer(decision{reason: "r"})
		if d, ok := ap.stop(); !ok || d.reason != "r" {
			t.Fatalf("stop = %+v, %v", d, ok)
		}
	})
	t.Run("concurrent offers", func(t *testing.T) {
		ap := newAP()
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if ap.offer(decision{approve: i%2 == 0}) {
					mu.Lock()
					won++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if won != 1 {
			t.Fatalf("%d offers accepted, want 1", won)
		}
	})
}

func TestResolvePlanOutcome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		applied bool
		wantErr string
	}{
		{"carried out", true, ""},
		{"withdrawn before it took effect", false, "was withdrawn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil)
			s := newTestSession(t, m, "plan")
			ap := s.startApproval("plans/p.plan")
			type result struct {
				info agentproto.Session
				err  error
			}
			done := make(chan result, 1)
			go func() {
				info, err := m.ResolvePlan(context.Background(), s.ID(), "reject", "  too long ")
				done <- result{info, err}
			}()
			d := <-ap.decide // the tool takes the decision
			if d.approve || d.reason != "too long" || d.source != "user" {
				t.Fatalf("decision = %+v", d)
			}
			s.finishApproval(ap, tc.applied)
			r := <-done
			if tc.wantErr != "" {
				wantInvalid(t, r.err, tc.wantErr)
			} else if r.err != nil || r.info.SessionID != s.ID() {
				t.Fatalf("ResolvePlan = %+v, %v", r.info, r.err)
			}
			_, err := m.ResolvePlan(context.Background(), s.ID(), "approve", "")
			wantInvalid(t, err, "no plan is awaiting approval")
		})
	}
}

func TestResolvePlanInvalid(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil)
	s := newTestSession(t, m, "plan")
	ap := s.startApproval("plans/p.plan")
	defer s.finishApproval(ap, false)
	ap.mu.Lock()
	ap.since = ap.since.Add(-personReads) // a person has read the plan: an approval is no client's own
	ap.mu.Unlock()
	for _, tc := range []struct{ decision, reason, want string }{
		{"reject", "", "non-empty reason"},
		{"reject", " \n ", "non-empty reason"},
		{"Approve", "", `decision must be "approve" or "reject", not "Approve"`},
	} {
		_, err := m.ResolvePlan(context.Background(), s.ID(), tc.decision, tc.reason)
		wantInvalid(t, err, tc.want)
	}
	_, err := m.ResolvePlan(context.Background(), "nope", "approve", "")
	wantInvalid(t, err, `unknown session "nope"`)
	select {
	case d := <-ap.decide:
		t.Fatalf("an invalid call decided: %+v", d)
	default:
	}
	// A caller that gives up waiting gets its context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.ResolvePlan(ctx, s.ID(), "approve", ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("ResolvePlan with a cancelled context = %v", err)
	}
}

const dialogScript = `
name: dialog
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: P, path: plans/p.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] one\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/p.plan}}
  - text: revising
    expect:
      tool_result_contains: {x: ["Reason: from the code lens."]}
      system_contains: ["You are in PLAN mode"]
`

// TestResolvePlanBeatsTheDialog: agent/resolvePlan decides while the dialog
// is open; the dialog is withdrawn and its later answer is ignored.
func TestResolvePlanBeatsTheDialog(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	answer := make(chan struct{})
	withdrawn := make(chan bool, 1)
	ed := &memEditor{ask: func(ctx context.Context, req AskRequest) (AskReply, error) {
		if req.Purpose != "plan_approval" {
			return AskReply{}, errors.New("unexpected question")
		}
		close(asked)
		<-answer
		withdrawn <- ctx.Err() != nil
		return AskReply{Answers: map[string]any{"approve": true}}, nil
	}}
	m, model := newTestManager(t, dialogScript, ed, nil)
	s := newTestSession(t, m, "plan")
	type result struct {
		res TurnResult
		err error
	}
	turn := make(chan result, 1)
	go func() {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "plan"})
		turn <- result{res, err}
	}()
	<-asked
	info, err := m.ResolvePlan(context.Background(), s.ID(), "reject", "from the code lens")
	if err != nil || info.Mode != agentproto.ModePlan {
		t.Fatalf("ResolvePlan = %+v, %v", info, err)
	}
	close(answer)
	if !<-withdrawn {
		t.Fatal("the dialog was not withdrawn after agent/resolvePlan decided")
	}
	r := <-turn
	if r.err != nil || r.res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn = %+v, %v", r.res, r.err)
	}
	if model.Remaining() != 0 || s.State().Mode != agentproto.ModePlan {
		t.Fatalf("steps left %d, mode %s", model.Remaining(), s.State().Mode)
	}
	lines := ed.notifyLines()
	if !containsLine(lines, "[plan-mode] rejected plan=plans/p.plan reason=from the code lens") || containsLine(lines, "[plan-mode] approved") {
		t.Fatalf("notify lines %q", lines)
	}
}

func containsLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestAnswerWaitsForTheAskingTurn: an answer (agent/answer or a prompt's
// questionAnswer) that arrives while the turn that asked is still ending is
// taken once that turn ends, not refused as busy and not lost.
func TestAnswerWaitsForTheAskingTurn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer func(m *Manager, sid, qid string) error
	}{
		{"agent/answer", func(m *Manager, sid, qid string) error {
			if err := m.Answer(sid, qid, map[string]any{"branch": "main"}); err != nil {
				return err
			}
			m.Wait()
			return nil
		}},
		{"prompt with questionAnswer", func(m *Manager, sid, qid string) error {
			res, err := m.Prompt(context.Background(), PromptRequest{
				SessionID: sid, Text: "and hurry",
				QuestionAnswer: &QuestionAnswer{QuestionID: qid, Answers: map[string]any{"branch": "main"}},
			})
			if err == nil && res.StopReason != agentproto.StopEndTurn {
				err = fmt.Errorf("stopReason %s (%v)", res.StopReason, res.Err)
			}
			return err
		}},
	}
	for _, tc := range tests {
		// synctest.Wait tells when the answer is blocked waiting for the turn.
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ed := &memEditor{}
				m, model := newTestManager(t, `
name: pending
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: branch, question: "Branch?", schema: {type: string}}]}}
  - text: thanks
    expect:
      last_message_contains: ["[Answered: main]"]
`, ed, nil)
				s := newTestSession(t, m, "plan")
				res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "ask"})
				if err != nil || res.StopReason != agentproto.StopQuestionPending {
					t.Fatalf("prompt = %+v, %v", res, err)
				}
				qid := ed.questionIDs()[0]
				// The asking turn is still ending.
				_, release, err := s.begin(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				// A wrong id or an invalid answer is refused at once, busy or not.
				wantInvalid(t, m.Answer(s.ID(), "other", map[string]any{"branch": "main"}), `question "other" is not pending`)
				wantInvalid(t, m.Answer(s.ID(), qid, map[string]any{"branch": 1}), "invalid answers: branch:")
				answered := make(chan error, 1)
				go func() { answered <- tc.answer(m, s.ID(), qid) }()
				synctest.Wait()
				select {
				case err := <-answered:
					t.Fatalf("the answer did not wait for the asking turn to end: %v", err)
				default:
				}
				release()
				if err := <-answered; err != nil {
					t.Fatalf("answer while the asking turn ended: %v", err)
				}
				if model.Remaining() != 0 {
					t.Fatal("the resumed turn did not run")
				}
				msgs := s.Messages()
				if last := msgs[len(msgs)-1]; last.Role != llm.RoleAssistant || last.Content != "thanks" {
					t.Fatalf("last message = %+v", last)
				}
				wantInvalid(t, m.Answer(s.ID(), qid, map[string]any{"branch": "main"}), "is not pending")
			})
		})
	}
}

// TestBusyPromptKeepsTheQuestion: a plain prompt on a busy session is refused
// and leaves a pending question as it was.
func TestBusyPromptKeepsTheQuestion(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, `
name: pending
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: branch, question: "Branch?", schema: {type: string}}]}}
`, ed, nil)
	s := newTestSession(t, m, "plan")
	if _, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "ask"}); err != nil {
		t.Fatal(err)
	}
	qid := ed.questionIDs()[0]
	_, release, err := s.begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "again"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("prompt on a busy session = %v", err)
	}
	release()
	if err := s.checkAnswer(qid, map[string]any{"branch": "main"}); err != nil {
		t.Fatalf("the question was lost: %v", err)
	}
}

func TestConfirmRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		allow   []string
		reply   *AskReply
		command string
		want    bool
		wantErr string
		asks    int
	}{
		{"allowed by config", []string{"go test *"}, nil, "go test ./...", true, "", 0},
		{"no surface", nil, nil, "make", false, "add the command to run.allow", 0},
		{"run", nil, &AskReply{Answers: map[string]any{"decision": "allow_once"}}, "make", true, "", 1},
		{"reject", nil, &AskReply{Answers: map[string]any{"decision": "reject_once"}}, "make", false, "", 1},
		{"dismissed", nil, &AskReply{Dismissed: true}, "make", false, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ed := &memEditor{}
			asks := 0
			var m *Manager
			if tc.reply != nil {
				ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
					asks++
					q := req.Set.Questions[0]
					network, sandboxState := m.commandPlace(tc.command) // as this machine's sandbox probe says
					want := "Run `" + tc.command + "`?\n\nFolder: " + m.ws.Root() + "\nNetwork: " + network + "\nSandbox: " + sandboxState
					if req.Purpose != "permission" || q.Name != "decision" || q.Question != want {
						t.Errorf("permission question = %+v", q)
					}
					if p := req.Permission; p == nil || p.Kind != "run" || p.What != tc.command || p.Cwd != m.ws.Root() {
						t.Errorf("permission request = %+v", p)
					}
					return *tc.reply, nil
				}
			}
			m, _ = newTestManager(t, "name: x\nsteps:\n  - text: hi\n", ed, func(c *config.Config) { c.Run.Allow = tc.allow })
			e := &env{s: newTestSession(t, m, "build")}
			permit, err := e.ConfirmRun(context.Background(), tools.RunRequest{Command: "  " + tc.command + " "})
			ok := permit.Run
			if ok != tc.want || (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("ConfirmRun = %v, %v; want %v, error %q", ok, err, tc.want, tc.wantErr)
			}
			if asks != tc.asks {
				t.Fatalf("%d asks, want %d", asks, tc.asks)
			}
		})
	}
}

func TestConfirmRunAlwaysAllow(t *testing.T) {
	t.Parallel()
	asks := 0
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		asks++
		return AskReply{Answers: map[string]any{"decision": "allow_always"}}, nil
	}}
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", ed, nil)
	e := &env{s: newTestSession(t, m, "build")}
	for i, cmd := range []string{"make", " make ", "make", "make all"} {
		if p, err := e.ConfirmRun(context.Background(), tools.RunRequest{Command: cmd}); !p.Run || err != nil {
			t.Fatalf("call %d: %v, %v", i, p.Run, err)
		}
	}
	if asks != 2 {
		t.Fatalf("%d asks, want 2 (make once, make all once)", asks)
	}
	other := &env{s: newTestSession(t, m, "build")}
	if _, err := other.ConfirmRun(context.Background(), tools.RunRequest{Command: "make"}); err != nil || asks != 3 {
		t.Fatalf("another session was not asked (%d asks, %v)", asks, err)
	}
}

func TestPlanEntries(t *testing.T) {
	t.Parallel()
	const front = "---\ntitle: T\nstatus: approved\n---\n"
	tests := []struct {
		name string
		text string
		want []agentproto.PlanEntry
	}{
		{"no steps", front + "# Goal\nNothing.\n", []agentproto.PlanEntry{}},
		{"nothing done", front + "- [ ] a\n- [ ] b\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "pending"}, {Content: "b", Priority: "medium", Status: "pending"},
		}},
		{"first done", front + "- [x] a\n- [ ] b\n- [ ] c\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "completed"}, {Content: "b", Priority: "medium", Status: "in_progress"}, {Content: "c", Priority: "medium", Status: "pending"},
		}},
		{"gap", front + "- [ ] a\n- [X] b\n- [ ] c\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "in_progress"}, {Content: "b", Priority: "medium", Status: "completed"}, {Content: "c", Priority: "medium", Status: "pending"},
		}},
		{"all done", front + "- [x] a\n- [x] b\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "completed"}, {Content: "b", Priority: "medium", Status: "completed"},
		}},
		{"without frontmatter", "- [x] a\n- [ ] b\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "completed"}, {Content: "b", Priority: "medium", Status: "in_progress"},
		}},
		{"frontmatter being typed", "---\ntitle: [unclosed\n---\n- [x] a\n- [ ] b\n", []agentproto.PlanEntry{
			{Content: "a", Priority: "medium", Status: "completed"}, {Content: "b", Priority: "medium", Status: "in_progress"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := planEntries(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("planEntries = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("entry %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
	if got := planEntries("---\ntitle: [unclosed\n---\nno steps\n"); got == nil {
		t.Fatal("an unparsable plan without steps gave a nil list (the update must carry [])")
	}
}

func TestHistoryMessage(t *testing.T) {
	t.Parallel()
	in := llm.Message{Role: llm.RoleAssistant, Content: "hi", ToolCalls: []agentproto.ToolCall{
		{ID: "a", Name: "read", Arguments: `{"path":"x"}`},
		{ID: "b", Name: "read", Arguments: `{"path": "x",`},
		{ID: "c", Name: "ls", Arguments: ""},
		{ID: "d", Name: "ls", Arguments: "  "},
	}}
	out := historyMessage(in)
	want := []string{`{"path":"x"}`, `{"invalid_json_arguments":"{\"path\": \"x\","}`, "", "  "}
	for i, c := range out.ToolCalls {
		if c.Arguments != want[i] || c.ID != in.ToolCalls[i].ID || c.Name != in.ToolCalls[i].Name {
			t.Errorf("call %d = %+v, want arguments %s", i, c, want[i])
		}
	}
	if in.ToolCalls[1].Arguments != `{"path": "x",` {
		t.Fatal("historyMessage changed its input")
	}
	if out.Content != "hi" || out.Role != llm.RoleAssistant {
		t.Fatalf("message = %+v", out)
	}
}

// TestCancelledAskLeavesNothingPending: a question whose turn was cancelled
// before it became pending is withdrawn, not left for agent/answer.
func TestCancelledAskLeavesNothingPending(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: unused\n", ed, nil)
	s := newTestSession(t, m, "plan")
	set, err := questions.New([]questions.Question{{Name: "branch", Question: "Branch?", Schema: []byte(`{"type":"string"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&env{s: s}).Ask(ctx, set); !errors.Is(err, context.Canceled) {
		t.Fatalf("Ask = %v, want context.Canceled", err)
	}
	s.mu.Lock()
	pending := s.pending
	s.mu.Unlock()
	if pending != nil || len(ed.questionIDs()) != 0 {
		t.Fatalf("pending = %+v, question_pending updates %v", pending, ed.questionIDs())
	}
	// Not cancelled: the question is pending.
	ans, err := (&env{s: s}).Ask(context.Background(), set)
	if err != nil || ans.Status != "question_pending" || s.checkAnswer(ans.QuestionID, map[string]any{"branch": "x"}) != nil {
		t.Fatalf("Ask = %+v, %v", ans, err)
	}
}

// TestCloseWaitsForTheApprovalDialog: the goroutine that shows the approval
// dialog is owned: Manager.Close returns only once it has ended.
func TestCloseWaitsForTheApprovalDialog(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	var dialogEnded atomic.Bool
	ed := &memEditor{ask: func(ctx context.Context, req AskRequest) (AskReply, error) {
		close(asked)
		<-ctx.Done()
		runtime.Gosched()
		dialogEnded.Store(true)
		return AskReply{}, ctx.Err()
	}}
	m, _ := newTestManager(t, dialogScript, ed, nil)
	s := newTestSession(t, m, "plan")
	turn := make(chan struct{})
	go func() {
		defer close(turn)
		_, _ = m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "plan"})
	}()
	<-asked
	m.Close()
	if !dialogEnded.Load() {
		t.Fatal("Manager.Close returned while the approval dialog's goroutine was still running")
	}
	<-turn
}

// TestUnansweredQuestionTimesOut: an ask_user question nobody answers waits
// plan_mode.approval_timeout_secs, then the model reads why. In a synctest
// bubble: the second passes on the fake clock, not the wall's.
func TestUnansweredQuestionTimesOut(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testUnansweredQuestionTimesOut)
}

func testUnansweredQuestionTimesOut(t *testing.T) {
	ed := &memEditor{ask: func(ctx context.Context, req AskRequest) (AskReply, error) {
		<-ctx.Done()
		return AskReply{}, ctx.Err()
	}}
	m, model := newTestManager(t, `
name: unanswered
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: branch, question: "Branch?", schema: {type: string}}]}}
  - text: no answer
    expect:
      tool_result_contains: {q: ["the user did not answer within 1s (plan_mode.approval_timeout_secs)"]}
`, ed, func(c *config.Config) { c.PlanMode.ApprovalTimeoutSecs = 1 })
	s := newTestSession(t, m, "plan")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "ask"})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if model.Remaining() != 0 {
		t.Fatalf("%d steps left", model.Remaining())
	}
}

// TestSecondProcessCannotDriveASession: two managers on one workspace stand
// for two processes (the LSP face and another editor window): the second
// cannot load the session the first drives, with a clear error, until the
// first closes. Start-up sweeps a dead writer's temporary file.
func TestSecondProcessCannotDriveASession(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: x\n", ed, nil)
	s := newTestSession(t, m, "plan")
	leftover := filepath.Join(m.ws.Root(), ".agentls", "chats", "."+s.ID()+".chat.agentls-2147483646-1.tmp")
	if err := os.WriteFile(leftover, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	m2, err := NewManager(Options{Workspace: m.ws, Config: m.config(), Provider: m.Provider(), Editor: &memEditor{ws: m.ws}})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatalf("the dead writer's temporary file survived start-up: %v", err)
	}
	_, _, err = m2.LoadSession(context.Background(), s.ID())
	var inv *InvalidParamsError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), "open in another agentls process") {
		t.Fatalf("second process loading a driven session = %v", err)
	}
	m.Close()
	if _, _, err := m2.LoadSession(context.Background(), s.ID()); err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
}
