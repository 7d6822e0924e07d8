package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/questions"
)

// QuestionAnswer answers a pending question.
type QuestionAnswer struct {
	QuestionID string
	Answers    map[string]any
}

// beginAnswer validates an answer to the pending question qid, begins the
// turn that carries it (see beginAnswering) and takes the answer, returning
// the summary line for the conversation. Invalid answers, or a busy session,
// change nothing.
func (s *Session) beginAnswer(ctx context.Context, qid string, answers map[string]any) (context.Context, func(), string, error) {
	if err := s.checkAnswer(qid, answers); err != nil {
		return nil, nil, "", err
	}
	ctx, release, err := s.beginAnswering(ctx, qid)
	if err != nil {
		return nil, nil, "", err
	}
	note, err := s.takeAnswer(qid, answers)
	if err != nil {
		release()
		return nil, nil, "", err
	}
	return ctx, release, note, nil
}

// beginAnswering is begin for an answer to question qid: while the turn that
// asked it is still ending (the editor may answer as soon as it sees the
// question), it waits for that turn instead of failing with ErrBusy.
func (s *Session) beginAnswering(ctx context.Context, qid string) (context.Context, func(), error) {
	for {
		s.mu.Lock()
		ended := s.turnEnded
		asking := s.busy && s.pending != nil && s.pending.id == qid
		s.mu.Unlock()
		if !asking {
			return s.begin(ctx)
		}
		select {
		case <-ended:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// checkAnswer validates an answer to the pending question without taking it.
func (s *Session) checkAnswer(questionID string, answers map[string]any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checkAnswerLocked(questionID, answers)
}

func (s *Session) checkAnswerLocked(questionID string, answers map[string]any) error {
	if s.pending == nil || s.pending.id != questionID {
		return invalidf("question %q is not pending", questionID)
	}
	if s.pending.held != nil {
		return invalidf("question %q is asked by the running turn: answer it with agent/answer (agentls.answer)", questionID)
	}
	if errs := s.pending.set.Validate(answers); errs != nil {
		return invalidf("invalid answers: %s", questions.ValidationError(errs))
	}
	return nil
}

// takeAnswer validates an answer to the pending question, takes it and
// returns the summary line for the conversation. Nothing changes when it is
// invalid.
func (s *Session) takeAnswer(questionID string, answers map[string]any) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkAnswerLocked(questionID, answers); err != nil {
		return "", err
	}
	note := answerNote(s.pending.set, questionID, answers)
	s.pending = nil
	return note, nil
}

// withdrawQuestion drops a pending question: a newer user message replaces it.
func (s *Session) withdrawQuestion() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != nil {
		slog.Info("pending question withdrawn by a newer message", "session", s.meta.ID, "question", s.pending.id)
		s.pending = nil
	}
	s.heldNext = nil
}

func answerNote(set *questions.Set, id string, answers map[string]any) string {
	b, _ := json.Marshal(answers)
	return fmt.Sprintf("%s\n(answers to question %s: %s)", questions.Summary(set.Questions, answers), id, b)
}

// Answer answers a pending question (agent/answer) and resumes the
// conversation in the background, as a new turn. Invalid answers, or a busy
// session, change nothing.
func (m *Manager) Answer(id, questionID string, answers map[string]any) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	if held, err := s.answerHeld(questionID, answers); held {
		return err // the turn that asks it goes on with the answer
	}
	if !m.startBackground() {
		return errors.New("the server is shutting down: the answer was not taken")
	}
	ctx, release, note, err := s.beginAnswer(m.base, questionID, answers)
	if err != nil {
		m.wg.Done()
		return err
	}
	s.append(llm.Message{Role: llm.RoleUser, Content: note})
	go func() {
		defer m.wg.Done()
		res := s.endTurn(s.runTurn(ctx))
		release()
		s.reportTurn(res)
		slog.Info("resumed turn ended", "session", id, "stopReason", res.StopReason, "err", res.Err)
	}()
	return nil
}

// textAnswer reads a prompt's text as the answer to the session's pending
// question (PROTOCOL.md §7): nil when nothing is pending or the text is not
// an answer (the prompt then withdraws the question); an error, leaving the
// question pending, when it is an answer that fails the question's schema.
func (s *Session) textAnswer(text string) (*QuestionAnswer, error) {
	s.mu.Lock()
	p, busy, asking := s.pending, s.busy, s.pending != nil && s.pending.turn == s.turnEnded
	s.mu.Unlock()
	if p == nil || p.held != nil || (busy && !asking) {
		// Busy with another turn, or with the one that waits for the
		// answer: the prompt is refused as such. (While the asking turn is
		// still ending, the answer waits for it.)
		return nil, nil
	}
	answers, ok := questions.AnswersFromText(p.set, text)
	if !ok {
		return nil, nil
	}
	if errs := p.set.Validate(answers); errs != nil {
		how := "answer again"
		if !questions.IsSingleText(p.set) {
			how = `answer again as JSON ({"name": value}) or name=value lines`
		}
		return nil, invalidf("your reply does not answer the pending question: %s. The question is still pending: %s, or cancel it (agentls.cancel)",
			questions.ValidationError(errs), how)
	}
	return &QuestionAnswer{QuestionID: p.id, Answers: answers}, nil
}

