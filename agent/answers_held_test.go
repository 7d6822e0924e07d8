package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// replyAsker is an editor whose reply to each question comes when the test
// sends it on reply (a person's choice, or nil for none: the question ends
// with its context).
type replyAsker struct {
	asked chan AskRequest
	reply chan AskReply
}

func (a replyAsker) Ask(ctx context.Context, req AskRequest) (AskReply, error) {
	a.asked <- req
	select {
	case r := <-a.reply:
		return r, nil
	case <-ctx.Done():
		return AskReply{}, ctx.Err()
	}
}

// heldRunRequest is a command's permission request in session sid.
func heldRunRequest(sid string) permission.Request {
	return permission.Request{SessionID: sid, Requester: "run", Kind: agentproto.PermissionRun, What: "touch ran.txt",
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, "Reject"),
			permission.Opt(agentproto.AllowOnce, "Run"),
		}}
}

// TestHeldPermissionFirstAnswerDecides: a permission question held for
// agent/answer is decided by whichever answer comes first, the editor's
// reply or agent/answer's, also when both come at once; the other changes
// nothing, and the question is pending no more.
func TestHeldPermissionFirstAnswerDecides(t *testing.T) {
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: ok\n", &memEditor{}, nil)
	s := newTestSession(t, m, "build")
	for i := range 50 {
		a := replyAsker{asked: make(chan AskRequest, 1), reply: make(chan AskReply, 1)}
		p := AskPermitter{Asker: a, Holder: m}
		var d permission.Decision
		var err error
		var wg sync.WaitGroup
		wg.Go(func() { d, err = p.Permit(context.Background(), heldRunRequest(s.meta.ID)) })
		req := <-a.asked
		qid, perr := m.PendingQuestionID(s.meta.ID)
		if perr != nil || qid != req.QuestionID {
			t.Fatalf("pending question = %q, %v; want the question shown, %s", qid, perr, req.QuestionID)
		}
		// The editor rejects; agent/answer allows, at the same moment.
		a.reply <- AskReply{Answers: map[string]any{permission.QuestionName: "reject_once"}}
		answerErr := m.Answer(s.meta.ID, qid, map[string]any{permission.QuestionName: "allow_once"})
		wg.Wait()
		if err != nil {
			t.Fatalf("#%d: Permit: %v", i, err)
		}
		if answerErr == nil && d.Option != agentproto.AllowOnce || answerErr != nil && d.Option != agentproto.RejectOnce {
			t.Fatalf("#%d: agent/answer = %v, decision %s: the answer that was taken must decide", i, answerErr, d.Option)
		}
		if _, err := m.PendingQuestionID(s.meta.ID); err == nil {
			t.Fatalf("#%d: a question is still pending after the decision", i)
		}
	}
}

// TestHeldPermissionInvalidAnswerChangesNothing: an agent/answer that
// does not fit the question is refused and the question stays pending.
func TestHeldPermissionInvalidAnswerChangesNothing(t *testing.T) {
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: ok\n", &memEditor{}, nil)
	s := newTestSession(t, m, "build")
	a := replyAsker{asked: make(chan AskRequest, 1), reply: make(chan AskReply, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var err error
	wg.Go(func() { _, err = AskPermitter{Asker: a, Holder: m}.Permit(ctx, heldRunRequest(s.meta.ID)) })
	req := <-a.asked
	if aerr := m.Answer(s.meta.ID, req.QuestionID, map[string]any{permission.QuestionName: "allow_always"}); aerr == nil {
		t.Fatal("agent/answer with an option not offered was taken")
	}
	if qid, perr := m.PendingQuestionID(s.meta.ID); perr != nil || qid != req.QuestionID {
		t.Fatalf("pending question after an invalid answer = %q, %v", qid, perr)
	}
	cancel() // the turn is cancelled: the question ends unanswered
	wg.Wait()
	if err == nil {
		t.Fatal("Permit after the cancel returned no error")
	}
	if _, perr := m.PendingQuestionID(s.meta.ID); perr == nil {
		t.Fatal("a question is still pending after its turn stopped waiting")
	}
}

// TestTwoHeldPermissionsAreAnsweredInTurn: two questions asked at once in
// one session (sub-agents side by side) whose editor replies to neither
// (eglot's C-g) are both held: agent/answer without a question id
// answers the oldest, then the other; with an id it answers the one it
// names, the other staying pending.
func TestTwoHeldPermissionsAreAnsweredInTurn(t *testing.T) {
	for _, tc := range []struct {
		name string
		// byID answers the newer question first, naming it.
		byID bool
	}{
		{"the oldest first", false},
		{"the newer one by its id", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t, "name: none\nsteps:\n  - text: ok\n", &memEditor{}, nil)
			s := newTestSession(t, m, "build")
			a := replyAsker{asked: make(chan AskRequest, 2), reply: make(chan AskReply)} // the editor never replies
			p := AskPermitter{Asker: a, Holder: m}
			decisions := make([]permission.Decision, 2)
			var wg sync.WaitGroup
			var ids [2]string
			for i := range 2 {
				wg.Go(func() {
					d, err := p.Permit(context.Background(), heldRunRequest(s.meta.ID))
					if err != nil {
						t.Errorf("question %d: Permit: %v", i+1, err)
					}
					decisions[i] = d
				})
				ids[i] = (<-a.asked).QuestionID // asked one after the other
			}
			answer := func(qid string, option agentproto.OptionKind) {
				t.Helper()
				if err := m.Answer(s.meta.ID, qid, map[string]any{permission.QuestionName: string(option)}); err != nil {
					t.Fatalf("agent/answer %s to %s: %v", option, qid, err)
				}
			}
			first, second := ids[0], ids[1]
			if tc.byID {
				first, second = ids[1], ids[0]
			}
			if qid, err := m.PendingQuestionID(s.meta.ID); err != nil || qid != ids[0] {
				t.Fatalf("pending question = %q, %v; want the oldest, %s", qid, err, ids[0])
			}
			answer(first, agentproto.AllowOnce)
			if qid, err := m.PendingQuestionID(s.meta.ID); err != nil || qid != second {
				t.Fatalf("pending question after the first answer = %q, %v; want %s", qid, err, second)
			}
			answer(second, agentproto.RejectOnce)
			wg.Wait()
			want := map[string]agentproto.OptionKind{first: agentproto.AllowOnce, second: agentproto.RejectOnce}
			for i, d := range decisions {
				if d.Option != want[ids[i]] {
					t.Errorf("question %d decided %s, want %s", i+1, d.Option, want[ids[i]])
				}
			}
			if _, err := m.PendingQuestionID(s.meta.ID); err == nil {
				t.Fatal("a question is still pending after both were answered")
			}
		})
	}
}
