package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// EditSpec is what the `edit` tool asks for: replace OldString by NewString
// (every occurrence with ReplaceAll), or, when InsertLine is set, insert
// InsertContent after that line (0 = before the first line).
type EditSpec struct {
	OldString, NewString string
	ReplaceAll           bool
	// LastReadHash, when set, must equal Hash of the current text.
	LastReadHash  string
	InsertLine    *int
	InsertContent string
}

// ComputeWrite computes writing content to p: a new file is a ChangeCreate,
// an existing one a ChangeEdit with one TextEdit covering what differs (none
// when nothing does).
func (w *Workspace) ComputeWrite(p Path, content string) (Change, error) {
	if !p.Exists {
		return Change{Kind: ChangeCreate, Path: p, After: content}, nil
	}
	if p.IsDir {
		return Change{}, fmt.Errorf("%s is a folder; give write a file path", p.Rel)
	}
	before, err := w.ReadFile(p)
	if err != nil {
		if errors.Is(err, ErrBinary) && !strings.Contains(err.Error(), "UTF-16") {
			return Change{}, fmt.Errorf("%s is a binary file; write will not overwrite it (rm it first if you mean to replace it)", p.Rel)
		}
		return Change{}, err
	}
	return Change{Kind: ChangeEdit, Path: p, Before: before, After: content, Edits: diffEdit(before, content)}, nil
}

// ComputeWriteText is ComputeWrite for the write tool, whose content is text
// as the model reads it: an existing file keeps its form (its BOM, its line
// breaks; keepForm), and one that is not UTF-8 is refused, since the model
// saw its odd bytes as U+FFFD and content would replace them. New text
// holding read's cut note is refused too.
func (w *Workspace) ComputeWriteText(p Path, content string) (Change, error) {
	if hasCutNote(content) {
		return Change{}, fmt.Errorf("content holds read's note %q: a line was cut when shown, and writing it would cut the file's line; change the file with edit instead", cutNote)
	}
	c, err := w.ComputeWrite(p, content)
	if err != nil || c.Kind != ChangeEdit {
		return c, err
	}
	f := FormOf(c.Before)
	if f.Invalid >= 0 {
		return Change{}, fmt.Errorf("%s is not UTF-8 (byte 0x%02X at line %d is not): write would replace its bytes with the text you read, where they show as U+FFFD; change it with edit, which changes only the bytes it replaces, or ask the user, or use run",
			p.Rel, c.Before[f.Invalid], lineOf(c.Before, f.Invalid))
	}
	c.After = keepForm(c.Before, f, content)
	c.Edits = diffEdit(c.Before, c.After)
	return c, nil
}

// ComputeEdit computes an `edit` against the current text of p (overlay
// first). The result is a ChangeEdit with one minimal TextEdit per replaced
// occurrence (or the insertion).
func (w *Workspace) ComputeEdit(p Path, spec EditSpec) (Change, error) {
	if !p.Exists {
		return Change{}, fmt.Errorf("%s does not exist; use write to create it", p.Rel)
	}
	if p.IsDir {
		return Change{}, fmt.Errorf("%s is a folder, not a file", p.Rel)
	}
	text, err := w.ReadFile(p)
	if err != nil {
		return Change{}, err
	}
	if spec.LastReadHash != "" {
		if now := Hash(text); now != spec.LastReadHash {
			return Change{}, fmt.Errorf("file changed since you read it (hash %s, now %s); read it again", spec.LastReadHash, now)
		}
	}
	if hasCutNote(spec.NewString) || hasCutNote(spec.InsertContent) {
		return Change{}, fmt.Errorf("the new text holds read's note %q: that line was cut when shown, and the note is not the file's text; edit the part of the line you can see instead", cutNote)
	}
	if spec.InsertLine != nil {
		if spec.OldString != "" || spec.NewString != "" || spec.ReplaceAll {
			return Change{}, errors.New("give either old_string/new_string or insert_line/insert_content, not both")
		}
		return insertChange(p, text, *spec.InsertLine, spec.InsertContent)
	}
	return replaceChange(p, text, spec)
}

