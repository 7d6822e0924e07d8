package openai

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/agentls/agentls/agent/llm/kit"
)

// maxJSONAnswer bounds the plain JSON body kept when a server answers a
// streaming request without streaming.
const maxJSONAnswer = 16 << 20

// exchange records what the HTTP layer saw during one attempt. go-openai turns
// error responses into *APIError values without their headers, so Retry-After
// is read here; it also keeps the body of a streaming request that a server
// answered with plain JSON, which go-openai's stream reader cannot parse.
// An attempt runs in one goroutine, so no lock is needed.
type exchange struct {
	captureJSON bool          // set for streaming requests, and plain ones (an error object in a 200 body)
	dog         *kit.Watchdog // told of every streamed event
	status      int
	header      http.Header
	jsonBody    []byte
	sawDone     bool // the stream's [DONE] event was read
	// body, when set, is the request body sent instead of the one go-openai
	// encoded (see encode.go).
	body *requestBody
	// renamed is set when the answer sent its reasoning as "reasoning"
	// (reasoning_field.go); reasoning is the answer's reasoning, sent
	// apart from its text; inline the reasoning it wrote inline
	// (think.go).
	renamed           bool
	reasoning, inline string
	// assumeOpen starts the answer inside its reasoning; closing is what
	// the answer said about its model's answers (think_close.go).
	assumeOpen bool
	closing    closing
}

// reasoningField is the field the answer sent its reasoning in.
func (ex *exchange) reasoningField() string {
	if ex.renamed {
		return fieldReasoning
	}
	return fieldReasoningContent
}

type exchangeKey struct{}

// withExchange returns ctx carrying ex for recordingDoer.
func withExchange(ctx context.Context, ex *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// recordingDoer is the go-openai HTTPDoer: it sends requests with the
// configured client and records each response into the request's exchange.
type recordingDoer struct {
	client *http.Client
}

// Do sends req and records the response status, headers and, for a streaming
// request answered with application/json, the body.
func (d recordingDoer) Do(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if ex != nil && ex.body != nil {
		setBody(req, ex.body)
	}
	resp, err := d.client.Do(req)
	if err != nil || ex == nil {
		return resp, err
	}
	ex.status = resp.StatusCode
	ex.header = resp.Header.Clone()
	if !ex.captureJSON || resp.StatusCode/100 != 2 {
		return resp, nil
	}
	if !isJSON(resp.Header.Get("Content-Type")) {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{newSSECommentFilter(resp.Body, &ex.sawDone, &ex.renamed), resp.Body}
		return resp, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer+1))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("read JSON answer: %w", err)
	}
	if len(data) > maxJSONAnswer {
		// Too big to keep: hand the whole body on untouched.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	if renamed := reasoningAsContent(data); len(renamed) != len(data) {
		data, ex.renamed = renamed, true
	}
	ex.jsonBody = data
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

// isJSON reports whether a Content-Type names JSON (application/json or a
// +json type).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// setBody replaces req's body with body (a request go-openai built, so its
// own small body is dropped unread).
func setBody(req *http.Request, body *requestBody) {
	if req.Body != nil {
		req.Body.Close()
	}
	req.Body = io.NopCloser(body.reader())
	req.ContentLength = int64(body.size)
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.reader()), nil }
}
