package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// TestCompactionKeepsTheUsersAnswerToAQuestion: the user answers an
// ask_user question at length (their decision, in their words); later turns
// read files until the history is compacted. The summariser's own prompt
// asks it to keep "the user's answers to questions", and the summariser here
// keeps everything it is shown. Yet after the compaction no request carries
// the answer: the old ask_user result was replaced by a stub ("… of output
// removed …; call the tool again if you need it") before the transcript was
// rendered for the summariser, so the user's words are lost to the model
// (which is told to ask again).
func TestCompactionKeepsTheUsersAnswerToAQuestion(t *testing.T) {
	t.Parallel()
	const marker = "TimescaleDB-on-PostgreSQL-16"
	answer := "Use " + marker + " for the metrics store, never SQLite: we run it in production already, " +
		"the ops team knows how to back it up, and the retention policy must be 400 days because of the audit rules. " +
		"Keep the schema in migrations/ with one file a change, named by date, and do not add an ORM: plain SQL only, " +
		"through the pgx driver, with the connection pool sized from the DB_POOL environment variable."
	ed := &memEditor{ask: func(ctx context.Context, req AskRequest) (AskReply, error) {
		return AskReply{Answers: map[string]any{"db": answer}}, nil
	}}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 16384 })
	writeBulkyFiles(t, ed)
	model := &stepModel{turn: readingTurn("set up", func(n int) llm.Response {
		return callStep(fmt.Sprintf("q%d", n), "ask_user",
			`{"questions":[{"name":"db","question":"Which database should the metrics store use, and how?","schema":{"type":"string"}}]}`)
	})}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "plan")
	prompt := func(text string) { promptToTheEnd(t, m, s.ID(), text) }
	prompt("set up the metrics store")
	if !strings.Contains(requestText(model.requests()[1]), marker) {
		t.Fatal("the rig is wrong: the answer did not reach the model in the first place")
	}
	for i := range 12 {
		prompt(fmt.Sprintf("read f%d", i))
	}
	// agent/compact: the older turns are summarised too.
	if res, err := m.Compact(context.Background(), s.ID()); err != nil || !res.Compacted {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	prompt("go on with the store's design")
	if !containsLine(ed.notifyLines(), "[compaction]") {
		t.Fatal("the rig is wrong: the history was never compacted")
	}
	reqs := model.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(requestText(last), marker) {
		shown := "(no summary was made)"
		if sr := model.summaryRequests(); len(sr) > 0 {
			transcript := sr[0].Messages[0].Content
			shown = excerptAround(transcript, strings.Index(transcript, "[tool result ask_user]"), 300)
		}
		var inView string
		for _, msg := range last.Messages {
			if msg.Role == llm.RoleTool && msg.Name == "ask_user" {
				inView = msg.Content
			}
		}
		t.Fatalf("after compaction the model no longer has the user's answer (%q…) anywhere in its request;\n"+
			"the ask_user result it is sent: %q\nwhat the summariser was shown of it: %q", answer[:60], inView, shown)
	}
}

func excerptAround(s string, i, n int) string {
	if i < 0 {
		return "(nothing)"
	}
	return s[i:min(len(s), i+n)]
}

// TestALongBuildTurnIsNotSetAside: in BUILD mode one prompt ("carry out the
// plan") makes the model write file after file. At an 8k window the turn's
// own steps soon pass the budget. Each file is on disk, done; what the
// user expects is that the turn goes on (its older steps compacted, the
// prompt kept) or at worst stops with what it did still known to the model.
// The turn's older steps are compacted (their write contents stubbed, then
// summarised, the cut at a step of the turn with its prompt pinned); before,
// the cut never passed the turn's prompt and tool call arguments were never
// shortened, so the turn ended with an error and all its messages were set
// aside: the next prompt's model no longer knew it wrote any of the files.
func TestALongBuildTurnIsNotSetAside(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 8192 })
	const files = 24
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if lastUserText(req) != "carry out the plan" {
			return textStep("ok"), nil
		}
		// The model goes on from the last file it knows it wrote, in its
		// messages or in the hand-off summary of the turn's older steps.
		written := 0
		text := requestText(req)
		for i := files - 1; i >= 0; i-- {
			if strings.Contains(text, fmt.Sprintf("pkg/f%02d.go", i)) {
				written = i + 1
				break
			}
		}
		if written >= files {
			return textStep("all files written"), nil
		}
		body := strings.Repeat(fmt.Sprintf("package pkg%d // generated line of the module\n", written), 25)
		return callStep(fmt.Sprintf("w%d", n), "write", fmt.Sprintf(`{"path":"pkg/f%02d.go","content":%q}`, written, body)), nil
	}}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "carry out the plan"})
	if err != nil {
		t.Fatal(err)
	}
	onDisk, _ := filepath.Glob(filepath.Join(ed.ws.Root(), "pkg", "*.go"))
	if len(onDisk) < 3 {
		t.Fatalf("the rig is wrong: %d files written (turn: %+v)", len(onDisk), res)
	}
	if res.StopReason != agentproto.StopEndTurn {
		res2, err2 := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "what did you write?"})
		reqs := model.requests()
		last := reqs[len(reqs)-1]
		t.Fatalf("a build turn that wrote %d files ended with %s (%v);\nthe next prompt (%s, %v) sends %d message(s); does it name pkg/f00.go, which the turn wrote? %v",
			len(onDisk), res.StopReason, res.Err, res2.StopReason, err2, len(last.Messages), strings.Contains(requestText(last), "pkg/f00.go"))
	}
	if len(onDisk) != files {
		t.Fatalf("the turn ended with %d files of %d written", len(onDisk), files)
	}
	// Every request of the turn carries the user's own words.
	for i, req := range model.requests() {
		if lastUserText(req) != "carry out the plan" {
			t.Fatalf("request %d of the turn does not end on the turn's prompt (its last user message: %.80q)", i, lastUserText(req))
		}
	}
}