func replaceChange(p Path, text string, spec EditSpec) (Change, error) {
	oldS, newS := spec.OldString, spec.NewString
	if oldS == "" {
		return Change{}, errors.New("old_string is empty; to insert text use insert_line, to replace the whole file use write")
	}
	if oldS == newS {
		return Change{}, errors.New("old_string and new_string are identical; nothing would change")
	}
	form := FormOf(text)
	count := strings.Count(text, oldS)
	if count == 0 && form.EOL != "\n" && strings.Contains(oldS, "\n") {
		// The model saw the lines without their "\r": match the file's breaks.
		oldS = form.Breaks(oldS)
		count = strings.Count(text, oldS)
	}
	// New lines get the file's line break, whichever the model wrote.
	newS = form.Breaks(newS)
	switch {
	case count == 0:
		return Change{}, fmt.Errorf("old_string not found in %s; read the file again and copy the text exactly, including whitespace and indentation%s", p.Rel, form.notFoundHint(text))
	case oldS == newS:
		return Change{}, errors.New("old_string and new_string differ only in their line breaks, which follow the file's; nothing would change")
	case count > 1 && !spec.ReplaceAll:
		return Change{}, fmt.Errorf("old_string occurs %d times; add context or set replace_all", count)
	}
	// Only the part of each occurrence that really changes is edited.
	pre, suf := commonAffixes(oldS, newS)
	repl := newS[pre : len(newS)-suf]
	var b strings.Builder
	b.Grow(len(text) + count*(len(newS)-len(oldS)))
	cur := posCursor{text: text}
	edits := make([]TextEdit, 0, count)
	last, prevEnd, overlap := 0, 0, false
	for i := 0; i < count; i++ {
		at := last + strings.Index(text[last:], oldS)
		start, end, nt := at+pre, at+len(oldS)-suf, repl
		// An occurrence may begin or end inside a "\r\n" (old_string starting
		// with "\n" or ending with "\r"): widen the edit to the whole pair.
		if !boundary(text, start) {
			start--
			nt = text[start:start+1] + nt
		}
		if !boundary(text, end) {
			nt += text[end : end+1]
			end++
		}
		if start < prevEnd {
			overlap = true // widened edits touch: fall back to one edit below
		} else {
			edits = append(edits, TextEdit{Range: Range{Start: cur.at(start), End: cur.at(end)}, NewText: nt})
		}
		prevEnd = end
		b.WriteString(text[last:at])
		b.WriteString(newS)
		last = at + len(oldS)
	}
	b.WriteString(text[last:])
	after := b.String()
	if overlap {
		edits = diffEdit(text, after)
	}
	return Change{Kind: ChangeEdit, Path: p, Before: text, After: after, Edits: edits}, nil
}

func insertChange(p Path, text string, line int, content string) (Change, error) {
	total := countLines(text)
	if line < 0 || line > total {
		return Change{}, fmt.Errorf("insert_line %d is out of range: %s has %d lines (0 inserts before the first line, %d after the last)", line, p.Rel, total, total)
	}
	if content == "" {
		return Change{}, errors.New("insert_content is empty; nothing to insert")
	}
	form := FormOf(text)
	eol := form.EOL
	content = form.Breaks(content)
	// Byte offset of the start of line+1 (1-based), i.e. just after line;
	// the first line starts after a BOM.
	offset := 0
	if form.BOM {
		offset = len(utf8BOM)
	}
	for range line {
		_, next := nextLine(text, offset)
		if next < 0 {
			offset = len(text)
			break
		}
		offset = next
	}
	insert := content
	endsWithBreak := strings.HasSuffix(content, "\n") || strings.HasSuffix(content, "\r")
	if offset == len(text) && text != "" && !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		// After a last line that has no line break: the file keeps ending
		// without one.
		insert = eol + strings.TrimSuffix(content, eol)
	} else if !endsWithBreak {
		insert += eol
	}
	pos := PositionOf(text, offset)
	return Change{
		Kind:   ChangeEdit,
		Path:   p,
		Before: text,
		After:  text[:offset] + insert + text[offset:],
		Edits:  []TextEdit{{Range: Range{Start: pos, End: pos}, NewText: insert}},
	}, nil
}

