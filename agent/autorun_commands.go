package agent

import (
	"context"
	"errors"
	"strings"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// What a command did to files the editor or shell runs by itself is put
// to the user after it (agent/tools/sentinel.go), the way a BUILD edit to
// one is asked before it applies (askToApply): one permission question of
// kind edit, Remove (the safe option, first) or Keep.

var _ tools.AutoRunConfirmer = (*env)(nil)

// autoRunWhyAfter is why the question is asked.
const autoRunWhyAfter = "Your editor or shell runs what these files name by itself (when you open the folder, enter it or commit), outside agentls's sandbox."

// ConfirmAutoRun asks whether to keep what the command in r did. A
// rejection, a dismissal, a timeout, a cancelled turn or an editor that
// cannot ask keeps nothing.
func (e *env) ConfirmAutoRun(ctx context.Context, r tools.AutoRunReport) tools.AutoRunAnswer {
	s := e.s
	req := permission.Request{
		SessionID: s.faceID(), ToolCallID: ToolCallID(ctx), Requester: s.requester("run"), Kind: agentproto.PermissionEdit,
		What: r.Summary(), Reach: agentproto.ReachProcess, Done: r.Command, Note: autoRunNoteAfter(r),
		Options: []agentproto.PermissionOption{permission.Opt(agentproto.RejectOnce, "Remove (restore)"), permission.Opt(agentproto.AllowOnce, "Keep")},
	}
	d, err := s.m.Permit(ctx, req)
	switch {
	case errors.Is(err, permission.ErrNoSurface):
		return tools.AutoRunAnswer{Why: "the editor cannot ask"}
	case err != nil && ctx.Err() != nil:
		return tools.AutoRunAnswer{Why: "the turn was cancelled"}
	case err != nil:
		return tools.AutoRunAnswer{Why: "not answered: " + err.Error()} // a timeout, an editor that failed to ask
	case d.Allowed():
		return tools.AutoRunAnswer{Keep: true}
	case d.Dismissed:
		return tools.AutoRunAnswer{Why: "dismissed when asked"}
	}
	return tools.AutoRunAnswer{Why: "the user chose Remove when asked"}
}

// autoRunNoteAfter lists each file (a code span: a file's name cannot
// render as Markdown) with what happened to it, says why it matters and
// what Remove does, and names the files whose old content is too large to
// have been kept.
func autoRunNoteAfter(r tools.AutoRunReport) string {
	var b strings.Builder
	var capped []string
	for _, c := range r.Changes {
		name := permission.CodeSpan(questions.EscapeLine(c.Path))
		b.WriteString("- " + name + ": " + c.What + "\n")
		if c.Capped {
			capped = append(capped, name)
		}
	}
	b.WriteString("\n" + autoRunWhyAfter + " Remove undoes it: what the command created is deleted, what it changed or removed is put back as it was before the command.")
	if len(capped) > 0 {
		b.WriteString("\n\n" + strings.Join(capped, ", ") + ": over the size limit of what agentls keeps before a command, so its old content cannot be put back (Remove can only delete such a file when it is new).")
	}
	return b.String()
}