// TestCompactionInPlanModeKeepsTheNewPlanBeingWritten: a session built plan
// A, then went back to plan mode to plan feature B; the model wrote
// plans/b.plan. After a compaction summarises the older turns, the system
// prompt re-injects "the plan you are writing" (docs/sessions.md: "in PLAN
// mode, once turns are summarised, the plan being written (its path and
// current text) is re-injected"). It must be B. Today it is the session's
// attached plan, A — already built — because a plan written while another
// is attached is not attached, and planningSection prefers the attached
// plan over the plans of this planning phase. The summariser is told not to
// copy plan documents ("the current plan is attached separately"), so the
// model loses B and is told it is writing A.
func TestCompactionInPlanModeKeepsTheNewPlanBeingWritten(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 16384 })
	ctx := context.Background()
	writePlan(t, m, "plans/a.plan", "---\ntitle: Feature A\nstatus: draft\ncreated_at: 2026-01-02T03:04:05Z\n---\n# Goal\n\nFeature A.\n\n## Steps\n- [x] add route A\n- [x] add test A\n")
	const marker = "shard the metrics table by tenant id"
	planB := "# Goal\n\nFeature B.\n\n## Steps\n- [ ] " + marker + "\n- [ ] add the migration\n"
	root := writeBulkyFiles(t, ed)
	model := &stepModel{turn: readingTurn("plan feature B", func(n int) llm.Response {
		return callStep(fmt.Sprintf("p%d", n), "plan_write", fmt.Sprintf(`{"path":"plans/b.plan","title":"Feature B","content":%q}`, planB))
	})}
	m.Reconfigure(m.config(), model)
	info, err := m.BuildPlan(ctx, "plans/a.plan")
	if err != nil {
		t.Fatal(err)
	}
	id := info.SessionID
	if _, err := m.SetMode(ctx, id, "plan"); err != nil {
		t.Fatal(err)
	}
	prompt := func(text string) { promptToTheEnd(t, m, id, text) }
	prompt("plan feature B: the metrics store")
	if got, _ := os.ReadFile(filepath.Join(root, "plans", "b.plan")); !strings.Contains(string(got), marker) {
		t.Fatalf("the rig is wrong: plans/b.plan = %q", got)
	}
	for i := range 12 {
		prompt(fmt.Sprintf("read f%d", i))
	}
	if res, err := m.Compact(ctx, id); err != nil || !res.Compacted {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	prompt("go on with plan B")
	reqs := model.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.System, "# Earlier conversation (hand-off summary)") {
		t.Fatal("the rig is wrong: no summary in the last request")
	}
	// The summariser is told "Do not copy plan documents: the current plan
	// is attached separately": the re-injected plan is what the model has.
	i := strings.Index(last.System, "# The plan you are writing")
	if i < 0 || !strings.Contains(last.System[i:], marker) {
		t.Fatalf("after compaction in plan mode the plan being written (plans/b.plan) is not re-injected; the system prompt re-injects:\n%s",
			excerptAround(last.System, i, 400))
	}
}

