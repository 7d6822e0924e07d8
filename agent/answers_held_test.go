package agent

import (
	"context"
	"strings"
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

// TestTwoHeldPermissionsAreAnsweredByID: two questions asked at once in
// one session (sub-agents side by side) whose editor replies to neither
// (eglot's C-g) are both held. agent/answer without a question id is
// refused, listing both with their commands (an answer must never go to a
// command the person did not mean); with an id it answers the one it
// names, in either order, the other staying pending.
func TestTwoHeldPermissionsAreAnsweredByID(t *testing.T) {
	for _, tc := range []struct {
		name string
		// newerFirst answers the newer question first.
		newerFirst bool
	}{
		{"the oldest first", false},
		{"the newer one first", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t, "name: none\nsteps:\n  - text: ok\n", &memEditor{}, nil)
			s := newTestSession(t, m, "build")
			a := replyAsker{asked: make(chan AskRequest, 2), reply: make(chan AskReply)} // the editor never replies
			p := AskPermitter{Asker: a, Holder: m}
			decisions := make([]permission.Decision, 2)
			var wg sync.WaitGroup
			var ids [2]string
			for i, command := range []string{"rm -rf build", "touch ran.txt"} {
				wg.Go(func() {
					req := heldRunRequest(s.meta.ID)
					req.What = command
					d, err := p.Permit(context.Background(), req)
					if err != nil {
						t.Errorf("question %d: Permit: %v", i+1, err)
					}
					decisions[i] = d
				})
				ids[i] = (<-a.asked).QuestionID // asked one after the other
			}
			_, err := m.PendingQuestionID(s.meta.ID)
			if err == nil || !strings.Contains(err.Error(), "2 questions are pending") ||
				!strings.Contains(err.Error(), ids[0]+" (Run `rm -rf build`?)") || !strings.Contains(err.Error(), ids[1]+" (Run `touch ran.txt`?)") {
				t.Fatalf("the pending question with two held = %v; want a refusal listing both with their commands", err)
			}
			first, second := ids[0], ids[1]
			if tc.newerFirst {
				first, second = ids[1], ids[0]
			}
			answer := func(qid string, option agentproto.OptionKind) {
				t.Helper()
				if err := m.Answer(s.meta.ID, qid, map[string]any{permission.QuestionName: string(option)}); err != nil {
					t.Fatalf("agent/answer %s to %s: %v", option, qid, err)
				}
			}
			answer(first, agentproto.RejectOnce)
			if qid, err := m.PendingQuestionID(s.meta.ID); err != nil || qid != second {
				t.Fatalf("pending question after the first answer = %q, %v; want %s", qid, err, second)
			}
			answer(second, agentproto.AllowOnce)
			wg.Wait()
			want := map[string]agentproto.OptionKind{first: agentproto.RejectOnce, second: agentproto.AllowOnce}
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
