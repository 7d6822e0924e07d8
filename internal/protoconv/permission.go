package protoconv

import (
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// Permission is a permission request as the LSP face sends it (agent/askUser's
// permission object): every text field escaped (permission.Request.Escaped).
func Permission(r permission.Request) agentproto.PermissionRequest {
	e := r.Escaped()
	return agentproto.PermissionRequest{
		Kind: e.Kind, What: e.What, Cwd: e.Cwd, Reach: e.Reach, Grants: e.Grants, Network: e.Network, Sandbox: e.Sandbox,
		Options: e.Options, Requester: e.Requester, ToolCallID: e.ToolCallID, Document: e.Document, Diff: e.Diff,
	}
}