// TestOverBudgetErrorNamesTheApprovedPlan: in BUILD mode the approved plan
// is pinned in every request's system prompt, whole. A long plan (here about
// 60 KB, at a 16k window) makes the fixed part pass the limit. The turn ends
// with an error, which is right; the error must say what to change. It says
// "the system prompt and the tool definitions alone are about N tokens … set
// model.context_window", and nothing of the plan, the part that made it
// too long and the one the user can shorten (or split).
func TestOverBudgetErrorNamesTheApprovedPlan(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 16384 })
	var steps strings.Builder
	for i := range 600 {
		fmt.Fprintf(&steps, "- [ ] step %d: change the handler of route %d and add its test, then run the suite\n", i, i)
	}
	writePlan(t, m, "plans/big.plan", "---\ntitle: Big\nstatus: draft\ncreated_at: 2026-01-02T03:04:05Z\n---\n# Goal\n\nEverything.\n\n## Steps\n"+steps.String())
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) { return textStep("ok"), nil }}
	m.Reconfigure(m.config(), model)
	info, err := m.BuildPlan(context.Background(), "plans/big.plan")
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: info.SessionID, Text: "start"})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != agentproto.StopError {
		t.Fatalf("the rig is wrong: %+v", res)
	}
	if !strings.Contains(res.Err.Error(), "plan") {
		t.Fatalf("a 60 KB approved plan made the request too long; the error does not name the plan: %v", res.Err)
	}
}

// TestCompactionKeepsASubAgentsFindings: the planner sends an explore
// sub-agent to find out how the code works; its answer (a few hundred words
// of findings) is the task call's result. Later turns read files until the
// history is compacted. The sub-agent's findings must still reach the model
// (verbatim or through the summary; the summariser here keeps whatever it
// is shown). Today the task result is stubbed like a file read ("… of
// output removed …; call the tool again if you need it") and the
// summariser is shown only the stub: the findings are gone, and the model
// is told to run the whole sub-agent again.
func TestCompactionKeepsASubAgentsFindings(t *testing.T) {
	t.Parallel()
	const marker = "the retry budget lives in internal/backoff/policy.go"
	findings := "Findings: requests go through client.Do, which wraps every call in a retrier; " + marker +
		" and is read once at start-up from the RETRY_MAX environment variable. The tests in client_test.go stub the clock. " +
		"Nothing else reads the budget; the CLI passes it through unchanged. Changing it needs a migration of the config file format."
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 16384 })
	writeBulkyFiles(t, ed)
	planner := readingTurn("find out", func(n int) llm.Response {
		return callStep(fmt.Sprintf("t%d", n), "task", `{"kind":"explore","prompt":"Where is the retry budget set, and who reads it?"}`)
	})
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if req.Agent != "" {
			return textStep(findings), nil // the sub-agent answers at once
		}
		return planner(n, req)
	}}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "plan")
	prompt := func(text string) { promptToTheEnd(t, m, s.ID(), text) }
	prompt("find out how retries are budgeted")
	reqs := model.requests()
	if !strings.Contains(requestText(reqs[len(reqs)-1]), marker) {
		t.Fatal("the rig is wrong: the sub-agent's findings did not reach the planner in the first place")
	}
	for i := range 12 {
		prompt(fmt.Sprintf("read f%d", i))
	}
	if res, err := m.Compact(context.Background(), s.ID()); err != nil || !res.Compacted {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	prompt("now plan the change")
	reqs = model.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(requestText(last), marker) {
		shown := "(no summary was made)"
		if sr := model.summaryRequests(); len(sr) > 0 {
			transcript := sr[len(sr)-1].Messages[0].Content
			shown = excerptAround(transcript, strings.Index(transcript, "[tool result task]"), 300)
		}
		t.Fatalf("after compaction the sub-agent's findings are nowhere in the planner's request;\nwhat the summariser was shown of them: %q", shown)
	}
}

// TestHugeResultOfTheLastStepTellsTheModelToNarrowIt: at an 8k window the
// model reads a 50 KB file. The result cannot be sent: compaction stubs it in
// the very step that asked for it (docs/sessions.md: "the model is told how
// much output was removed and can call the tool again with a narrower
// range"). A model that follows the stub's words calls the same read again,
// gets the same stub, and so on until the turn's request budget is spent:
// the stub of a result the model never saw must say so and ask for a
// narrower call (offset/limit), not "call the tool again if you need it".
func TestHugeResultOfTheLastStepTellsTheModelToNarrowIt(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 8192 })
	var body strings.Builder
	for i := 0; body.Len() < 60_000; i++ {
		fmt.Fprintf(&body, "line %d: some source text with words in it\n", i)
	}
	if err := os.WriteFile(filepath.Join(ed.ws.Root(), "big.txt"), []byte(body.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if lastIsTool(req) {
			last := req.Messages[len(req.Messages)-1].Content
			seen = append(seen, last)
			if !strings.Contains(last, "elided") {
				return textStep("read it"), nil
			}
			if len(seen) >= 5 {
				return textStep("giving up"), nil
			}
			// Do what the stub says.
			if strings.Contains(last, "offset") || strings.Contains(last, "narrower") || strings.Contains(last, "limit") {
				return callStep(fmt.Sprintf("r%d", n), "read", `{"path":"big.txt","limit":100}`), nil
			}
			return callStep(fmt.Sprintf("r%d", n), "read", `{"path":"big.txt"}`), nil
		}
		return callStep(fmt.Sprintf("r%d", n), "read", `{"path":"big.txt"}`), nil
	}}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "read big.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || !strings.Contains(seen[0], "elided") {
		t.Fatalf("the rig is wrong: the first result was not stubbed (%+v): %.200q", res, seen)
	}
	if len(seen) > 2 {
		t.Fatalf("a 60 KB read at an 8k window: the model was given %d stubs in a row (turn %s); the stub says: %s", len(seen), res.StopReason, seen[0])
	}
}

