package agent

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// noteTurnError keeps the error a prompt's turn ended with in the session
// file, so a reloaded chat shows the prompt as failed and retryable.
func (s *Session) noteTurnError(messageID string, res TurnResult) {
	if res.StopReason != agentproto.StopError || res.Err == nil || messageID == "" {
		return
	}
	s.record(chatRecord{Record: recordTurnError, rewindFields: rewindFields{Message: messageID}, Reason: res.Err.Error()})
}

// withTurnErrors marks the user messages of msgs whose turn failed with
// their error.
func (s *Session) withTurnErrors(msgs []llm.Message) []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, msg := range msgs {
		if msg.Role == llm.RoleUser {
			msgs[i].Error = s.view.turnErrors[msg.ID]
		}
	}
	return msgs
}

// retryTarget is the user message req.RetryOf names, when it may be sent
// again: the session's last prompt, not set aside.
func (s *Session) retryTarget(id string) (llm.Message, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := -1
	for i := len(s.messages) - 1; i >= 0; i-- {
		if s.messages[i].Role == llm.RoleUser {
			last = i
			break
		}
	}
	for i, msg := range s.messages {
		if msg.ID != id {
			continue
		}
		switch {
		case msg.Role != llm.RoleUser:
			return llm.Message{}, 0, invalidf("retryOf: message %q is not a prompt; name the user message of the failed prompt", id)
		case i != last:
			return llm.Message{}, 0, invalidf("retryOf: only the session's last prompt can be sent again; message %q has later prompts", id)
		case s.view.setAside(i):
			return llm.Message{}, 0, invalidf("retryOf: the prompt %q was set aside (too long for the model's context window); send a shorter one", id)
		case strings.TrimSpace(msg.Content) == "":
			return llm.Message{}, 0, invalidf("retryOf: the prompt %q has no text", id)
		}
		return msg, i, nil
	}
	return llm.Message{}, 0, invalidf("retryOf: no message %q in session %s", id, s.meta.ID)
}

// retry runs the turn of the session's last prompt again (agent/prompt
// retryOf): the prompt's message stays as it is, once in the history, and
// the model gets the conversation up to it as before. A successful retry
// clears the prompt's error.
func (s *Session) retry(ctx context.Context, req PromptRequest) (TurnResult, error) {
	user, _, err := s.retryTarget(req.RetryOf)
	if err != nil {
		return TurnResult{}, err
	}
	ctx, release, err := s.begin(ctx)
	if err != nil {
		return TurnResult{}, err
	}
	var res TurnResult
	defer func() {
		release()
		s.reportTurn(res)
	}()
	if req.OnStart != nil {
		req.OnStart()
	}
	res = s.endTurn(s.runPersisted(ctx))
	if res.StopReason == agentproto.StopError && res.Err != nil {
		s.noteTurnError(user.ID, res)
	} else {
		s.record(chatRecord{Record: recordTurnError, rewindFields: rewindFields{Message: user.ID}})
	}
	return res, nil
}
