package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/workspace"
)

// plainNameErr reports why a name given for a plan-mode target is not plain:
// `..` components, and below the workspace folder invalid UTF-8, NUL and
// other control or invisible format characters (bidi overrides, zero-width
// characters, line separators), `%`, `?` and `#` (URL-encoding tricks) and
// `:` (an NTFS alternate data stream: `src/main.go:x.plan` is main.go) and
// Windows device names (`nul.plan`, deviceNameErr) are refused, in the name
// as given and as decoded from a file:// URI. Where the workspace itself
// lives is not the model's choice and is not judged.
func (g *Guard) plainNameErr(given string) error {
	decoded, err := decodeGiven(given)
	if err != nil {
		return err
	}
	for _, s := range []string{g.belowFolder(given), g.belowFolder(decoded)} {
		if err := visibleErr(s); err != nil {
			return fmt.Errorf("%q: %w", given, err)
		}
	}
	for _, part := range strings.FieldsFunc(decoded, isSep) {
		if part == ".." {
			return fmt.Errorf("%q contains a '..' component; give the path without it", given)
		}
	}
	tails := []string{g.belowFolder(decoded)}
	if !strings.HasPrefix(given, fileScheme) {
		tails = append(tails, g.belowFolder(given))
	}
	for _, s := range tails {
		if strings.ContainsAny(s, "%?#") {
			return fmt.Errorf("%q contains %%, ? or #; give a plain path", given)
		}
		if strings.ContainsRune(s, ':') {
			return fmt.Errorf("%q contains ':', which on Windows names another stream of a file (src/main.go:x.plan is main.go); give a plain path", given)
		}
		if err := deviceNameErr(s); err != nil {
			return fmt.Errorf("%q: %w", given, err)
		}
	}
	return nil
}

// visibleErr refuses invalid UTF-8 and control or invisible format runes.
func visibleErr(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return fmt.Errorf("contains the invisible or control character %U", r)
		}
	}
	return nil
}

// belowFolder strips a workspace folder from the front of an absolute path
// (lexically), so that checks on characters ignore where the workspace lives.
func (g *Guard) belowFolder(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	for _, f := range g.ws.Folders() {
		if strings.HasPrefix(p, f+string(filepath.Separator)) {
			return p[len(f)+1:]
		}
	}
	return p
}

// planNameErr reports why a name given for a file target does not name a
// `.plan` file: it must be plain (plainNameErr) and end exactly in ".plan",
// both as given and as decoded, with a non-empty name before the extension
// (so `x.PLAN`, `x.plan.go`, `x.plan `, `x.plan.`, `x.plan/`, `x%2eplan` and
// `.plan` are all refused).
func (g *Guard) planNameErr(given string) error {
	if given == "" {
		return errors.New("no path given")
	}
	if err := g.plainNameErr(given); err != nil {
		return err
	}
	decoded, err := decodeGiven(given)
	if err != nil {
		return err
	}
	if !strings.HasSuffix(given, planExt) || !strings.HasSuffix(decoded, planExt) {
		return fmt.Errorf("%q is %w", given, errNotPlan)
	}
	if base := lastElem(decoded); len(base) <= len(planExt) {
		return fmt.Errorf("%q has no name before %q", given, planExt)
	}
	return nil
}

// planTargetErr is the predicate behind IsPlanTarget.
func (g *Guard) planTargetErr(p workspace.Path) error {
	if p.Abs == "" {
		return errors.New("no path")
	}
	if !isPlanBase(filepath.Base(p.Abs)) || strings.HasSuffix(p.Abs, string(filepath.Separator)) {
		return fmt.Errorf("%s is %w", p.Abs, errNotPlan)
	}
	if p.IsDir {
		return fmt.Errorf("%s is a folder, %w", p.Abs, errNotPlan)
	}
	r, err := g.ws.Resolve(p.Abs)
	if err != nil {
		return err
	}
	if r.Abs != p.Abs {
		return fmt.Errorf("%s leads to %s, which is %w", p.Abs, r.Abs, errNotPlan)
	}
	if err := visibleErr(r.Rel); err != nil {
		return fmt.Errorf("%s: %w", r.Rel, err)
	}
	if strings.ContainsRune(r.Rel, ':') {
		return fmt.Errorf("%s contains ':', which on Windows names another stream of a file", r.Rel)
	}
	if err := deviceNameErr(r.Rel); err != nil {
		return fmt.Errorf("%s: %w", r.Rel, err)
	}
	if pr := g.protectedAt(r.Abs); pr != nil {
		return fmt.Errorf("%s is inside %s", r.Rel, pr.what)
	}
	fi, err := os.Lstat(r.Abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // a new plan file
	case err != nil:
		return fmt.Errorf("stat %s: %w", r.Rel, err)
	case fi.IsDir():
		return fmt.Errorf("%s is a folder, %w", r.Rel, errNotPlan)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", r.Rel, fi.Mode().Type())
	}
	return nil
}