// TestStubOfACommandSaysCallingItAgainDoesItAgain: at an 8k window a BUILD
// turn runs a command that appends to ran.txt and prints 120 KB. Its
// result is stubbed; the stub said "the same call would give the same
// result, so call it again asking for less" (false for a command: it runs
// again), and once seen "call the tool again if you need it" — an
// invitation to push, migrate or deploy twice to read the output. The stub
// of a call that changes something says it already ran and that calling it
// again does it again; a read's stub keeps its words (the test above).
func TestStubOfACommandSaysCallingItAgainDoesItAgain(t *testing.T) {
	t.Parallel()
	const command = "echo once >> ran.txt; seq 1 20000"
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		return AskReply{Answers: map[string]any{"decision": string(agentproto.AllowOnce)}}, nil
	}}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 8192 })
	var stubs []string
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if !lastIsTool(req) {
			if n > 1 {
				return textStep("done"), nil
			}
			return callStep("r1", "run", fmt.Sprintf(`{"command":%q}`, command)), nil
		}
		for _, msg := range req.Messages {
			if msg.Role == llm.RoleTool && strings.Contains(msg.Content, "elided") {
				stubs = append(stubs, msg.Content)
			}
		}
		return textStep("ran it"), nil
	}}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "run it"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(m.ws.Root(), "ran.txt")); string(got) != "once\n" {
		t.Fatalf("the rig is wrong: ran.txt = %q, want the command run once; its result: %.300s", got, ed.toolResult("r1"))
	}
	if len(stubs) == 0 {
		t.Fatalf("the rig is wrong: the command's 120 KB result was never stubbed (result %.200s)", ed.toolResult("r1"))
	}
	for _, stub := range stubs {
		if !strings.Contains(stub, "it already ran") || !strings.Contains(stub, "Calling it again does it again") || strings.Contains(stub, "the same call would give the same result") {
			t.Errorf("the stub of a command says nothing of running it again: %s", stub)
		}
	}
	// Seen by the model, then stubbed as old: the same warning.
	v := s.view
	old := v.stubResult(llm.Message{Role: llm.RoleTool, Name: "run", Content: strings.Repeat("x", 4*stubMinBytes)},
		agentproto.ToolCall{Name: "run", Arguments: fmt.Sprintf(`{"command":%q}`, command)}, true)
	if !strings.Contains(old, "it already ran") || strings.Contains(old, "call the tool again if you need it") {
		t.Errorf("the stub of an old command result: %s", old)
	}
	read := v.stubResult(llm.Message{Role: llm.RoleTool, Name: "read", Content: strings.Repeat("x", 4*stubMinBytes)},
		agentproto.ToolCall{Name: "read", Arguments: `{"path":"big.txt"}`}, true)
	if !strings.Contains(read, "call the tool again if you need it") {
		t.Errorf("the stub of an old read: %s", read)
	}
}

// writeBulkyFiles writes f0.go … f11.go into ed's workspace, 180 lines
// each: reading them all fills a 16k context window. It returns the
// workspace's root.
func writeBulkyFiles(t *testing.T, ed *memEditor) string {
	t.Helper()
	root := ed.ws.Root()
	for i := range 12 {
		body := strings.Repeat(fmt.Sprintf("// file %d: some source line with words in it\n", i), 180)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// readingTurn is the model of these tests: "noted" after a tool's result,
// step(n) for a prompt that starts with prefix, a read of fN.go for the
// prompt "read fN", "ok" to anything else.
func readingTurn(prefix string, step func(n int) llm.Response) func(n int, req llm.Request) (llm.Response, error) {
	return func(n int, req llm.Request) (llm.Response, error) {
		user := lastUserText(req)
		switch {
		case lastIsTool(req):
			return textStep("noted"), nil
		case strings.HasPrefix(user, prefix):
			return step(n), nil
		case strings.HasPrefix(user, "read f"):
			return callStep(fmt.Sprintf("r%d", n), "read", fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(user, "read ")+".go")), nil
		}
		return textStep("ok"), nil
	}
}

// promptToTheEnd sends text as a prompt of session id and fails the test
// unless its turn ends.
func promptToTheEnd(t *testing.T, m *Manager, id, text string) {
	t.Helper()
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: id, Text: text})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("prompt %q = %+v, %v", text, res, err)
	}
}