// PendingQuestionID is the id of the session's pending question.
func (m *Manager) PendingQuestionID(id string) (string, error) {
	s, err := m.session(id)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		return "", invalidf("no question is pending in session %s", id)
	}
	if len(s.heldNext) > 0 {
		// Which one an answer is for must be said, never guessed: allowing
		// the other command would run what the person did not mean.
		held := []string{heldLine(s.pending)}
		for _, q := range s.heldNext {
			held = append(held, heldLine(q))
		}
		return "", invalidf("%d questions are pending in session %s; answer one by its questionId: %s", len(held), id, strings.Join(held, "; "))
	}
	return s.pending.id, nil
}

// heldLine names a held question for a choice between several: its id and
// its question's first line, whole.
func heldLine(q *pendingQuestion) string {
	return fmt.Sprintf("%s (%s)", q.id, q.set.Headline())
}

// HeldQuestion is a question pending while the turn that asks it still
// waits for the editor's reply (HoldQuestion).
type HeldQuestion struct {
	s *Session
	q *pendingQuestion
}

// QuestionHolder keeps a question pending while its editor shows it (the
// Manager).
type QuestionHolder interface {
	HoldQuestion(sessionID, questionID string, set *questions.Set, createdAt time.Time) *HeldQuestion
}

var _ QuestionHolder = (*Manager)(nil)

// HoldQuestion makes the question questionID (set) of session sessionID
// (the face's id) pending while the caller waits for the editor's own
// reply: agent/answer (agentls.answer) answers it too, and whichever
// answer comes first decides (Answered, Release). An editor may take a
// question off its screen without replying (eglot's C-g sends nothing):
// the question stays answerable. While another held question is pending
// (two sub-agents asking at once) it is next (heldNext): agent/answer
// answers either by its question id, and one without an id is refused
// with both listed (PendingQuestionID). It returns nil when the session
// has a question pending whose turn ended (the editor's reply alone
// decides then). The session's pending slot and heldNext stay the one
// owner of the question.
func (m *Manager) HoldQuestion(sessionID, questionID string, set *questions.Set, createdAt time.Time) *HeldQuestion {
	s, err := m.session(sessionID)
	if err != nil {
		slog.Debug("question not held", "session", sessionID, "err", err)
		return nil
	}
	q := &pendingQuestion{id: questionID, set: set, createdAt: createdAt, held: make(chan map[string]any, 1)}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.pending == nil:
		s.pending = q
	case s.pending.held != nil:
		s.heldNext = append(s.heldNext, q)
	default:
		return nil
	}
	q.turn = s.turnEnded
	return &HeldQuestion{s: s, q: q}
}

// unholdLocked takes the held question q out of pending, where the next
// held one takes its place, or out of heldNext (nothing when it is in
// neither: answered or withdrawn already).
func (s *Session) unholdLocked(q *pendingQuestion) {
	if s.pending == q {
		s.pending = nil
		if len(s.heldNext) > 0 {
			s.pending, s.heldNext = s.heldNext[0], s.heldNext[1:]
		}
		return
	}
	if i := slices.Index(s.heldNext, q); i >= 0 {
		s.heldNext = slices.Delete(s.heldNext, i, i+1)
	}
}

// heldLocked is the held question questionID, pending or next; nil when
// there is none.
func (s *Session) heldLocked(questionID string) *pendingQuestion {
	if p := s.pending; p != nil && p.held != nil && p.id == questionID {
		return p
	}
	for _, q := range s.heldNext {
		if q.id == questionID {
			return q
		}
	}
	return nil
}

// Answered delivers the answers given through agent/answer.
func (h *HeldQuestion) Answered() <-chan map[string]any { return h.q.held }

// Release ends the hold once the editor replied or the wait ended: the
// question is pending no more. answers are those agent/answer gave before
// (answered): they decide, not the editor's reply.
func (h *HeldQuestion) Release() (answers map[string]any, answered bool) {
	h.s.mu.Lock()
	h.s.unholdLocked(h.q)
	h.s.mu.Unlock()
	select {
	case answers = <-h.q.held:
		return answers, true
	default:
		return nil, false
	}
}

// answerHeld hands an answer to the held question questionID to the turn
// that waits for it. held is false when questionID is no held question;
// invalid answers change nothing.
func (s *Session) answerHeld(questionID string, answers map[string]any) (held bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.heldLocked(questionID)
	if p == nil {
		return false, nil
	}
	if errs := p.set.Validate(answers); errs != nil {
		return true, invalidf("invalid answers: %s", questions.ValidationError(errs))
	}
	s.unholdLocked(p)
	p.held <- answers // never blocks: only the one who took it out of the held questions sends
	slog.Info("held question answered through agent/answer", "session", s.meta.ID, "question", questionID)
	return true, nil
}
