package server

import (
	"context"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
)

// TestAfterEarlierRepliesWaits: a question or an edit to a plain editor
// waits until the requests read before it are answered — not for the one
// whose handler sends it, nor the one its turn works for — at most
// replyWriteBound, and no longer than its context. Our plugins' requests
// are not waited for.
func TestAfterEarlierRepliesWaits(t *testing.T) {
	num, str := jsonrpc2.NewNumberID, jsonrpc2.NewStringID
	tests := []struct {
		name     string
		read     []*jsonrpc2.Call // read from the editor before the question
		answered []jsonrpc2.ID    // replies written a second later
		own      *jsonrpc2.ID     // the question is sent by this request's handler
		caller   *jsonrpc2.ID     // the question is sent for this request (agent.WithCaller)
		deadline time.Duration    // the question's context ends then (0: never)
		plugin   bool             // the editor declared experimental.agent
		want     time.Duration
	}{
		{name: "nothing pending", want: 0},
		{name: "a command answered a second later", read: []*jsonrpc2.Call{commandCall(num(7))}, answered: []jsonrpc2.ID{num(7)}, want: time.Second},
		{name: "a string id", read: []*jsonrpc2.Call{commandCall(str("a"))}, answered: []jsonrpc2.ID{str("a")}, want: time.Second},
		{name: "another reply does not release it", read: []*jsonrpc2.Call{commandCall(num(7))}, answered: []jsonrpc2.ID{num(8)}, want: replyWriteBound},
		{name: "its own command", read: []*jsonrpc2.Call{commandCall(num(7))}, own: new(num(7)), want: 0},
		{name: "the command its turn works for", read: []*jsonrpc2.Call{commandCall(num(7))}, caller: new(num(7)), want: 0},
		{name: "its own command and another", read: []*jsonrpc2.Call{commandCall(num(7)), commandCall(num(8))}, answered: []jsonrpc2.ID{num(8)}, own: new(num(7)), want: time.Second},
		{name: "any request", read: []*jsonrpc2.Call{jsonrpc2.NewCall(num(9), "textDocument/definition", nil)}, answered: []jsonrpc2.ID{num(9)}, want: time.Second},
		{name: "our plugin's", read: []*jsonrpc2.Call{commandCall(num(7))}, plugin: true, want: 0},
		{name: "the question's context ends", read: []*jsonrpc2.Call{commandCall(num(7))}, deadline: 2 * time.Second, want: 2 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var s Server
				s.unanswered.ourClient.Store(tc.plugin)
				s.unanswered.read(jsonrpc2.NewNotification("workspace/didChangeConfiguration", nil))
				for _, c := range tc.read {
					s.unanswered.read(c)
				}
				replied := make(chan struct{})
				go func() {
					defer close(replied)
					time.Sleep(time.Second)
					for _, id := range tc.answered {
						body, err := jsonrpc2.EncodeMessage(jsonrpc2.NewResponse(id, jsonrpc2.RawMessage("null"), nil))
						if err != nil {
							t.Error(err)
						}
						s.unanswered.written(body)
					}
				}()
				ctx := context.Background()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				if tc.own != nil {
					ctx = context.WithValue(ctx, callIDKey{}, *tc.own)
				}
				if tc.caller != nil {
					ctx = agent.WithCaller(ctx, context.WithValue(context.Background(), callIDKey{}, *tc.caller))
				}
				start := time.Now()
				s.afterEarlierReplies(ctx)
				if got := time.Since(start); got != tc.want {
					t.Errorf("waited %s, want %s", got, tc.want)
				}
				<-replied
			})
		})
	}
}

// commandCall is a workspace/executeCommand call with id.
func commandCall(id jsonrpc2.ID) *jsonrpc2.Call {
	return jsonrpc2.NewCall(id, "workspace/executeCommand", nil)
}

// TestFrameStreamTellsEveryWrite: the stream tells its written hook of
// every message, also one given up on because its context had ended (a
// command's reply that is never written must not hold the questions after
// it).
func TestFrameStreamTellsEveryWrite(t *testing.T) {
	cli, srv := net.Pipe()
	defer cli.Close()
	stream := newFrameStream(srv, 0)
	defer stream.Close()
	var told []string
	stream.written = func(body []byte) { told = append(told, string(body)) }
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := stream.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.NewNumberID(3), jsonrpc2.RawMessage("null"), nil)); err == nil {
		t.Fatal("a write under an ended context succeeded")
	}
	if len(told) != 1 || told[0] != `{"jsonrpc":"2.0","id":3,"result":null}` {
		t.Fatalf("told %q, want the reply", told)
	}
}
