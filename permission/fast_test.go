package permission

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// fakeFace answers a permission request as a face does: it queues (shows
// its own text first) for queue, marks the send (unless it never says),
// sends again after a bad answer when resends, and the client answers
// answer after the (last) send. Time is synctest's.
type fakeFace struct {
	queue   time.Duration
	noSent  bool
	resends bool
	answer  time.Duration
	option  agentproto.OptionKind // "" dismisses
	err     error
}

func (f fakeFace) Permit(ctx context.Context, req Request) (Decision, error) {
	time.Sleep(f.queue) // synctest's clock: the face's own queueing before the question is shown
	if !f.noSent {
		Sent(ctx)
	}
	if f.resends {
		time.Sleep(time.Second) // an answer that failed validation
		Sent(ctx)
	}
	time.Sleep(f.answer)
	if f.err != nil {
		return Decision{}, f.err
	}
	if f.option == "" {
		return Decision{Dismissed: true}, nil
	}
	return req.DecisionOf(string(f.option))
}

// TestAskMarksFastAllowing: the service marks an allowing answer that came
// within HumanFloor of the face's send — every kind, every face shape —
// and nothing else: a slow answer, a rejection, a dismissal, an error, or
// a face's own queueing before the send. A marked answer grants nothing
// that outlasts the call: its allow_always is allow_once (a trust
// question's "Trust" is its allow_always: no trust), and its note says
// what it was taken for without claiming the user set anything.
func TestAskMarksFastAllowing(t *testing.T) {
	kinds := []agentproto.PermissionKind{agentproto.PermissionRun, agentproto.PermissionMCP, agentproto.PermissionNetwork,
		agentproto.PermissionTrust, agentproto.PermissionSubagent, agentproto.PermissionEdit, agentproto.PermissionPlan}
	faces := []struct {
		name string
		face fakeFace
		// counted is the part of the face's time before the answer that
		// the service counts.
		counted time.Duration
	}{
		{"sends at once (agent/askUser, ACP)", fakeFace{}, 0},
		{"queues 2 s before the send (ACP's text first)", fakeFace{queue: 2 * time.Second}, 0},
		{"sends again after a bad answer (askUser's errors)", fakeFace{resends: true}, 0},
		{"never marks the send (timed from the ask)", fakeFace{noSent: true, queue: 100 * time.Millisecond}, 100 * time.Millisecond},
	}
	answers := []time.Duration{0, 40 * time.Millisecond, 150 * time.Millisecond, HumanFloor - time.Millisecond, HumanFloor, 5 * time.Second}
	options := []agentproto.OptionKind{agentproto.AllowOnce, agentproto.AllowAlways, agentproto.RejectOnce, ""}
	for _, kind := range kinds {
		for _, fc := range faces {
			for _, answer := range answers {
				for _, opt := range options {
					name := fmt.Sprintf("%s/%s/%s/%q", kind, fc.name, answer, opt)
					t.Run(name, func(t *testing.T) {
						synctest.Test(t, func(t *testing.T) {
							face := fc.face
							face.answer, face.option = answer, opt
							req := Request{SessionID: "s", ToolCallID: "c", Kind: kind, What: "x", Options: []agentproto.PermissionOption{
								Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Allow"), Opt(agentproto.AllowAlways, "Always")}}
							d, err := Ask(context.Background(), face, req)
							if err != nil {
								t.Fatal(err)
							}
							took := fc.counted + answer
							wantFast := (opt == agentproto.AllowOnce || opt == agentproto.AllowAlways) && took < HumanFloor
							if (d.Fast > 0) != wantFast {
								t.Fatalf("Fast = %s, want fast %v (answered %s after the send)", d.Fast, wantFast, took)
							}
							note := d.FastNote()
							if !wantFast {
								if note != "" {
									t.Fatalf("note %q on a decision that is not fast", note)
								}
								if d.Option != opt && (opt != "" || !d.Dismissed) {
									t.Errorf("decision %+v, want option %s as the face answered", d, opt)
								}
								return
							}
							if d.Fast > took+time.Nanosecond || d.Option != agentproto.AllowOnce || d.Chose != opt || d.Kind != kind {
								t.Errorf("decision %+v, want option allow_once (chose %s), fast %s", d, opt, took)
							}
							outcome := "allowed for this call only"
							switch {
							case kind == agentproto.PermissionTrust:
								outcome = "not trusted this time (the question comes again)"
							case kind == agentproto.PermissionPlan:
								outcome = "the plan is not approved and still awaits approval"
							case opt == agentproto.AllowAlways:
								outcome = "allowed once, not always (no rule is saved)"
							}
							want := fmt.Sprintf("answered by the client in %d ms (%s), faster than a person decides: %s; "+
								`the client answered by itself (an auto-approve setting, or a client that remembers an earlier "always")`,
								took.Milliseconds(), opt, outcome)
							if note != want {
								t.Errorf("note %q, want %q", note, want)
							}
							if strings.Contains(note, "check the client's auto-approve setting") {
								t.Errorf("note %q claims the user's auto-approve setting is on", note)
							}
						})
					})
				}
			}
		}
	}
}

// TestAskErrorIsNotMarked: a face's error comes back as it is, unmarked.
func TestAskErrorIsNotMarked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("boom")
		d, err := Ask(context.Background(), fakeFace{err: boom}, Request{Kind: agentproto.PermissionRun})
		if !errors.Is(err, boom) || d.Fast != 0 || d.FastNote() != "" {
			t.Fatalf("Ask = %+v, %v", d, err)
		}
	})
}

// TestMarkLogsWarning: a fast allowing decision is logged as a warning
// naming the session, the tool call, the kind and what was asked; a slow
// one is not logged.
func TestMarkLogsWarning(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	req := Request{SessionID: "s1", ToolCallID: "c1", Kind: agentproto.PermissionMCP, What: "db.drop"}
	Mark(req, Decision{Option: agentproto.AllowOnce}, time.Second)
	if buf.Len() != 0 {
		t.Fatalf("a slow answer was logged: %s", buf.String())
	}
	d := Mark(req, Decision{Option: agentproto.AllowOnce}, 0)
	if d.Fast <= 0 || !strings.Contains(d.FastNote(), "answered by the client in 0 ms (allow_once)") {
		t.Fatalf("an answer in 0 ms: %+v %q", d, d.FastNote())
	}
	for _, want := range []string{"level=WARN", "answered by the client in 0 ms (allow_once)", "session=s1", "toolCall=c1", "kind=mcp", "what=db.drop"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %q: %s", want, buf.String())
		}
	}
}

// TestApprovalDecision: a plan approval's answer maps to the options its
// question offers.
func TestApprovalDecision(t *testing.T) {
	if d := Approval(true); !d.Allowed() {
		t.Errorf("Approval(true) = %+v", d)
	}
	if d := Approval(false); d.Allowed() || d.Option != agentproto.RejectOnce {
		t.Errorf("Approval(false) = %+v", d)
	}
}
