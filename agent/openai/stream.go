package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
)

// streamAttempt makes one streaming request. emitted reports whether any
// event reached onEvent (the attempt must then not be retried).
func (p *Provider) streamAttempt(ctx context.Context, creq goopenai.ChatCompletionRequest, enc encoded, onEvent func(llm.Event), ex *exchange) (resp llm.Response, emitted bool, err error) {
	creq.Stream = true
	creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
	ex.captureJSON = true
	wire := wireRequest(creq, enc)
	if ex.body, err = body(wire, enc); err != nil {
		return llm.Response{}, false, err
	}
	stream, err := p.client.CreateChatCompletionStream(withExchange(ctx, ex), wire)
	if err != nil {
		return llm.Response{}, false, err
	}
	defer stream.Close()

	acc := newAccumulator(onEvent)
	acc.think.assumeOpen = ex.assumeOpen
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if acc.chunks == 0 && ex.jsonBody != nil {
				return jsonAnswer(ex, onEvent)
			}
			return llm.Response{}, acc.emitted, streamReadError(err)
		}
		ex.dog.Beat()
		acc.add(&chunk)
	}
	if acc.chunks == 0 {
		if ex.jsonBody != nil {
			return jsonAnswer(ex, onEvent)
		}
		return llm.Response{}, false, &kit.StreamDrop{Err: errors.New("the stream ended before any data")}
	}
	if acc.choices == 0 {
		// Chunks, but no choice in any (usage alone, a gateway that failed
		// upstream or filtered the whole answer): no answer, as a plain
		// body without choices is none.
		return llm.Response{}, false, &kit.Malformed{Err: errors.New("the stream carried no choice (no answer)")}
	}
	if acc.finish == "" && !ex.sawDone {
		// Neither a finish_reason nor [DONE]: the body ended in the middle
		// of the answer (a proxy giving up cleanly), not a whole answer.
		return llm.Response{}, acc.emitted, &kit.StreamDrop{Err: errors.New("the stream ended before the answer did (no finish_reason, no [DONE])")}
	}
	acc.end()
	ex.reasoning, ex.inline, ex.closing = acc.reasoning.String(), acc.inline.String(), acc.closing
	return acc.response(), acc.emitted, nil
}

// streamReadError sorts an error from reading the stream: provider error
// events stay *APIError, unparsable chunks are malformed, anything else (a
// reset connection, an unexpected EOF) is a dropped stream.
func streamReadError(err error) error {
	var apiErr *goopenai.APIError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &apiErr):
		return err
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr), errors.Is(err, goopenai.ErrTooManyEmptyStreamMessages):
		return &kit.Malformed{Err: err}
	default:
		return &kit.StreamDrop{Err: err}
	}
}

// jsonAnswer parses the plain JSON body a server sent in answer to a
// streaming request (ex.jsonBody), emits its reasoning and text, and
// returns it.
func jsonAnswer(ex *exchange, onEvent func(llm.Event)) (llm.Response, bool, error) {
	body := ex.jsonBody
	if err := errorObject(body); err != nil {
		return llm.Response{}, false, err
	}
	var cr goopenai.ChatCompletionResponse
	if err := json.Unmarshal(body, &cr); err != nil || len(cr.Choices) == 0 {
		return llm.Response{}, false, &kit.Malformed{Err: fmt.Errorf("a streaming request was answered with a JSON body that is not a chat completion: %s", kit.Excerpt(string(body)))}
	}
	resp, emitted := convertWhole(&cr, onEvent, ex)
	return resp, emitted, nil
}

// errorObject is the OpenAI error object some gateways send as the body of
// an HTTP 200 answer ({"error": {...}}) in place of a completion, as a
// *goopenai.APIError without a status: classified by its code and type
// like an error event in a stream (an overflow, a rate limit retried);
// nil when body is not one.
func errorObject(body []byte) error {
	var e goopenai.ErrorResponse
	if json.Unmarshal(body, &e) != nil || e.Error == nil || (e.Error.Message == "" && e.Error.Code == nil && e.Error.Type == "") {
		return nil
	}
	return e.Error
}