// planFileErr: the given name and the resolved target both make a plan file.
func (g *Guard) planFileErr(given string, p workspace.Path) error {
	if err := g.planNameErr(given); err != nil {
		return err
	}
	if !isPlanBase(filepath.Base(p.Abs)) {
		return fmt.Errorf("%q leads to %s, which is %w", given, p.Rel, errNotPlan)
	}
	return g.planTargetErr(p)
}

// writeErr: a plan file whose content may change, which an existing file
// with other hard links is not (writing it would change its other names).
func (g *Guard) writeErr(given string, p workspace.Path) error {
	if err := g.planFileErr(given, p); err != nil {
		return err
	}
	if err := g.hiddenErr(given, p, false); err != nil {
		return err
	}
	n, err := hardLinks(p.Abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case n > 1:
		return fmt.Errorf("%s has %d hard links, so writing it would change another file too", p.Rel, n)
	}
	return nil
}

// plainInPlans checks that given is a plain name (plainNameErr) and that p
// is in the plans folder, where mkdir and rm may act: at or below it, or
// strictly below it when the folder itself may not be p (rm). It returns
// the plans folder, resolved.
func (g *Guard) plainInPlans(given string, p workspace.Path, strictly bool) (string, error) {
	if err := g.plainNameErr(given); err != nil {
		return "", err
	}
	plans, err := g.plansReal()
	switch {
	case err != nil:
		return "", err
	case strictly && !strictlyUnder(p.Abs, plans):
		return "", fmt.Errorf("%s is not inside the plans folder", p.Rel)
	case !strictly && !under(p.Abs, plans):
		return "", fmt.Errorf("%s is outside the plans folder", p.Rel)
	}
	return plans, nil
}

// mkdirErr: a folder at or below the plans folder, none of whose new
// elements is named like a plan file.
func (g *Guard) mkdirErr(given string, p workspace.Path) error {
	plans, err := g.plainInPlans(given, p, false)
	if err != nil {
		return err
	}
	if err := visibleErr(p.Rel); err != nil {
		return fmt.Errorf("%s: %w", p.Rel, err)
	}
	if fi, err := os.Lstat(p.Abs); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a folder", p.Rel)
	}
	if err := g.hiddenErr(p.Abs, p, true); err != nil { // the name as given: decide
		return err
	}
	rel, err := filepath.Rel(plans, p.Abs)
	if err != nil {
		return fmt.Errorf("mkdir %s: %w", p.Rel, err)
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasSuffix(part, planExt) {
			return fmt.Errorf("%s: a folder may not be named like a plan file (%s)", p.Rel, part)
		}
	}
	return nil
}

// rmErr: inside the plans folder (not the folder itself), and either an
// empty folder or a plan file.
func (g *Guard) rmErr(given string, p workspace.Path) error {
	if _, err := g.plainInPlans(given, p, true); err != nil {
		return err
	}
	fi, err := os.Lstat(p.Abs)
	if err == nil && fi.IsDir() {
		entries, err := os.ReadDir(p.Abs)
		if err != nil {
			return fmt.Errorf("read folder %s: %w", p.Rel, err)
		}
		if len(entries) > 0 {
			return fmt.Errorf("folder %s is not empty", p.Rel)
		}
		return nil
	}
	return g.planFileErr(given, p)
}
