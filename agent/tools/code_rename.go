package tools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// RenameParams are the arguments of rename.
type RenameParams struct {
	Path    string `json:"path"`
	Line    int    `json:"line" minimum:"1"`
	Symbol  string `json:"symbol"`
	NewName string `json:"new_name"`
}

// RenameOutput is rename's result: the files changed (relative) and the
// number of edits.
type RenameOutput struct {
	Files []string `json:"files"`
	Edits int      `json:"edits"`
}

// runRename asks the language server for the edits of a rename and applies
// them as one change set, through Env.Apply (the guard's last check on every
// file, the editor's WorkspaceEdit), never on its own.
func runRename(ctx context.Context, env Env, p RenameParams) (Result, error) {
	src := intelOf(env)
	if src == nil {
		return Failf("no language server serves this workspace (lsp.source)"), nil
	}
	if strings.TrimSpace(p.NewName) == "" {
		return Failf("new_name is required"), nil
	}
	rp, pos, fail := symbolPosition(env, src, p.Path, p.Line, p.Symbol)
	if fail != nil {
		return *fail, nil
	}
	edits, err := src.Rename(ctx, rp.Abs, pos, p.NewName)
	if err != nil {
		return intelFailure(err)
	}
	if len(edits) == 0 {
		return Failf("the language server found nothing to rename at %s:%d %q", rp.Rel, p.Line, p.Symbol), nil
	}
	ws := env.Workspace()
	paths := make([]string, 0, len(edits))
	for path := range edits {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	// One file may be named under several paths (a "./" segment, a
	// symbolic link inside the workspace): its edits are gathered under
	// its real path and applied to its text once, an edit named twice
	// counted once — two writes from the same original text would lose
	// the first.
	files := map[string]workspace.Path{}
	byFile := map[string][]workspace.TextEdit{}
	for _, path := range paths {
		fp, err := ws.Resolve(path)
		if err != nil {
			return Failf("the rename would change %s, outside the workspace: nothing was changed", path), nil
		}
		files[fp.Abs] = fp
		for _, e := range edits[path] {
			if !slices.Contains(byFile[fp.Abs], e) {
				byFile[fp.Abs] = append(byFile[fp.Abs], e)
			}
		}
	}
	var changes []workspace.Change
	out := RenameOutput{}
	for _, abs := range slices.Sorted(maps.Keys(files)) {
		fp := files[abs]
		before, err := ws.ReadFile(fp)
		if err != nil {
			return Failf("%s: %v: nothing was changed", fp.Rel, err), nil
		}
		after, err := workspace.ApplyEdits(before, byFile[abs])
		if err != nil {
			return Failf("the language server's edits of %s do not apply (%v): nothing was changed", fp.Rel, err), nil
		}
		c, err := ws.ComputeWrite(fp, after)
		if err != nil {
			return Failf("%s: %v: nothing was changed", fp.Rel, err), nil
		}
		changes = append(changes, c)
		out.Files = append(out.Files, fp.Rel)
		out.Edits += len(byFile[abs])
	}
	if len(out.Files) > MaxCodeItems {
		out.Files = append(out.Files[:MaxCodeItems], fmt.Sprintf("… %d more", len(out.Files)-MaxCodeItems))
	}
	label := fmt.Sprintf("rename %s → %s", p.Symbol, p.NewName)
	err = env.Apply(ctx, "rename", label, changes)
	if err == nil {
		return OK(out), nil
	}
	var ref *guard.Refusal
	if errors.As(err, &ref) {
		return Refused(ref), nil
	}
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("rename: %w", err)
	}
	return Failf("%s: %v", label, err), nil
}

// renameTool renames a symbol everywhere the language server finds it.
var renameTool = New(Def[RenameParams]{Name: "rename", Kind: "edit", Run: runRename,
	Title: func(p RenameParams) string { return title("rename", p.Symbol+" → "+p.NewName) },
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