// usesCRLF reports whether the first line break of text is "\r\n".
func usesCRLF(text string) bool {
	i := strings.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// diffEdit returns the single TextEdit turning before into after (replacing
// what lies between their common prefix and suffix), or none if they are equal.
func diffEdit(before, after string) []TextEdit {
	if before == after {
		return nil
	}
	pre, suf := commonAffixes(before, after)
	cur := posCursor{text: before}
	start := cur.at(pre)
	end := cur.at(len(before) - suf)
	return []TextEdit{{Range: Range{Start: start, End: end}, NewText: after[pre : len(after)-suf]}}
}

// commonAffixes returns the lengths of the common prefix and suffix of a and
// b, not overlapping in either, and cut so that neither splits a UTF-8
// sequence or a "\r\n" pair (LSP positions cannot point inside them).
func commonAffixes(a, b string) (pre, suf int) {
	n := min(len(a), len(b))
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	for pre > 0 && (!boundary(a, pre) || !boundary(b, pre)) {
		pre--
	}
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for suf > 0 && (!boundary(a, len(a)-suf) || !boundary(b, len(b)-suf)) {
		suf--
	}
	return pre, suf
}

// boundary reports whether offset i of s is a place an LSP position can name.
func boundary(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	return runeBoundary(s, i) && !(s[i] == '\n' && s[i-1] == '\r')
}

// ComputeMove computes moving from to to: from must exist, to must not.
func (w *Workspace) ComputeMove(from, to Path) (Change, error) {
	if !from.Exists {
		return Change{}, fmt.Errorf("cannot move %s: it does not exist", from.Rel)
	}
	if to.Exists {
		return Change{}, fmt.Errorf("cannot move %s to %s: the destination already exists (remove it first or choose another name)", from.Rel, to.Rel)
	}
	if isRoot(from) {
		return Change{}, fmt.Errorf("cannot move the workspace folder %s", from.Folder)
	}
	if from.IsDir && strings.HasPrefix(to.Abs, from.Abs+string(os.PathSeparator)) {
		return Change{}, fmt.Errorf("cannot move the folder %s into itself (%s)", from.Rel, to.Rel)
	}
	return Change{Kind: ChangeRename, From: from, Path: to}, nil
}

// ComputeRemove computes deleting p: it must exist, and a folder with
// entries needs recursive.
func (w *Workspace) ComputeRemove(p Path, recursive bool) (Change, error) {
	if !p.Exists {
		return Change{}, fmt.Errorf("cannot remove %s: it does not exist", p.Rel)
	}
	if isRoot(p) {
		return Change{}, fmt.Errorf("refusing to remove the workspace folder %s", p.Folder)
	}
	if p.IsDir && !recursive {
		f, err := os.Open(p.Abs)
		if err != nil {
			return Change{}, fmt.Errorf("remove %s: %w", p.Rel, err)
		}
		names, err := f.Readdirnames(1)
		f.Close()
		if len(names) > 0 {
			return Change{}, fmt.Errorf("%s is a folder that is not empty; set recursive to delete it with everything inside", p.Rel)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Change{}, fmt.Errorf("remove %s: %w", p.Rel, err)
		}
	}
	return Change{Kind: ChangeDelete, Path: p, Recursive: recursive}, nil
}

// ComputeMkdir computes creating the folder p (and missing parents); an
// existing folder is fine, an existing file is not.
func (w *Workspace) ComputeMkdir(p Path) (Change, error) {
	if p.Exists && !p.IsDir {
		return Change{}, fmt.Errorf("cannot create the folder %s: a file with that name exists", p.Rel)
	}
	return Change{Kind: ChangeMkdir, Path: p}, nil
}

// ComputeTouch computes `touch`: a missing file is created empty; an existing
// one gets a ChangeEdit without edits (Before == After), which on disk only
// updates its modification time.
func (w *Workspace) ComputeTouch(p Path) (Change, error) {
	if !p.Exists {
		return Change{Kind: ChangeCreate, Path: p}, nil
	}
	if p.IsDir {
		return Change{}, fmt.Errorf("%s is a folder; touch works on files", p.Rel)
	}
	text, err := w.rawText(p)
	if err != nil {
		return Change{}, err
	}
	return Change{Kind: ChangeEdit, Path: p, Before: text, After: text}, nil
}

// isRoot reports whether p is a workspace folder itself.
func isRoot(p Path) bool { return p.Abs == p.Folder }
