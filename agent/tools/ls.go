package tools

import (
	"cmp"
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// Bounds of ls: how deep it descends and how many entries it returns.
const (
	maxLsDepth   = 10
	maxLsEntries = 2000
)

// LsParams are the arguments of ls.
type LsParams struct {
	Path  string `json:"path,omitempty" description:"Default: root."`
	Depth int    `json:"depth,omitempty" minimum:"0" description:"Levels to descend: default 1 (own entries), at most 10."`
}

// LsEntry is one entry of ls's result.
type LsEntry struct {
	Path  string `json:"path"`
	IsDir bool   `json:"is_dir,omitempty"`
	Size  int64  `json:"size,omitempty"`
}

// LsOutput is ls's result; Count is the number of entries before the cap.
type LsOutput struct {
	Path      string    `json:"path"`
	Entries   []LsEntry `json:"entries"`
	Count     int       `json:"count"`
	Truncated bool      `json:"truncated"`
}

// runLs runs ls.
func runLs(_ context.Context, env Env, p LsParams) (Result, error) {
	switch {
	case p.Depth < 0:
		return Failf("depth must not be negative"), nil
	case p.Depth == 0:
		p.Depth = 1
	case p.Depth > maxLsDepth:
		p.Depth = maxLsDepth
	}
	dir, fail := searchBase(env, p.Path)
	if fail != nil {
		return *fail, nil
	}
	if !dir.IsDir {
		return Failf("%s is a file, not a folder; use read to see it", dir.Rel), nil
	}
	entries, err := env.Workspace().List(dir, p.Depth)
	if err != nil {
		return Failf("%v", err), nil
	}
	out := LsOutput{Path: dir.Rel, Entries: make([]LsEntry, 0, min(len(entries), maxLsEntries)), Count: len(entries)}
	entries, out.Truncated = capped(entries, maxLsEntries)
	for _, e := range entries {
		le := LsEntry{Path: e.Path, IsDir: e.IsDir}
		if !e.IsDir {
			le.Size = e.Size
		}
		out.Entries = append(out.Entries, le)
	}
	return OK(out), nil
}

// lsTool lists a folder of the workspace.
var lsTool = New(Def[LsParams]{Name: "ls", Kind: "read", Run: runLs,
	Title: func(p LsParams) string { return codeTitle("ls", cmp.Or(p.Path, ".")) },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}}},
})
