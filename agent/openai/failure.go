package openai

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm/kit"
)

// keyHint is what a 401 or 403 from an OpenAI-compatible endpoint asks the
// user to check.
const keyHint = "check OPENAI_API_KEY / api_key_env"

// classify turns an attempt's error into a *kit.Error (Attempts not yet set);
// its Transient field says whether a retry may help. go-openai's error types
// are mapped here, the rest by the kit.
func classify(err error) *kit.Error {
	e := classifyWire(err)
	e.KeyHint = keyHint
	return e
}

// classifyWire maps go-openai's errors, and hands the others to the kit.
func classifyWire(err error) *kit.Error {
	var reqErr *goopenai.RequestError
	if errors.As(err, &reqErr) {
		msg := kit.Excerpt(string(reqErr.Body))
		if msg == "" && reqErr.Err != nil {
			msg = reqErr.Err.Error()
		}
		e := &kit.Error{
			StatusCode: reqErr.HTTPStatusCode,
			Status:     kit.StatusText(reqErr.HTTPStatusCode, reqErr.HTTPStatus),
			Message:    msg,
			Transient:  kit.StatusRetryable(reqErr.HTTPStatusCode, ""),
			Err:        err,
		}
		e.MarkOverflow(string(reqErr.Body))
		return e
	}
	var apiErr *goopenai.APIError
	if errors.As(err, &apiErr) {
		code, num := errorCode(apiErr.Code)
		if code == "" {
			code = apiErr.Type
		}
		quota := code == "insufficient_quota" || apiErr.Type == "insufficient_quota"
		if quota {
			code = "insufficient_quota"
		}
		e := &kit.Error{Code: code, Message: kit.Excerpt(apiErr.Message), Err: err}
		e.MarkOverflow(code, apiErr.Type, apiErr.Message)
		if apiErr.HTTPStatusCode > 0 {
			e.StatusCode = apiErr.HTTPStatusCode
			e.Status = kit.StatusText(apiErr.HTTPStatusCode, apiErr.HTTPStatus)
			e.Transient = !quota && kit.StatusRetryable(apiErr.HTTPStatusCode, code)
			return e
		}
		// An error event inside a stream: no HTTP status, classify by code/type.
		e.Message = "error event in stream"
		if code != "" {
			e.Message += " [" + code + "]"
		}
		e.Message += ": " + kit.Excerpt(apiErr.Message)
		e.Transient = !quota && (kit.RetryableCodes[code] || kit.RetryableCodes[apiErr.Type] ||
			(num > 0 && kit.StatusRetryable(num, code)))
		return e
	}
	return kit.Classify(err)
}

// streamUnsupported reports whether e is a server saying it cannot stream this
// request (llama.cpp: "Cannot use tools with stream").
func streamUnsupported(e *kit.Error) bool {
	if e.StatusCode == 0 || e.StatusCode == http.StatusTooManyRequests {
		return false
	}
	m := strings.ToLower(e.Message)
	if !strings.Contains(m, "stream") {
		return false
	}
	for _, s := range []string{"not supported", "unsupported", "cannot use", "not implemented"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// reasoningDemanded reports whether e is a server's refusal of a request
// whose history lacks an assistant message's reasoning: DeepSeek's "Missing
// `reasoning_content` field in the assistant message at message index N"
// and "The `reasoning_content` in the thinking mode must be passed back to
// the API".
func reasoningDemanded(e *kit.Error) bool {
	if e.StatusCode != http.StatusBadRequest {
		return false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "reasoning_content") && (strings.Contains(m, "passed back") || strings.Contains(m, "missing"))
}

// reasoningRefused reports whether e is a server's refusal of the
// reasoning sent back with assistant messages: a strict schema (Groq's
// "property 'reasoning' is unsupported", "reasoning is not supported with
// this model", "Additional properties are not allowed ('reasoning_content'
// was unexpected)"). Not a refusal for lack of it (reasoningDemanded).
func reasoningRefused(e *kit.Error) bool {
	if e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	m := strings.ToLower(e.Message)
	if !strings.Contains(m, "reasoning") || reasoningDemanded(e) {
		return false
	}
	for _, s := range []string{"unsupported", "not supported", "unknown", "unrecognized", "unexpected", "not allowed", "not permitted", "extra"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// errorCode renders an APIError.Code (a string, a number or nil) as text, and
// returns it as a number too when it is one.
func errorCode(code any) (string, int) {
	switch c := code.(type) {
	case string:
		n, _ := strconv.Atoi(c)
		return c, n
	case int:
		return strconv.Itoa(c), c
	case float64:
		return strconv.Itoa(int(c)), int(c)
	case nil:
		return "", 0
	default:
		return fmt.Sprint(c), 0
	}
}
