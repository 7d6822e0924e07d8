package server

import (
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// planDoc resolves the `.plan` document uri names in ws and reads its text
// (the editor's buffer when it is open); ok is false for a document that
// is no plan, lies outside the workspace or cannot be read. The code
// lenses and the code actions of plans start from it.
func planDoc(ws *workspace.Workspace, uri string) (wp workspace.Path, text string, ok bool) {
	path, err := host.PathOfURI(uri)
	if err != nil || !isPlanDoc(path) {
		return workspace.Path{}, "", false
	}
	if wp, err = ws.Resolve(path); err != nil {
		return workspace.Path{}, "", false
	}
	if text, err = ws.ReadFile(wp); err != nil {
		return workspace.Path{}, "", false
	}
	return wp, text, true
}
