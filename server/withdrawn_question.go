package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
)

// A question whose time ran out (plan_mode.approval_timeout_secs) is
// withdrawn with $/cancelRequest, which a plain editor may ignore: eglot
// keeps its completing-read in the minibuffer after the turn ended, and
// agentls cannot close it. What agentls can do, it does: it tells the
// person that the question was withdrawn and what did not happen, and
// says so again when a reply to it comes later (the connection drops such
// a reply: it answers no pending request).

// withdrawal is what a person is told about a question withdrawn
// unanswered: the question (`Run "make"?`) and what did not happen. The
// zero withdrawal tells nothing.
type withdrawal struct {
	question string
	outcome  string
}

// permissionWithdrawal is the withdrawal of a permission question (the
// zero one for any other).
func permissionWithdrawal(req agent.AskRequest) withdrawal {
	if req.Purpose != "permission" || req.Permission == nil {
		return withdrawal{}
	}
	if req.Permission.Kind == agentproto.PermissionRun {
		return withdrawal{question: req.Permission.RunQuestion(), outcome: "the command did not run"}
	}
	w := withdrawal{question: req.Permission.What, outcome: "nothing was allowed"}
	if len(req.Set.Questions) > 0 {
		w.question = req.Set.Headline()
	}
	return w
}

// maxWithdrawn bounds the withdrawn questions remembered for a late reply
// (the oldest is forgotten first).
const maxWithdrawn = 32

// withdrawnQuestion is a withdrawn request's withdrawal and how long it
// had waited.
type withdrawnQuestion struct {
	w      withdrawal
	waited time.Duration
}

// withdrawnQuestions are the questions withdrawn unanswered, by request id,
// until a reply to one comes.
type withdrawnQuestions struct {
	mu    sync.Mutex
	byID  map[jsonrpc2.ID]withdrawnQuestion
	order []jsonrpc2.ID
}

func (r *withdrawnQuestions) add(id jsonrpc2.ID, q withdrawnQuestion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[jsonrpc2.ID]withdrawnQuestion{}
	}
	if len(r.order) == maxWithdrawn {
		delete(r.byID, r.order[0])
		r.order = r.order[1:]
	}
	r.byID[id] = q
	r.order = append(r.order, id)
}

// take returns and forgets the withdrawn question id, if it is one.
func (r *withdrawnQuestions) take(id jsonrpc2.ID) (withdrawnQuestion, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q, ok := r.byID[id]
	if ok {
		delete(r.byID, id)
		for i, o := range r.order {
			if o == id {
				r.order = append(r.order[:i], r.order[i+1:]...)
				break
			}
		}
	}
	return q, ok
}

// seconds is a wait as the messages say it ("3 s").
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", int64(d.Round(time.Second)/time.Second))
}

// questionWithdrawn tells the person that the request id, the question w,
// was withdrawn unanswered after waited, and remembers it for a late
// reply. ctx has ended: the message goes out under its values only.
func (s *Server) questionWithdrawn(ctx context.Context, id jsonrpc2.ID, w withdrawal, waited time.Duration) {
	if w.question == "" {
		return
	}
	s.withdrawn.add(id, withdrawnQuestion{w: w, waited: waited})
	slog.Info("question withdrawn unanswered", "question", w.question, "waited", waited)
	s.showLine(context.WithoutCancel(ctx), msgWarning, fmt.Sprintf(
		"agentls: the question \"%s\" was withdrawn after %s without an answer (plan_mode.approval_timeout_secs): %s. Answering it now does nothing; to have it done, ask the agent again.",
		w.question, seconds(waited), w.outcome))
}

// lateReply tells the person, when resp answers a question withdrawn
// before (questionWithdrawn), that their answer came too late and what did
// not happen. A dismissal (null) or an error says nothing. It runs on the
// connection's reader: the message goes out on a goroutine of the server's.
func (s *Server) lateReply(resp *jsonrpc2.Response) {
	q, ok := s.withdrawn.take(resp.ID())
	if !ok || resp.Err() != nil {
		return
	}
	var chosen struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(resp.Result(), &chosen); err != nil || chosen.Title == "" {
		return
	}
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	if ctx == nil || ctx.Err() != nil {
		return
	}
	text := fmt.Sprintf("agentls: your answer \"%s\" came after the question \"%s\" was withdrawn (after %s without an answer): %s. To have it done, ask the agent again.",
		chosen.Title, q.w.question, seconds(q.waited), q.w.outcome)
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.showLine(ctx, msgWarning, text)
	}()
}

// replyWatch is the connection's stream with each message from the editor
// shown to read, and each reply from the editor to seen, before the
// connection reads it.
type replyWatch struct {
	jsonrpc2.Stream
	read func(jsonrpc2.Message)
	seen func(*jsonrpc2.Response)
}

func (w replyWatch) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := w.Stream.Read(ctx)
	if err != nil {
		return msg, n, err
	}
	w.read(msg)
	if resp, ok := msg.(*jsonrpc2.Response); ok {
		w.seen(resp)
	}
	return msg, n, err
}
