package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// GlobParams are the arguments of glob.
type GlobParams struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty" description:"Folder to search from (default: root)."`
}

// maxGlobMatches bounds the paths glob returns.
const maxGlobMatches = 1000

// GlobOutput is glob's result; Count is the number of matches before the cap.
type GlobOutput struct {
	Pattern   string   `json:"pattern"`
	Matches   []string `json:"matches"`
	Count     int      `json:"count"`
	Truncated bool     `json:"truncated"`
}

// runGlob runs glob.
func runGlob(ctx context.Context, env Env, p GlobParams) (Result, error) {
	if strings.TrimSpace(p.Pattern) == "" {
		return Failf("pattern is required"), nil
	}
	base, fail := searchBase(env, p.Path)
	if fail != nil {
		return *fail, nil
	}
	if !base.IsDir {
		return Failf("path %s is not an existing folder", base.Rel), nil
	}
	matches, err := env.Workspace().GlobContext(ctx, p.Pattern, base)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return Failf("%v", err), nil
	}
	out := GlobOutput{Pattern: p.Pattern, Count: len(matches)}
	out.Matches, out.Truncated = capped(matches, maxGlobMatches)
	if out.Matches == nil {
		out.Matches = []string{}
	}
	return OK(out), nil
}

// globTool finds files by name pattern.
var globTool = New(Def[GlobParams]{Name: "glob", Kind: "search", Run: runGlob,
	Title: func(p GlobParams) string { return codeTitle("glob", p.Pattern) },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}}},
})
