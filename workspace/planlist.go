package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// ListedPlan is one `.plan` file of the plans folder as ListPlans finds it.
type ListedPlan struct {
	// Path is the plan file, resolved (Rel: workspace-relative, forward slashes).
	Path Path
	// Name is the file name without `.plan`.
	Name string
	// ModTime is the file's modification time on disk; zero for an entry
	// that is not a regular file (a symlink).
	ModTime time.Time
	// Plan is the parsed plan: Meta is nil for a legacy plan without
	// frontmatter and for a plan whose frontmatter cannot be parsed (Err
	// says why; the steps are still counted).
	Plan Plan
	// Err says why the plan cannot be listed in full: its frontmatter
	// cannot be parsed, the file cannot be read, or it is a symlink (never
	// followed). nil for a plan listed in full.
	Err error
}

// Created is when the plan was created: its frontmatter's created_at, else
// (a legacy or broken plan) its modification time; zero for an entry that
// is not a regular file.
func (p ListedPlan) Created() time.Time {
	if p.Plan.Meta != nil && !p.Plan.Meta.CreatedAt.IsZero() {
		return p.Plan.Meta.CreatedAt
	}
	return p.ModTime
}

// Status is the plan's frontmatter status; "" for a legacy or broken plan.
func (p ListedPlan) Status() agentproto.PlanStatus {
	if p.Plan.Meta == nil {
		return ""
	}
	return p.Plan.Meta.Status
}

// ErrPlanSymlink is the Err of a `.plan` name that is a symlink: listing
// never follows one (its target may lie outside the workspace or inside
// `.git/`), just as the guard never treats one as a plan.
var ErrPlanSymlink = errors.New("a symlink, not followed: a plan must be a regular file in the plans folder")

// ListPlans is the one listing of the plans folder, shared by the editor's
// agent/listPlans and the model's plan_list. dir is the plans folder,
// workspace-relative (config's PlansDir). The rule is the guard's view of a
// plan: every regular `.plan` file below dir, recursively, reached without
// symlinks. A plans folder that does not exist holds no plans; one that
// leaves the workspace, is reached through a symlink or is not a folder is
// an error. Subfolders the guard protects (`.git`, `.agentls`, `.hg`, `.svn`, `.jj`, any letter case) are skipped; any other
// file without the `.plan` extension is not a plan.
//
// Nothing is swallowed: a `.plan` name that is a symlink, that cannot be
// read or whose frontmatter cannot be parsed is listed with its Err; a
// subfolder that cannot be read is an error naming it.
//
// The list is newest first: by Created, then by modification time, then by
// path; so a symlink or other non-file entry, which has no time, comes last.
func (w *Workspace) ListPlans(dir string) ([]ListedPlan, error) {
	folder, err := w.Resolve(dir)
	if err != nil {
		return nil, fmt.Errorf("plans folder %s: %w", dir, err)
	}
	lexical := filepath.Clean(filepath.FromSlash(dir))
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(w.Root(), lexical)
	}
	if folder.Abs != lexical {
		return nil, fmt.Errorf("plans folder %s is reached through a symlink (%s); plans are listed only from a real folder", dir, folder.Rel)
	}
	if !folder.Exists {
		return nil, nil
	}
	if !folder.IsDir {
		return nil, fmt.Errorf("plans folder %s is not a folder", folder.Rel)
	}
	var out []ListedPlan
	err = filepath.WalkDir(folder.Abs, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named here, relative
			}
			return fmt.Errorf("list %s: %w", w.relOrAbs(abs), err)
		}
		if d.IsDir() {
			if abs != folder.Abs && notPlanFolder(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(d.Name()) != ".plan" {
			return nil
		}
		out = append(out, w.listedPlan(abs, d))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("plans folder %s: %w", folder.Rel, err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ca, cb := a.Created(), b.Created(); !ca.Equal(cb) {
			return ca.After(cb)
		}
		if !a.ModTime.Equal(b.ModTime) {
			return a.ModTime.After(b.ModTime)
		}
		return a.Path.Rel < b.Path.Rel
	})
	return out, nil
}

// listedPlan reads and parses one `.plan` entry met by ListPlans.
func (w *Workspace) listedPlan(abs string, d fs.DirEntry) ListedPlan {
	rel := w.RelOf(abs)
	folder, _ := w.folderOf(abs)
	lp := ListedPlan{
		Path: Path{Abs: abs, Rel: rel, Folder: folder},
		Name: strings.TrimSuffix(path.Base(rel), ".plan"),
	}
	if !d.Type().IsRegular() {
		// Not a plan: no time of its own, so it is listed after the plans.
		lp.Err = ErrPlanSymlink
		if d.Type()&fs.ModeSymlink == 0 {
			lp.Err = fmt.Errorf("not a regular file (%s)", d.Type())
		}
		return lp
	}
	info, err := d.Info()
	if err != nil {
		lp.Err = fmt.Errorf("%s: %w", rel, err)
		return lp
	}
	lp.ModTime = info.ModTime()
	lp.Path.Exists = true
	text, err := w.ReadFile(lp.Path)
	if err != nil {
		lp.Err = err
		return lp
	}
	lp.Plan, lp.Err = ParsePlan(text)
	return lp
}

// relOrAbs is abs relative to its workspace folder, or abs itself outside.
func (w *Workspace) relOrAbs(abs string) string {
	if rel := w.RelOf(abs); rel != "" {
		return rel
	}
	return abs
}

// SelectPlans keeps the listed plans with the given status ("" keeps
// every one; a plan without a status matches none) and returns the first
// limit of them (limit ≤ 0: all) with how many matched.
func SelectPlans(plans []ListedPlan, status agentproto.PlanStatus, limit int) ([]ListedPlan, int) {
	var out []ListedPlan
	for _, p := range plans {
		if status == "" || p.Status() == status {
			out = append(out, p)
		}
	}
	total := len(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, total
}

// notPlanFolders are the folders whose files the guard never lets change
// (agentls's state and the version-control folders): no plan is listed from
// them, whatever the letter case.
var notPlanFolders = []string{".agentls", ".git", ".hg", ".svn", ".jj"}

// notPlanFolder reports whether a subfolder of the plans folder is skipped.
func notPlanFolder(name string) bool {
	return slices.ContainsFunc(notPlanFolders, func(n string) bool { return strings.EqualFold(n, name) })
}
