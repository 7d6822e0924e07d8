package protoconv

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// TestPermissionJSON: the permission object agent/askUser carries, every
// text escaped (control and bidi characters shown as \u escapes), every
// grant in full, the options in order, empty fields left out but grants
// and options always present.
func TestPermissionJSON(t *testing.T) {
	tests := []struct {
		name string
		req  permission.Request
		want string
	}{
		{"run", permission.Request{SessionID: "s", ToolCallID: "c1", Requester: "run\u202e", Kind: agentproto.PermissionRun, What: "rm -rf /\u202e", Cwd: "/w\nx", Reach: "process",
			Grants: []string{"a\x1b[31m", "b"}, Network: permission.NetworkNo, Sandbox: permission.SandboxOn, Note: "not sent",
			Options: []agentproto.PermissionOption{permission.Opt(agentproto.RejectOnce, "No\u200f"), permission.Opt(agentproto.AllowOnce, "Yes")}, Diff: "--- a\n+++ b\n\u202e"},
			`{"kind":"run","what":"rm -rf /\\u202E","cwd":"/w\\u000Ax","reach":"process","grants":["a\\u001B[31m","b"],"network":"no","sandbox":"on","options":[{"id":"reject_once","kind":"reject_once","label":"No\\u200F"},{"id":"allow_once","kind":"allow_once","label":"Yes"}],"requester":"run\\u202E","toolCallId":"c1","diff":"--- a\n+++ b\n\\u202E"}`},
		{"bare", permission.Request{Kind: agentproto.PermissionTrust, What: ".agentls.yaml"},
			`{"kind":"trust","what":".agentls.yaml","grants":[],"options":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(Permission(tc.req))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("permission JSON\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
