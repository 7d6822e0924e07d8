package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// ReadParams are the arguments of read.
type ReadParams struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty" minimum:"0" description:"First line, 1-based."`
	Limit  int    `json:"limit,omitempty" minimum:"0" description:"Number of lines."`
}

// ReadOutput is read's result: a window of the file, line-numbered, and the
// hash of the whole file for edit's last_read_hash.
type ReadOutput struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	Truncated  bool   `json:"truncated"`
	Hash       string `json:"hash"`
	// Continue says where to read on when lines follow EndLine.
	Continue string `json:"continue,omitempty"`
	// Note says what the content does not show: bytes that are not UTF-8,
	// a BOM, line breaks other than LF (workspace.ReadResult.Note).
	Note string `json:"note,omitempty"`
}

// MaxReadBytes caps the content of one read (about 12k tokens): a window
// that would be larger ends at the last whole line that fits.
const MaxReadBytes = 50 << 10

// runRead runs read.
func runRead(_ context.Context, env Env, p ReadParams) (Result, error) {
	if p.Offset < 0 || p.Limit < 0 {
		return Failf("offset and limit must not be negative"), nil
	}
	rp, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	out, fail := readWindow(env.Workspace(), rp, p.Offset, p.Limit)
	if fail != nil {
		return *fail, nil
	}
	return OK(out), nil
}

// readWindow reads a window of a file as read and plan_read show it.
func readWindow(ws *workspace.Workspace, p workspace.Path, offset, limit int) (ReadOutput, *Result) {
	if p.IsDir {
		r := Failf("%s is a directory; use ls to list it", p.Rel)
		return ReadOutput{}, &r
	}
	rr, err := ws.Read(p, offset, limit)
	if err != nil {
		r := Failf("read %s: %v", p.Rel, err)
		if errors.Is(err, fs.ErrNotExist) {
			r = Failf("%s does not exist; use ls or glob to find the file", p.Rel)
		}
		return ReadOutput{}, &r
	}
	out := ReadOutput{
		Path: p.Rel, Content: rr.Content, StartLine: rr.StartLine, EndLine: rr.EndLine,
		TotalLines: rr.TotalLines, Truncated: rr.Truncated, Hash: rr.Hash, Note: rr.Note,
	}
	capped := false
	if len(out.Content) > MaxReadBytes {
		cut := strings.LastIndexByte(out.Content[:MaxReadBytes], '\n') + 1
		if cut == 0 { // one line longer than the cap (cannot happen with MaxLineLen)
			cut = strings.IndexByte(out.Content, '\n') + 1
		}
		out.Content = out.Content[:cut]
		out.EndLine = out.StartLine + strings.Count(out.Content, "\n") - 1
		out.Truncated, capped = true, true
	}
	if out.EndLine < out.TotalLines {
		why := "more lines follow"
		if capped {
			why = fmt.Sprintf("output capped at %d KB", MaxReadBytes>>10)
		}
		out.Continue = fmt.Sprintf("%s: continue at line %d (offset %d)", why, out.EndLine+1, out.EndLine+1)
	}
	return out, nil
}

// readTool reads a text file of the workspace (the editor's unsaved text wins).
var readTool = New(Def[ReadParams]{Name: "read", Kind: "read", Run: runRead,
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source}}},
})
